package broker

import (
	"context"
	"errors"
	"fmt"
	"sort"
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
	pairBook
	m        *Match
	settings Settings
	tally    *match.Tally
	outs     outputs // the tally's JSON and PGN, as they are set
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
	progs, err := enginePrograms(cfg.Engines[:])
	if err != nil {
		return match.Summary{}, err
	}
	settings := Settings{Version: Version, Setup: NewSetup(cfg, [2]string{progs.hashes[0], progs.hashes[1]})}
	if err := progs.name(&settings.Setup, m.Build); err != nil {
		return match.Summary{}, err
	}
	for _, o := range cfg.PairOpenings() {
		settings.Openings = append(settings.Openings, o.String())
	}
	if cfg.SPRT != nil {
		settings.SPRT = cfg.SPRT.String()
	}
	j, err := newMatchJob(&m, settings)
	if err != nil {
		return match.Summary{}, err
	}
	co := &coordinator{c: c, id: m.ID, job: j, ackWait: m.AckWait, maxDeliver: m.MaxDeliver, every: m.ProgressEvery, out: j.out}
	err = runPairs(ctx, co, &j.settings, &progs, j.objects)
	sum := j.tally.Summary()
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("coordinator stopped after %d games: %w", sum.Score.Games(), err)
	}
	return sum, err
}

// runPairs runs a job of pairs of games, a match's or a tournament's, on
// the broker: its engine programs kept (for repairs) and uploaded, its
// coordinator started (settings stored or checked, the run claimed) and
// run until the job is over or ctx ends.
func runPairs(ctx context.Context, co *coordinator, settings *Settings, progs *programs, objects map[string]string) error {
	progs.keep(objects)
	if err := co.start(ctx, settings); err != nil {
		return err
	}
	if err := progs.upload(ctx, co.c, co.out); err != nil {
		co.lease.release()
		return err
	}
	return co.run(ctx)
}

// newMatchJob returns match m as a coordinator's job, with its
// settings; m.ID is derived from them when it is empty.
func newMatchJob(m *Match, settings Settings) (*matchJob, error) {
	cfg := m.Config
	if m.ID == "" {
		m.ID = settings.ID()
	}
	j := &matchJob{pairBook: newPairBook((cfg.Games+1)/2, cfg.Progress), m: m, settings: settings}
	j.id = m.ID
	j.task = j.pairTask
	j.what = func(pair int) string { return fmt.Sprintf("Pair %d", pair+1) }
	j.outs = filter(&cfg.JSON, &cfg.PGN, m.Written, m.PGNWritten)
	var err error
	j.tally, err = match.NewTally(cfg)
	return j, err
}

func (j *matchJob) kind() string { return "match" }

// pairTask returns the task of a pair.
func (j *matchJob) pairTask(pair int) Task {
	return Task{Version: Version, Match: j.m.ID, Pair: pair, Setup: j.settings.Setup,
		Opening: j.settings.Openings[pair%len(j.settings.Openings)]}
}

// take counts one result (see pairBook.take); restored ones were written
// by an earlier run, and so are those every output holds (Written,
// PGNWritten); a record some output lacks is written to that one only.
func (j *matchJob) take(r *Result, from origin) error {
	return j.pairBook.take(r, from, j.check, func(r *Result) error {
		for _, rec := range r.Records {
			if from == restored || j.outs.held(rec) {
				j.tally.Restore(rec)
			} else if err := j.tally.Add(rec); err != nil {
				return err
			}
		}
		return nil
	})
}

// check checks that a result holds the pair's games, in order.
func (j *matchJob) check(r *Result) error {
	if r.Tournament != nil {
		return fmt.Errorf("a tournament's pair in the result of pair %d", r.Pair+1)
	}
	return checkPair(r, r.Pair, j.m.Config.Games, j.settings.Setup.Variant)
}

// checkPair checks that a result holds the games of pair (0-based) of a
// match of games games of variant, in order.
func checkPair(r *Result, pair, games int, variant string) error {
	want := min(2, games-2*pair)
	if len(r.Records) != want {
		return fmt.Errorf("%d records for pair %d, want %d", len(r.Records), pair+1, want)
	}
	if len(r.Data) > 0 || len(r.Games) > 0 || r.Proof != nil {
		return fmt.Errorf("self-play games or a proof in the result of pair %d", pair+1)
	}
	sort.Slice(r.Records, func(a, b int) bool { return r.Records[a].Game < r.Records[b].Game })
	for i, rec := range r.Records {
		if err := checkRecord(rec, 2*pair+i+1, variant); err != nil {
			return err
		}
	}
	return nil
}

// over reports whether the match is over: decided, or every pair counted
// or given up.
func (j *matchJob) over() bool {
	return j.tally.Summary().Decision != match.Continue || j.finished()
}

func (j *matchJob) decision() string {
	if d := j.tally.Summary().Decision; d != match.Continue {
		return d.String()
	}
	return ""
}

// line describes the workers and the pairs.
func (j *matchJob) line(workers int, running map[int]string) string {
	return fmt.Sprintf("Match %s: %d workers; pairs %d queued, %d running, %d done, %d failed of %d",
		j.m.ID, workers, j.queued(running), len(running), len(j.done), len(j.failed), j.n)
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
	return j.failures()
}
