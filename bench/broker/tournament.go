package broker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sower-engine/sower/bench/match"
	"github.com/sower-engine/sower/bench/record"
)

// Tournament is a tournament whose pairs of games are played by workers:
// a task is a pair of one pairing, played as that pairing's match
// (match.Tournament.PairingConfig), and the games are counted and written
// as a local tournament writes them (match.TournamentTally).
type Tournament struct {
	// Tournament is the tournament as a local one would be configured
	// (its Config's Progress, Report, JSON and PGN are written the same
	// way); Config.Log and Config.Played are not supported,
	// Config.Concurrency is ignored.
	Tournament match.Tournament
	// ID, AckWait, MaxDeliver, ProgressEvery, Build, Written and
	// PGNWritten are as for a Match; the default ID is derived from the
	// tournament's settings.
	ID            string
	AckWait       time.Duration
	MaxDeliver    int
	ProgressEvery time.Duration
	Build         Build
	Written       func(rec *record.GameRecord) bool
	PGNWritten    func(rec *record.GameRecord) bool
}

// tournamentJob is a tournament as a coordinator's job: one task per
// pair of each pairing, task k being pair k/P of pairing k mod P (P
// pairings), the order in which a local tournament plays them.
type tournamentJob struct {
	pairBook
	t        *Tournament
	settings Settings
	pairings int
	tally    *match.TournamentTally
	outs     outputs // the tally's JSON and PGN, as they are set
}

// RunTournament plays the tournament on the broker and returns its
// standings, as match.RunTournament does for a local one. When ctx ends
// the tournament stays on the broker: running it again with the same
// settings resumes it.
func RunTournament(ctx context.Context, c *Client, t Tournament) (match.Standings, error) {
	tn := &t.Tournament
	cfg := &tn.Config
	switch {
	case cfg.Log != nil:
		return match.Standings{}, errors.New("the engines' log is written by each worker (sower worker --log)")
	case cfg.Proven != nil:
		return match.Standings{}, errors.New("adjudication by exact knowledge is the arbiter's own: the workers read neither the proof book nor the tables")
	case cfg.NoRepeat:
		return match.Standings{}, errors.New("a tournament without repeated openings: a task carries one opening for its pair of games")
	case len(cfg.Played) > 0:
		return match.Standings{}, errors.New("a tournament on the broker resumes from the broker's results, not from games played before")
	}
	if err := tn.Validate(); err != nil {
		return match.Standings{}, err
	}
	settings, progs, err := tournamentSettings(tn, t.Build)
	if err != nil {
		return match.Standings{}, err
	}
	j, err := newTournamentJob(&t, settings)
	if err != nil {
		return match.Standings{}, err
	}
	co := &coordinator{c: c, id: t.ID, job: j, ackWait: t.AckWait, maxDeliver: t.MaxDeliver, every: t.ProgressEvery, out: j.out}
	err = runPairs(ctx, co, &j.settings, &progs, j.objects)
	st := j.tally.Standings()
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("coordinator stopped after %d games: %w", st.Games, err)
	}
	return st, err
}

// tournamentSettings returns the settings of tournament tn, whose
// built-in players are those of build, and its engines' programs.
func tournamentSettings(tn *match.Tournament, build Build) (Settings, programs, error) {
	progs, err := enginePrograms(tn.Engines)
	if err != nil {
		return Settings{}, progs, err
	}
	ts := &TournamentSettings{Format: tn.Format.String()}
	for _, e := range tn.Engines {
		ts.Engines = append(ts.Engines, e.Name)
	}
	for p, pair := range tn.Format.Pairings(len(tn.Engines)) {
		pc, err := tn.PairingConfig(p)
		if err != nil {
			return Settings{}, progs, err
		}
		s := NewSetup(&pc, [2]string{progs.hashes[pair[0]], progs.hashes[pair[1]]})
		if err := progs.name(&s, build); err != nil {
			return Settings{}, progs, err
		}
		ts.Pairings = append(ts.Pairings, s)
	}
	settings := Settings{Version: Version, Tournament: ts}
	for _, o := range tn.Config.PairOpenings() {
		settings.Openings = append(settings.Openings, o.String())
	}
	return settings, progs, nil
}

// newTournamentJob returns tournament t as a coordinator's job, with its
// settings; t.ID is derived from them when it is empty.
func newTournamentJob(t *Tournament, settings Settings) (*tournamentJob, error) {
	tn := t.Tournament
	if t.ID == "" {
		t.ID = settings.ID()
	}
	pairings := len(settings.Tournament.Pairings)
	j := &tournamentJob{pairBook: newPairBook(pairings*((tn.Config.Games+1)/2), tn.Config.Progress), t: t, settings: settings, pairings: pairings}
	j.id, j.task, j.what = t.ID, j.pairTask, j.pairName
	j.outs = filter(&tn.Config.JSON, &tn.Config.PGN, t.Written, t.PGNWritten)
	var err error
	j.tally, err = match.NewTournamentTally(tn)
	return j, err
}

// locate returns the pairing (0-based) and its pair of task n.
func (j *tournamentJob) locate(n int) (p, pair int) { return n % j.pairings, n / j.pairings }

// pairTask returns task n.
func (j *tournamentJob) pairTask(n int) Task {
	p, pair := j.locate(n)
	return Task{Version: Version, Match: j.t.ID, Pair: n, Setup: j.settings.Tournament.Pairings[p],
		Opening: j.settings.Openings[pair%len(j.settings.Openings)], Tournament: &TournamentTask{Pairing: p + 1, Pair: pair}}
}

// pairName names task n in messages: "Pair 2 of pairing 3 (a vs b)".
func (j *tournamentJob) pairName(n int) string {
	p, pair := j.locate(n)
	e := j.settings.Tournament.Pairings[p].Engines
	return fmt.Sprintf("Pair %d of pairing %d (%s vs %s)", pair+1, p+1, e[0].Name, e[1].Name)
}

func (j *tournamentJob) kind() string { return "tournament" }

// check checks that a result holds its task's games: those of the pair
// and pairing the task named, in order.
func (j *tournamentJob) check(r *Result) error {
	p, pair := j.locate(r.Pair)
	if tn := r.Tournament; tn == nil || tn.Pairing != p+1 || tn.Pair != pair {
		return fmt.Errorf("the result of task %d names %s, not pair %d of pairing %d", r.Pair+1, pairingText(tn), pair+1, p+1)
	}
	return checkPair(r, pair, j.t.Tournament.Config.Games, j.settings.Tournament.Pairings[p].Variant)
}

// pairingText describes the pairing and pair a result names.
func pairingText(tn *TournamentTask) string {
	if tn == nil {
		return "no pairing"
	}
	return fmt.Sprintf("pair %d of pairing %d", tn.Pair+1, tn.Pairing)
}

// take counts one result (see pairBook.take): its records, numbered in
// the tournament, are written unless the outputs hold them already
// (Written, PGNWritten) or an earlier run wrote them.
func (j *tournamentJob) take(r *Result, from origin) error {
	return j.pairBook.take(r, from, j.check, func(r *Result) error {
		p, _ := j.locate(r.Pair)
		for _, rec := range r.Records {
			numbered := *rec
			numbered.Game, numbered.Pairing = j.tally.Number(p, rec.Game-1), p+1
			if from == restored || j.outs.held(&numbered) {
				if err := j.tally.Restore(p, rec); err != nil {
					return err
				}
			} else if err := j.tally.Add(p, rec); err != nil {
				return err
			}
		}
		return nil
	})
}

func (j *tournamentJob) over() bool { return j.finished() }

// line describes the workers and the pairs.
func (j *tournamentJob) line(workers int, running map[int]string) string {
	return fmt.Sprintf("Tournament %s: %d workers; pairs %d queued, %d running, %d done, %d failed of %d (%d pairings)",
		j.t.ID, workers, j.queued(running), len(running), len(j.done), len(j.failed), j.n, j.pairings)
}

// resumed describes what earlier runs played.
func (j *tournamentJob) resumed(waiting uint64) string {
	if len(j.done) == 0 && len(j.failed) == 0 && waiting == 0 {
		return ""
	}
	line := fmt.Sprintf("Resuming tournament %s: %d pairs (%d games) already played, %d failed",
		j.t.ID, len(j.done), j.tally.Standings().Games, len(j.failed))
	if waiting > 0 {
		line += fmt.Sprintf(", results of earlier runs still to collect: %d", waiting)
	}
	return line
}

// end writes the standings and names the failed pairs.
func (j *tournamentJob) end() error {
	if w := j.t.Tournament.Config.Report; w != nil {
		st := j.tally.Standings()
		st.WriteReport(w)
	}
	return j.failures()
}
