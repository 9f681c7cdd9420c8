package match

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// Format is the way a tournament pairs its engines.
type Format uint8

// The formats.
const (
	RoundRobin Format = iota // every engine against every other
	Gauntlet                 // the first engine against each of the others
)

// String returns "round robin" or "gauntlet".
func (f Format) String() string {
	if f == Gauntlet {
		return "gauntlet"
	}
	return "round robin"
}

// Pairings returns the pairings of n engines, each a pair of their places
// in the list: the first plays engine1's part (South in the first game of
// each pair of games). A round robin pairs 0–1, 0–2, …, 1–2, …: n(n−1)/2
// pairings; a gauntlet 0–1, 0–2, …, 0–(n−1): n−1.
func (f Format) Pairings(n int) [][2]int {
	var out [][2]int
	for a := range n {
		for b := a + 1; b < n; b++ {
			out = append(out, [2]int{a, b})
		}
		if f == Gauntlet {
			break
		}
	}
	return out
}

// Tournament is a tournament of several engines: every pairing its
// Format makes is a match of Config.Games games, played in pairs of
// games from the same opening with colours swapped, as a match is. The
// pairings take turns: the first pair of games of every pairing, then the
// second of every pairing, and so on, so that a tournament stopped early
// has played every pairing alike. Games are numbered through the
// tournament in that order, and each record names its pairing
// (record.GameRecord.Pairing).
type Tournament struct {
	// Config is what every pairing shares: the game, the openings (pair k
	// of every pairing starts from the same one), the games of each
	// pairing, concurrency (pairs of games at once, over all pairings),
	// the seed, margins, pondering, the report interval (games of the
	// tournament), the writers, and in Played the games of an earlier run
	// of this tournament. Its Engines, SPRT and Traditional must be unset.
	Config  Config
	Engines []EngineSpec // at least two, by distinct names
	Format  Format
	// Anchor is the engine (its place in Engines) whose rating is held
	// at 0, or −1 to hold the mean of the ratings at 0.
	Anchor int
}

// Validate checks everything that needs no engine.
func (t *Tournament) Validate() error {
	c := &t.Config
	switch {
	case len(t.Engines) < 2:
		return fmt.Errorf("a tournament of %d engines: want at least two", len(t.Engines))
	case c.SPRT != nil:
		return errors.New("a tournament has no sequential test: it is for two engines")
	case c.Traditional:
		return errors.New("a traditional Hoyito III match is for two engines")
	case !c.Engines[0].unset() || !c.Engines[1].unset():
		return errors.New("a tournament's engines are its Engines, not its Config's")
	case t.Anchor < -1 || t.Anchor >= len(t.Engines):
		return fmt.Errorf("rating anchor %d: want an engine's place or -1", t.Anchor)
	case t.Format != RoundRobin && t.Format != Gauntlet:
		return fmt.Errorf("tournament format %d", t.Format)
	}
	seen := map[string]bool{}
	for i := range t.Engines {
		e := &t.Engines[i]
		if seen[e.Name] || e.Name == "" {
			return fmt.Errorf("engine %d: name %q is empty or taken: a tournament's engines need names of their own", i+1, e.Name)
		}
		seen[e.Name] = true
		if err := checkSpec(e, "engine "+e.Name); err != nil {
			return err
		}
	}
	cp := *c
	cp.Engines = [2]EngineSpec{t.Engines[0], t.Engines[1]}
	return cp.Validate()
}

// unset reports whether e describes no engine.
func (e *EngineSpec) unset() bool { return e.Name == "" && e.Builtin == "" && len(e.Command) == 0 }

// Check validates the tournament and starts every engine program once,
// as Config.Check does.
func (t *Tournament) Check(ctx context.Context) error {
	if err := t.Validate(); err != nil {
		return err
	}
	for i := range t.Engines {
		if err := t.Config.checkProgram(ctx, &t.Engines[i], "engine "+t.Engines[i].Name); err != nil {
			return err
		}
	}
	return nil
}

// CheckPlayed checks Config.Played as RunTournament restores it, without
// writing anything.
func (t *Tournament) CheckPlayed() error {
	if err := t.Validate(); err != nil {
		return err
	}
	cp := *t
	cp.Config.Progress, cp.Config.Report, cp.Config.JSON, cp.Config.PGN, cp.Config.Log = nil, nil, nil, nil, nil
	return newTourney(&cp).restore()
}

// Games returns the number of games of the tournament.
func (t *Tournament) Games() int { return len(t.Format.Pairings(len(t.Engines))) * t.Config.Games }

// Standings are the state of a tournament: each pairing's results.
type Standings struct {
	Names    []string
	Format   Format
	Pairings [][2]int
	// Results are each pairing's, from the point of view of its first
	// engine (Pairings[k][0]).
	Results []Summary
	Games   int // games counted
	Total   int // games of the tournament
	Anchor  int // see Tournament.Anchor
}

// results returns the pairings' scores for a rating fit.
func (s *Standings) results() []Result {
	out := make([]Result, len(s.Pairings))
	for k, p := range s.Pairings {
		out[k] = Result{A: p[0], B: p[1], WDL: s.Results[k].Score}
	}
	return out
}

// Ratings fits the engines' ratings to the games (FitRatings).
func (s *Standings) Ratings() (Ratings, error) {
	return FitRatings(len(s.Names), s.results(), s.Anchor)
}

// RunTournament plays the tournament and writes progress, reports and
// records as its Config asks. It returns when every game is played or
// when ctx is cancelled (the error says so; the standings count the games
// finished).
func RunTournament(ctx context.Context, t Tournament) (Standings, error) {
	if err := t.Validate(); err != nil {
		return Standings{}, err
	}
	tr := newTourney(&t)
	if err := playOut(ctx, t.Config.Concurrency, &tr.cancel, tr.restore, tr.work); err != nil {
		return Standings{}, err
	}

	tr.mu.Lock()
	defer tr.mu.Unlock()
	if err := tr.log.Err(); err != nil && tr.err == nil {
		tr.err = fmt.Errorf("writing the log: %w", err)
	}
	st := tr.standings()
	if t.Config.Report != nil {
		st.WriteReport(t.Config.Report)
	}
	switch {
	case tr.err != nil:
		return st, tr.err
	case ctx.Err() != nil:
		return st, fmt.Errorf("tournament stopped after %d games: %w", st.Games, ctx.Err())
	}
	return st, nil
}

// tourney is a tournament in progress: a runner per pairing, which plays
// and counts its games, and the book-keeping of the whole.
type tourney struct {
	t        *Tournament
	pairings [][2]int
	runs     []*runner
	log      *client.Log
	cancel   context.CancelFunc

	mu      sync.Mutex
	next    int // the next task: pair next/len(pairings) of pairing next%len(pairings)
	counted int // games counted
	err     error
}

func newTourney(t *Tournament) *tourney {
	c := &t.Config
	tr := &tourney{t: t, pairings: t.Format.Pairings(len(t.Engines)), log: client.NewLog(c.Log), cancel: func() {}}
	openings := c.PairOpenings()
	replays := true
	for _, e := range t.Engines {
		replays = replays && (e.Builtin != "" || e.Limit.Replays())
	}
	c.noteOpenings(openings, replays)
	procs := &atomic.Int64{}
	for p, pair := range tr.pairings {
		cfg := t.pairingConfig(p, pair, openings)
		r := newRunner(&cfg)
		r.log, r.procs, r.ids = tr.log, procs, pair
		r.number = func(idx int) int { return tr.number(p, idx) }
		r.cancel = func() { tr.cancel() }
		tr.runs = append(tr.runs, r)
	}
	return tr
}

// PairingConfig returns pairing p (0-based, in the order of
// Format.Pairings) as a match of two engines: played pair by pair
// (NewTable), its games are those the tournament plays in that pairing,
// numbered in the pairing (game 2k+1 and 2k+2 of pair k, no pairing in
// the record). Its openings are the tournament's (pair k of every
// pairing starts from the same one), its seed the pairing's own for the
// built-in players, and it has no writers and no games played before.
func (t *Tournament) PairingConfig(p int) (Config, error) {
	pairings := t.Format.Pairings(len(t.Engines))
	if p < 0 || p >= len(pairings) {
		return Config{}, fmt.Errorf("pairing %d: the tournament has %d", p+1, len(pairings))
	}
	return t.pairingConfig(p, pairings[p], t.Config.PairOpenings()), nil
}

// pairingConfig is PairingConfig for pairing p of the engines pair, with
// the tournament's openings.
func (t *Tournament) pairingConfig(p int, pair [2]int, openings []board.Position) Config {
	cfg := t.Config
	cfg.Engines = [2]EngineSpec{t.Engines[pair[0]], t.Engines[pair[1]]}
	cfg.Openings, cfg.RandomPlies, cfg.ShuffleOpenings = openings, 0, false
	cfg.Progress, cfg.Report, cfg.JSON, cfg.PGN, cfg.Log, cfg.Played = nil, nil, nil, nil, nil, nil
	cfg.Seed = gameSeed(t.Config.Seed, p, 2) // the built-in players' own, pairing by pairing
	return cfg
}

// number returns the number in the tournament of game idx (0-based) of
// pairing p: the pairings take turns a pair of games at a time, and the
// last turn of an odd number of games has a game of each.
func (tr *tourney) number(p, idx int) int {
	n := len(tr.pairings)
	q := idx / 2
	inTurn := min(2, tr.t.Config.Games-2*q) // games of each pairing in turn q
	return 2*n*q + inTurn*p + idx%2 + 1
}

// locate returns the pairing and the game (0-based) in it of the
// tournament's game number g, the inverse of number.
func (tr *tourney) locate(g int) (p, idx int) {
	n := len(tr.pairings)
	q := (g - 1) / (2 * n)
	inTurn := min(2, tr.t.Config.Games-2*q)
	o := g - 1 - 2*n*q
	return o / inTurn, 2*q + o%inTurn
}

// restore hands each pairing the games an earlier run played, after
// checking that each is a game of this tournament (its number, its
// pairing and, as a match checks, its setup).
func (tr *tourney) restore() error {
	played := tr.t.Config.Played
	total := tr.t.Games()
	byPairing := make([][]record.GameRecord, len(tr.pairings))
	seen := map[int]bool{}
	for i := range played {
		rec := &played[i]
		switch {
		case rec.Game < 1 || rec.Game > total:
			return fmt.Errorf("game %d is recorded, but this tournament has %d games", rec.Game, total)
		case seen[rec.Game]:
			return fmt.Errorf("game %d is recorded twice", rec.Game)
		case rec.Pairing == 0:
			return fmt.Errorf("game %d is recorded as a match's, with no pairing: not a game of this tournament", rec.Game)
		}
		seen[rec.Game] = true
		if err := rec.CheckResult(); err != nil {
			return err
		}
		p, idx := tr.locate(rec.Game)
		if rec.Pairing != p+1 {
			return fmt.Errorf("game %d is recorded as pairing %d's; in this tournament it is pairing %d's (%s)", rec.Game, rec.Pairing, p+1, tr.pairingName(p))
		}
		local := *rec
		local.Game, local.Pairing = idx+1, 0
		byPairing[p] = append(byPairing[p], local)
	}
	for p, r := range tr.runs {
		r.cfg.Played = byPairing[p]
		if err := r.restore(); err != nil {
			return err
		}
	}
	tr.counted = len(played)
	if pr := tr.t.Config.Progress; pr != nil && len(played) > 0 {
		fmt.Fprintf(pr, "Resuming: %d of %d games played before\n", len(played), total)
	}
	return nil
}

// pairingName names pairing p: "a vs b".
func (tr *tourney) pairingName(p int) string {
	pair := tr.pairings[p]
	return tr.t.Engines[pair[0]].Name + " vs " + tr.t.Engines[pair[1]].Name
}

// work plays pairs of games until there are none left or the tournament
// stops. Between pairings the worker keeps the processes of the engines
// the next one shares with the last and stops the others.
func (tr *tourney) work(ctx context.Context) {
	w := newWorker()
	defer w.close()
	for {
		p, pair, ok := tr.take(ctx)
		if !ok {
			return
		}
		r := tr.runs[p]
		w.keep(r.ids)
		done := func(rec *record.GameRecord) { tr.finish(p, rec) }
		if !r.playPair(ctx, w, pair, r.opening, done) {
			return
		}
	}
}

// take hands out the next pair of games not played before: its pairing
// and its number in the pairing.
func (tr *tourney) take(ctx context.Context) (p, pair int, ok bool) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	n := len(tr.pairings)
	tasks := n * ((tr.t.Config.Games + 1) / 2)
	for ; tr.next < tasks; tr.next++ {
		p, pair = tr.next%n, tr.next/n
		if !tr.runs[p].pairPlayed(pair) {
			break
		}
	}
	if ctx.Err() != nil || tr.err != nil || tr.next >= tasks {
		return 0, 0, false
	}
	tr.next++
	return p, pair, true
}

// finish counts a finished game of pairing p, numbers it in the
// tournament and writes its records, its progress line and the report
// when one is due.
func (tr *tourney) finish(p int, rec *record.GameRecord) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.err != nil {
		return
	}
	r := tr.runs[p]
	r.mu.Lock()
	r.add(rec)
	score := r.sum.Score
	r.mu.Unlock()
	rec.Game, rec.Pairing = tr.number(p, rec.Game-1), p+1
	tr.counted++
	c := &tr.t.Config
	if err := writeRecord(c, tr.log, rec); err != nil {
		tr.err = err
		tr.cancel()
		return
	}
	total := tr.t.Games()
	if c.Progress != nil {
		fmt.Fprintf(c.Progress, "Finished game %d of %d (%s vs %s): %s {%s}; %s: %s\n",
			rec.Game, total, rec.South, rec.North, rec.Result, progressDetail(rec), tr.pairingName(p), scoreText(score))
	}
	if n := c.ReportEvery; n > 0 && tr.counted%n == 0 && tr.counted < total && c.Report != nil {
		st := tr.standings()
		st.WriteReport(c.Report)
	}
}

// standings returns the standings so far (tr.mu held).
func (tr *tourney) standings() Standings {
	st := Standings{Format: tr.t.Format, Pairings: tr.pairings, Games: tr.counted, Total: tr.t.Games(), Anchor: tr.t.Anchor}
	for _, e := range tr.t.Engines {
		st.Names = append(st.Names, e.Name)
	}
	for _, r := range tr.runs {
		r.mu.Lock()
		st.Results = append(st.Results, r.summary())
		r.mu.Unlock()
	}
	return st
}

// rankOrder returns the engines' places, best first: the rated by rating,
// then the others by score; ties keep the list's order.
func rankOrder(rt Ratings, points []float64) []int {
	order := make([]int, len(rt.Rated))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		i, j := order[a], order[b]
		if rt.Rated[i] != rt.Rated[j] {
			return rt.Rated[i]
		}
		if rt.Rated[i] && rt.Elo[i] != rt.Elo[j] {
			return rt.Elo[i] > rt.Elo[j]
		}
		return points[i] > points[j]
	})
	return order
}
