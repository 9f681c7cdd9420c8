package broker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sower-engine/sower/bench/match"
	"github.com/sower-engine/sower/bench/record"
)

// Match is a match whose pairs are played by workers.
type Match struct {
	// Config is the match as a local one would be configured (its
	// Progress, Report, JSON and PGN are written the same way); Log and
	// Traditional are not supported, Concurrency is ignored.
	Config match.Config
	// ID names the match on the broker; empty derives it from the
	// settings, so that the same command resumes the same match.
	ID string
	// AckWait is how long a task may go unacknowledged before another
	// worker gets it (0: DefaultAckWait).
	AckWait time.Duration
	// MaxDeliver is how often a task is handed out before it is given up
	// as failed (0: ten times); a pair whose workers all die is not
	// retried for ever.
	MaxDeliver int
	// ProgressEvery is how often a line shows the workers and pairs (0:
	// ten seconds).
	ProgressEvery time.Duration
	// Build is the program the coordinator runs (ThisBuild). A match with
	// a built-in player needs it: only workers of that build play its
	// pairs, since another build's built-in players may play otherwise.
	Build Build
	// Written, if set, reports whether the JSON records written already
	// hold rec (see Written), and PGNWritten whether the PGN written
	// already holds it (see WrittenPGN): a resumed match writes a record
	// only to the outputs that lack it, and counts it without writing it
	// when none does, so that a coordinator stopped between writing a
	// result and acknowledging it, or between a record's JSON and its
	// PGN, writes no game twice and loses none.
	Written    func(rec *record.GameRecord) bool
	PGNWritten func(rec *record.GameRecord) bool
}

// ErrSettings marks a match id taken by a match with other settings.
var ErrSettings = errors.New("match id taken")

// matchJob is a match as a coordinator's job: one task per pair.
type matchJob struct {
	m        *Match
	settings Settings
	pairs    int
	tally    *match.Tally
	outputs  []*output         // the tally's JSON and PGN, as they are set
	done     map[int]bool      // pairs counted
	failed   map[int]string    // pairs given up, with the reason
	objects  map[string]string // the engine programs here, by SHA-256
	requeued map[int]bool      // pairs queued again after a damaged object was replaced
	repairs  []int             // pairs whose object is to be replaced and that are to be queued again
	out      io.Writer
}

// Run plays the match on the broker and returns its summary, as
// match.Run does for a local one. When ctx ends the match stays on the
// broker: running it again with the same settings resumes it.
func Run(ctx context.Context, c *Client, m Match) (match.Summary, error) {
	cfg := &m.Config
	if cfg.Traditional {
		return match.Summary{}, errors.New("a traditional match plays its games in sequence: it cannot be spread over workers")
	}
	if cfg.Log != nil {
		return match.Summary{}, errors.New("the engines' log is written by each worker (sower worker --log)")
	}
	if cfg.Proven != nil {
		return match.Summary{}, errors.New("proof adjudication is the arbiter's own: the workers do not read a proof book")
	}
	if cfg.NoRepeat {
		return match.Summary{}, errors.New("a match without repeated openings: a task carries one opening for its pair of games")
	}
	if err := cfg.Validate(); err != nil {
		return match.Summary{}, err
	}
	j := &matchJob{m: &m, pairs: (cfg.Games + 1) / 2, done: map[int]bool{}, failed: map[int]string{}, out: cfg.Progress,
		objects: map[string]string{}, requeued: map[int]bool{}}
	if j.out == nil {
		j.out = io.Discard
	}
	var programs, hashes [2]string
	for i, e := range cfg.Engines {
		if e.Builtin != "" {
			continue
		}
		if e.Dir != "" {
			return match.Summary{}, fmt.Errorf("engine%d (%s): a directory to run in is for a local match: workers run the uploaded program in their own", i+1, e.Name)
		}
		p, err := program(e.Command[0])
		if err != nil {
			return match.Summary{}, fmt.Errorf("engine%d (%s): %v", i+1, e.Name, err)
		}
		if hashes[i], err = hashFile(p); err != nil {
			return match.Summary{}, fmt.Errorf("engine%d (%s): %v", i+1, e.Name, err)
		}
		programs[i] = p
		j.objects[hashes[i]] = p
	}
	j.settings = Settings{Version: Version, Setup: NewSetup(cfg, hashes)}
	if j.settings.Setup.builtin() {
		if err := m.Build.check(); err != nil {
			return match.Summary{}, fmt.Errorf("a match with a built-in player: %w", err)
		}
		j.settings.Setup.Sower, j.settings.Setup.Build = m.Build.Version, m.Build.SHA256
	}
	for i := range j.settings.Setup.Engines {
		j.settings.Setup.Engines[i].Program = "" // where it lies here does not change the games
	}
	for _, o := range cfg.PairOpenings() {
		j.settings.Openings = append(j.settings.Openings, o.String())
	}
	if cfg.SPRT != nil {
		j.settings.SPRT = cfg.SPRT.String()
	}
	if err := j.newTally(); err != nil {
		return match.Summary{}, err
	}
	if m.ID == "" {
		m.ID = j.settings.ID()
	}
	co := &coordinator{c: c, id: m.ID, job: j, ackWait: m.AckWait, maxDeliver: m.MaxDeliver, every: m.ProgressEvery, out: j.out}
	if err := co.start(ctx, &j.settings); err != nil {
		return match.Summary{}, err
	}
	for i, p := range programs {
		if p == "" {
			continue
		}
		if err := upload(ctx, c.JS, p, hashes[i], co.out); err != nil {
			co.lease.release()
			return match.Summary{}, fmt.Errorf("uploading engine%d (%s): %w", i+1, p, err)
		}
	}
	err := co.run(ctx)
	sum := j.tally.Summary()
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("coordinator stopped after %d games: %w", sum.Score.Games(), err)
	}
	return sum, err
}

// output is one of the match's outputs (its JSON or its PGN) as the
// tally writes it: a record the output holds already is not written to
// it again.
type output struct {
	w    io.Writer
	held func(rec *record.GameRecord) bool // nil: the output holds nothing yet
	skip bool                              // the record being written is held
}

func (o *output) Write(p []byte) (int, error) {
	if o.skip {
		return len(p), nil
	}
	return o.w.Write(p)
}

// newTally sets up the match's tally, writing to its outputs through
// the job's output filters.
func (j *matchJob) newTally() error {
	cfg := j.m.Config
	for _, o := range []struct {
		w    *io.Writer
		held func(rec *record.GameRecord) bool
	}{{&cfg.JSON, j.m.Written}, {&cfg.PGN, j.m.PGNWritten}} {
		if *o.w != nil {
			out := &output{w: *o.w, held: o.held}
			j.outputs = append(j.outputs, out)
			*o.w = out
		}
	}
	var err error
	j.tally, err = match.NewTally(cfg)
	return err
}

// held reports whether every output holds rec already, and sets up
// those that do to pass it over. A match without outputs holds nothing.
func (j *matchJob) held(rec *record.GameRecord) bool {
	all := len(j.outputs) > 0
	for _, o := range j.outputs {
		o.skip = o.held != nil && o.held(rec)
		all = all && o.skip
	}
	return all
}

func (j *matchJob) kind() string { return "match" }

// tasks returns a task for every pair neither counted nor failed.
func (j *matchJob) tasks() []Task {
	var ts []Task
	for pair := range j.pairs {
		if _, failed := j.failed[pair]; !failed && !j.done[pair] {
			ts = append(ts, j.task(pair))
		}
	}
	return ts
}

// task returns the task of a pair.
func (j *matchJob) task(pair int) Task {
	return Task{Version: Version, Match: j.m.ID, Pair: pair, Setup: j.settings.Setup,
		Opening: j.settings.Openings[pair%len(j.settings.Openings)]}
}

// open returns the pairs neither counted nor failed.
func (j *matchJob) open() []Task {
	var ts []Task
	for pair := range j.pairs {
		if _, failed := j.failed[pair]; !failed && !j.done[pair] {
			ts = append(ts, Task{Version: Version, Match: j.m.ID, Pair: pair})
		}
	}
	return ts
}

// take counts one result; restored ones were written by an earlier run,
// and so are those every output holds (Written, PGNWritten); a record
// some output lacks is written to that one only. A pair counted already
// (played twice after a redelivery) is skipped.
func (j *matchJob) take(r *Result, from origin) error {
	written := from == restored
	if r.Pair >= j.pairs {
		if !written {
			fmt.Fprintf(j.out, "refusing a result from worker %s for pair %d of %d\n", r.Worker, r.Pair+1, j.pairs)
		}
		return nil
	}
	if j.done[r.Pair] {
		return nil
	}
	if r.Failed == "" {
		if err := j.check(r); err != nil {
			r.Failed = fmt.Sprintf("malformed result from worker %s: %v", r.Worker, err)
		}
	}
	if r.Failed != "" && r.Corrupt != "" && from == live && j.objects[r.Corrupt] != "" && !j.requeued[r.Pair] {
		fmt.Fprintf(j.out, "Pair %d failed on worker %s: %s; replacing the object and queueing the pair again\n", r.Pair+1, r.Worker, r.Failed)
		j.requeued[r.Pair] = true
		j.repairs = append(j.repairs, r.Pair)
		return nil
	}
	if r.Failed != "" {
		if _, seen := j.failed[r.Pair]; !seen && !written {
			fmt.Fprintf(j.out, "Pair %d failed on worker %s: %s\n", r.Pair+1, r.Worker, r.Failed)
		}
		j.failed[r.Pair] = r.Failed
		return nil
	}
	delete(j.failed, r.Pair)
	j.done[r.Pair] = true
	for _, rec := range r.Records {
		if written || j.held(rec) {
			j.tally.Restore(rec)
		} else if err := j.tally.Add(rec); err != nil {
			return err
		}
	}
	return nil
}

// repair returns the engine programs to check and store again (path by
// SHA-256) and the tasks to queue again, once each: the pairs a worker
// refused because an engine object was damaged or missing.
func (j *matchJob) repair() (map[string]string, []Task) {
	var ts []Task
	for _, pair := range j.repairs {
		if !j.done[pair] {
			ts = append(ts, j.task(pair))
		}
	}
	j.repairs = nil
	return j.objects, ts
}

// repairFailed gives up a pair whose object could not be replaced.
func (j *matchJob) repairFailed(pair int, reason string) {
	if !j.done[pair] {
		fmt.Fprintf(j.out, "Pair %d failed: %s\n", pair+1, reason)
		j.failed[pair] = reason
	}
}

// check checks that a result holds the pair's games, in order.
func (j *matchJob) check(r *Result) error {
	want := min(2, j.m.Config.Games-2*r.Pair)
	if len(r.Records) != want {
		return fmt.Errorf("%d records for pair %d, want %d", len(r.Records), r.Pair+1, want)
	}
	if len(r.Data) > 0 || len(r.Games) > 0 {
		return fmt.Errorf("self-play games in the result of pair %d", r.Pair+1)
	}
	sort.Slice(r.Records, func(a, b int) bool { return r.Records[a].Game < r.Records[b].Game })
	for i, rec := range r.Records {
		if err := checkRecord(rec, 2*r.Pair+i+1, j.settings.Setup.Variant); err != nil {
			return err
		}
	}
	return nil
}

// over reports whether the match is over: decided, or every pair counted
// or given up.
func (j *matchJob) over() bool {
	return j.tally.Summary().Decision != match.Continue || len(j.done)+len(j.failed) >= j.pairs
}

func (j *matchJob) decision() string {
	if d := j.tally.Summary().Decision; d != match.Continue {
		return d.String()
	}
	return ""
}

// line describes the workers and the pairs.
func (j *matchJob) line(workers int, running map[int]string) string {
	queued := max(j.pairs-len(j.done)-len(j.failed)-len(running), 0)
	return fmt.Sprintf("Match %s: %d workers; pairs %d queued, %d running, %d done, %d failed of %d",
		j.m.ID, workers, queued, len(running), len(j.done), len(j.failed), j.pairs)
}

// resumed describes what earlier runs played: the results counted, and
// those waiting to be collected (a coordinator stopped between writing a
// result and acknowledging it leaves one; its records are not written
// twice).
func (j *matchJob) resumed(waiting uint64) string {
	if len(j.done) == 0 && len(j.failed) == 0 && waiting == 0 {
		return ""
	}
	line := fmt.Sprintf("Resuming match %s: %d pairs (%d games) already played, %d failed",
		j.m.ID, len(j.done), j.tally.Summary().Score.Games(), len(j.failed))
	if waiting > 0 {
		line += fmt.Sprintf(", results of earlier runs still to collect: %d", waiting)
	}
	return line
}

// end writes the report and names the failed pairs.
func (j *matchJob) end() error {
	sum := j.tally.Summary()
	if j.m.Config.Report != nil {
		sum.WriteReport(j.m.Config.Report)
	}
	if len(j.failed) == 0 {
		return nil
	}
	var ps []int
	for p := range j.failed {
		ps = append(ps, p)
	}
	sort.Ints(ps)
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = strconv.Itoa(p + 1)
	}
	return fmt.Errorf("%d of %d pairs failed (pairs %s; pair %d: %s)", len(j.failed), j.pairs, strings.Join(names, ", "), ps[0]+1, j.failed[ps[0]])
}
