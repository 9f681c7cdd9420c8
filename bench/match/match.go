package match

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// DefaultTimeout is how long the arbiter waits for an answer that no clock
// limits (uciok, readyok, and bestmove under a node or depth limit) when
// Config.Timeout is zero.
const DefaultTimeout = 60 * time.Second

// DefaultTimeMargin is the time margin sower match gives when none is
// asked for (Config.TimeMargin): 200 ms. An engine that stops on time is
// late by what the machine adds — the time to be scheduled again, to
// write and read the pipes, to collect garbage — which does not shrink
// with the move time; on a busy machine that is tens of milliseconds and
// more, and the former 50 ms lost games on time at 100 ms a move. 200 ms
// keeps a loaded machine's delays from deciding games while an engine that
// truly ignores its clock still loses.
const DefaultTimeMargin = 200 * time.Millisecond

// Config describes a match between Engines[0] ("engine1") and Engines[1]
// ("engine2"). Every count and score is from engine1's point of view.
type Config struct {
	// Variant is the game and its rule options, used by the arbiter and
	// sent to both engines. In a traditional match LastFour is set per
	// game.
	Variant *board.Variant
	Engines [2]EngineSpec
	// Openings are the start positions. Game 2k and game 2k+1 start from
	// opening k, engine1 taking South in the first and North in the
	// second; when the games outnumber the pairs the openings are used
	// again from the first. With no openings and RandomPlies zero every
	// game starts at the variant's start position.
	Openings []board.Position
	// ShuffleOpenings plays the Openings in an order shuffled with Seed
	// (cutechess-cli's order=random) instead of the given one.
	ShuffleOpenings bool
	// NoRepeat starts every game from an opening of its own instead of
	// each opening twice: game k starts from opening k. Games 2k and
	// 2k+1 still swap colours, and still form a pair for the pentanomial
	// statistics.
	NoRepeat bool
	// RandomPlies, when Openings is empty, makes one opening per pair by
	// that many random plies from the start (seeded with Seed), skipping
	// games already over and repeated positions (see randomOpenings).
	RandomPlies int
	Games       int // games to play (at least 1)
	Concurrency int // pairs played at once, each a game at a time (0 means 1)
	// Traditional plays a Hoyito III match as the tradition does: games in
	// sequence, LastFour "capturer" in games 1 and 2, and from game 3 on
	// the seeds go to the winner of the previous game (LastFour set to the
	// side that player has in this game). A drawn game leaves the setting
	// as it was: with the same player, or with the capturer if the drawn
	// game used capturer.
	Traditional bool
	// Seed seeds the random openings and the built-in players (each game
	// and player gets its own seed from it).
	Seed uint64
	// TimeMargin is how far past its clock or move time an engine may
	// answer before it loses on time.
	TimeMargin time.Duration
	// Timeout bounds answers that no clock limits (0: DefaultTimeout).
	Timeout time.Duration
	// Ponder lets the engines that declare a Ponder option ponder on the
	// opponent's time, as cutechess-cli does: the arbiter sets the option,
	// plays the reply an engine expects after its move and sends "go
	// ponder"; when the opponent has played that reply it sends
	// "ponderhit" (the engine's time counts from then), otherwise "stop"
	// and a new "go" (see client.Engine.Ponder). An engine given the
	// option Ponder=false does not ponder.
	Ponder bool
	// Resign and Draw, if set, adjudicate a game on the engines' scores
	// (see ResignRule, DrawRule); the record's termination says so.
	Resign *ResignRule
	Draw   *DrawRule
	// Proven, if set, is asked after every move whether the position's
	// result is proven (by a proof book, by endgame tables, by a bounded
	// proof search, which the arbiter does not run itself): if so the
	// game is adjudicated to it, with the reason Proven gives. history
	// holds the keys of the game's positions before p
	// (board.Game.History), which the repetition rule may need; Proven
	// must not change it. It is called from several goroutines at once.
	Proven func(p board.Position, history []uint64) (board.Result, string, bool)
	// NewProven, if set, is called once for each game worker (each plays
	// one game at a time, its moves in order) and returns the function
	// that worker's games ask instead of Proven: a judge that keeps state
	// from one move of a game to the next, such as a proof search's
	// table, gets one of its own for each worker and needs no lock.
	NewProven func() func(p board.Position, history []uint64) (board.Result, string, bool)
	// SPRT, if set, is tested on the game pairs after every pair; the
	// match stops when it accepts a hypothesis.
	SPRT *SPRT
	// ReportEvery, if above zero, writes the report after every that many
	// games as well as at the end.
	ReportEvery int
	// Progress gets a line per finished game and notes about the match;
	// Report gets the reports; JSON and PGN get the records (one JSON
	// object per line, and PGN-like text); Log gets every line sent to
	// and read from the engines, each naming its process ("name(N)", N
	// numbering the processes started), and a line per game naming its
	// processes. Any may be nil. Writers are used from one goroutine at a
	// time. A failed write to JSON, PGN or Log stops the match with an
	// error.
	Progress, Report, JSON, PGN, Log io.Writer
	// Played are the games an earlier run of this match finished (its
	// JSON records read back, in any order): Run counts them, in the
	// summary and the SPRT (judged once on them all), without writing
	// them again, and plays the others. Each must be a game of this
	// match: a number within Games, at most once, and the game, rule
	// options, start, players, sides and limits this configuration gives
	// that game; a record keeps neither the engines' commands nor their
	// options, so those are not checked. A traditional match's played
	// games must be its first ones.
	Played []record.GameRecord
}

// Validate checks everything that needs no engine: what Check does short
// of starting the programs.
func (c *Config) Validate() error {
	if c.Variant == nil {
		return errors.New("no game variant")
	}
	if c.Games < 1 {
		return fmt.Errorf("games %d: want at least 1", c.Games)
	}
	if c.Concurrency < 0 {
		return fmt.Errorf("concurrency %d: want at least 1", c.Concurrency)
	}
	if c.RandomPlies < 0 {
		return fmt.Errorf("random plies %d: want 0 or more", c.RandomPlies)
	}
	if c.Traditional {
		if c.Variant.Family() != board.Hoyito {
			return fmt.Errorf("a traditional match is played in hoyito3, not %s", c.Variant.Name())
		}
		if c.Concurrency > 1 {
			return errors.New("a traditional match plays its games in sequence: concurrency must be 1")
		}
	}
	if c.TimeMargin < 0 || c.Timeout < 0 {
		return errors.New("negative time margin or timeout")
	}
	for i := range c.Engines {
		if err := c.checkEngine(i); err != nil {
			return err
		}
	}
	for i, p := range c.Openings {
		if p.Variant() == nil || p.Variant().Name() != c.Variant.Name() {
			return fmt.Errorf("opening %d is not a %s position", i+1, c.Variant.Name())
		}
	}
	if c.SPRT != nil {
		if err := c.SPRT.Check(); err != nil {
			return err
		}
	}
	if r := c.Resign; r != nil && (r.Moves < 1 || r.Score < 1) {
		return fmt.Errorf("resign rule %s: want movecount and score above 0", r)
	}
	if d := c.Draw; d != nil && (d.Moves < 1 || d.Score < 0 || d.Ply < 0) {
		return fmt.Errorf("draw rule %s: want movecount above 0, score and ply 0 or more", d)
	}
	return nil
}

// checkEngine checks one engine's description.
func (c *Config) checkEngine(i int) error {
	return checkSpec(&c.Engines[i], fmt.Sprintf("engine%d", i+1))
}

// checkSpec checks an engine's description; label names the engine in
// errors.
func checkSpec(e *EngineSpec, label string) error {
	switch {
	case e.Builtin != "":
		known := false
		for _, b := range Builtins() {
			known = known || b == e.Builtin
		}
		if !known {
			return fmt.Errorf("%s: unknown built-in player %q", label, e.Builtin)
		}
		if len(e.Options) > 0 {
			return fmt.Errorf("%s: a built-in player takes no options", label)
		}
		return nil
	case len(e.Command) == 0:
		return fmt.Errorf("%s: no command", label)
	}
	for _, o := range e.Options {
		for _, r := range record.RuleOptions() {
			if strings.EqualFold(o.Name, r) {
				return fmt.Errorf("%s: option %s is set by the match (use the game and rule flags)", label, o.Name)
			}
		}
	}
	l := e.Limit
	if l.HasClock() || l.MoveTime > 0 || l.Nodes > 0 || l.Depth > 0 {
		return nil
	}
	if !strings.Contains(label, e.Name) {
		label += " (" + e.Name + ")"
	}
	return fmt.Errorf("%s: no time control: give a clock, a move time, a node count or a depth", label)
}

// Check validates the configuration and starts every engine program once,
// to see that it runs, completes the handshake and accepts its options and
// the game's (an "info string error" line before readyok is a rejection),
// so that a bad command or option fails before any game.
func (c *Config) Check(ctx context.Context) error {
	if err := c.Validate(); err != nil {
		return err
	}
	for i := range c.Engines {
		if err := c.checkProgram(ctx, &c.Engines[i], fmt.Sprintf("engine%d (%s)", i+1, c.Engines[i].Name)); err != nil {
			return err
		}
	}
	return nil
}

// checkProgram starts an engine's program once (Check); label names it
// in errors. A built-in player needs no check.
func (c *Config) checkProgram(ctx context.Context, e *EngineSpec, label string) error {
	if e.Builtin != "" {
		return nil
	}
	if _, err := exec.LookPath(e.Program()); err != nil {
		return fmt.Errorf("%s: %v", label, err)
	}
	log := client.NewLog(c.Log)
	p, f := startProcess(ctx, e, e.Name+"(check)", c.timeout(), log)
	if err := log.Err(); err != nil {
		if p != nil {
			p.close(0)
		}
		return fmt.Errorf("writing the log: %w", err)
	}
	if f != nil {
		return fmt.Errorf("%s: %s", label, f.detail)
	}
	// The game's options too: an engine that does not know the game
	// says so now.
	var complaint string
	f = p.setOptions(record.GameOptions(c.Variant))
	if f == nil {
		f = p.ready(ctx, func(l string) {
			if rest, ok := strings.CutPrefix(l, "info string error"); ok && complaint == "" {
				complaint = strings.TrimLeft(rest, ": ")
			}
		})
	}
	p.close(quitGrace)
	switch {
	case log.Err() != nil:
		return fmt.Errorf("writing the log: %w", log.Err())
	case f != nil:
		return fmt.Errorf("%s: %s", label, f.detail)
	case complaint != "":
		return fmt.Errorf("%s rejects its options: %s", label, complaint)
	}
	return nil
}

func (c *Config) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

// Summary is the state of a match: the results so far and the test.
type Summary struct {
	Names   [2]string
	Score   WDL   // engine1's wins, losses and draws
	AsSouth WDL   // engine1's results with South
	AsNorth WDL   // engine1's results with North
	Sides   WDL   // South's wins, losses and draws, whoever played it
	Pairs   Penta // completed game pairs
	// SPRT is the test, if any, with its log-likelihood ratio and decision.
	SPRT     *SPRT
	LLR      float64
	Decision Decision
	// Forfeits counts each engine's forfeits by termination.
	Forfeits [2]map[record.Termination]int
	// Horizons holds, for each engine, how many plies before the end of
	// each game it first reported a proven result (a mate score), one
	// entry per game in which it did, in the order the games were
	// counted.
	Horizons [2][]int
}

// Run plays the match and writes progress, reports and records as the
// configuration asks. It returns when every game is played, when the SPRT
// decides (games still running are then stopped and not counted) or when
// ctx is cancelled (the error says so; the summary counts the games
// finished).
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if err := cfg.Validate(); err != nil {
		return Summary{}, err
	}
	r := newRunner(&cfg)
	if err := playOut(ctx, cfg.Concurrency, &r.cancel, r.restore, r.work); err != nil {
		return Summary{}, err
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.log.Err(); err != nil && r.err == nil {
		r.err = fmt.Errorf("writing the log: %w", err)
	}
	sum := r.summary()
	if cfg.Report != nil {
		sum.WriteReport(cfg.Report)
	}
	switch {
	case r.err != nil:
		return sum, r.err
	case ctx.Err() != nil:
		return sum, fmt.Errorf("match stopped after %d games: %w", sum.Score.Games(), ctx.Err())
	}
	return sum, nil
}

// playOut restores the games an earlier run played, then runs
// concurrency workers (at least one) until they end, under a context that
// *cancel cancels (set before restore runs).
func playOut(ctx context.Context, concurrency int, cancel *context.CancelFunc, restore func() error, work func(context.Context)) error {
	gctx, stop := context.WithCancel(ctx)
	defer stop()
	*cancel = stop
	if err := restore(); err != nil {
		return err
	}
	var wg sync.WaitGroup
	for range max(concurrency, 1) {
		wg.Go(func() { work(gctx) })
	}
	wg.Wait()
	return nil
}

// runner is the state of a match in progress.
type runner struct {
	cfg      *Config
	log      *client.Log
	openings []board.Position
	cancel   context.CancelFunc
	procs    *atomic.Int64 // engine processes started, numbering them in the log
	// ids are the engines of the slots: 0 and 1 in a match, their places
	// among a tournament's engines in one of its pairings. A worker keeps
	// its players by engine.
	ids [2]int
	// seed seeds the built-in players: the match's seed, or in a
	// tournament one of the pairing's own.
	seed uint64
	// number gives game idx's number in records and messages (nil: idx+1).
	number func(idx int) int

	mu     sync.Mutex
	next   int // the next game to start, 0-based
	sum    Summary
	half   map[int]float64 // engine1's score in the finished game of each unfinished pair
	played map[int]bool    // the games (0-based) an earlier run finished; set before any worker starts
	holder int             // traditional match: the slot the last four go to, or -1 for the capturer
	err    error           // the first error writing records
}

func newRunner(cfg *Config) *runner {
	r := &runner{cfg: cfg, log: client.NewLog(cfg.Log), half: map[int]float64{}, holder: -1,
		procs: &atomic.Int64{}, ids: [2]int{0, 1}, seed: cfg.Seed}
	r.sum.Names = [2]string{cfg.Engines[0].Name, cfg.Engines[1].Name}
	r.sum.SPRT = cfg.SPRT
	r.sum.Forfeits = [2]map[record.Termination]int{{}, {}}
	r.openings = cfg.PairOpenings()
	cfg.noteOpenings(r.openings, cfg.Engines[0].Limit.Replays() && cfg.Engines[1].Limit.Replays())
	return r
}

// noteOpenings tells Progress when the openings are fewer than the pairs
// of games; replays says whether every engine plays the same games again
// from the same opening (see timecontrol.Limit.Replays).
func (c *Config) noteOpenings(openings []board.Position, replays bool) {
	pairs := c.openingsWanted()
	distinct, what := 2*len(openings), "pairs"
	if c.NoRepeat {
		distinct, what = len(openings), "games"
	}
	switch {
	case c.Progress == nil || len(openings) >= pairs:
	case replays:
		fmt.Fprintf(c.Progress, "only %d openings for %d %s: at a node or depth limit a game played again from an opening repeats itself, so only the first %d games are distinct\n",
			len(openings), pairs, what, distinct)
	case c.RandomPlies > 0 && len(c.Openings) == 0:
		fmt.Fprintf(c.Progress, "only %d distinct openings of %d random plies; they are used again\n", len(openings), c.RandomPlies)
	}
}

// worker owns the players of one game at a time, by engine (see
// runner.ids), so that an engine's process serves the games that follow.
type worker struct {
	players map[int]player
	// proven is the worker's own Config.NewProven judge, made with its
	// first game.
	proven func(p board.Position, history []uint64) (board.Result, string, bool)
}

func newWorker() *worker { return &worker{players: map[int]player{}} }

// drop closes engine id's player, giving it grace to quit; the next game
// starts a fresh one.
func (w *worker) drop(id int, grace time.Duration) {
	if p := w.players[id]; p != nil {
		p.close(grace)
		delete(w.players, id)
	}
}

// keep closes the players of every engine but ids', so that a worker
// runs the processes of one pairing at a time.
func (w *worker) keep(ids [2]int) {
	for id := range w.players {
		if id != ids[0] && id != ids[1] {
			w.drop(id, quitGrace)
		}
	}
}

// close closes every player.
func (w *worker) close() { w.keep([2]int{-1, -1}) }

// dropSlot closes the player of a slot's engine.
func (r *runner) dropSlot(w *worker, slot int, grace time.Duration) { w.drop(r.ids[slot], grace) }

// gameNumber returns game idx's number in records and messages.
func (r *runner) gameNumber(idx int) int {
	if r.number != nil {
		return r.number(idx)
	}
	return idx + 1
}

// work plays pairs until there are none left or the match stops.
func (r *runner) work(ctx context.Context) {
	w := newWorker()
	defer w.close()
	for {
		pair, ok := r.take(ctx)
		if !ok {
			return
		}
		if !r.playPair(ctx, w, pair, r.opening, r.finish) {
			return
		}
	}
}

// take hands out the next pair.
func (r *runner) take(ctx context.Context) (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for 2*r.next < r.cfg.Games && r.pairPlayed(r.next) {
		r.next++
	}
	if ctx.Err() != nil || 2*r.next >= r.cfg.Games {
		return 0, false
	}
	pair := r.next
	r.next++
	return pair, true
}

// playPair plays the games of a pair (one when the last pair is cut
// short by an odd number of games), game idx from open(idx), handing each
// record to done as it finishes. It returns false if the match stopped
// during a game.
func (r *runner) playPair(ctx context.Context, w *worker, pair int, open func(idx int) board.Position, done func(*record.GameRecord)) bool {
	for idx := 2 * pair; idx < min(2*pair+2, r.cfg.Games); idx++ {
		if r.played[idx] {
			continue
		}
		rec := r.play(ctx, w, idx, open(idx), r.lastFour(idx))
		if rec == nil {
			return false
		}
		done(rec)
	}
	return true
}

// opening returns the opening game idx (0-based) starts from: its pair's,
// or with NoRepeat its own.
func (r *runner) opening(idx int) board.Position {
	k := idx / 2
	if r.cfg.NoRepeat {
		k = idx
	}
	return r.openings[k%len(r.openings)]
}

// lastFour returns game idx's LastFour setting: the variant's, or in a
// traditional match the one the previous games decided.
func (r *runner) lastFour(idx int) board.LastFour {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastFourHeld(idx)
}

// lastFourHeld is lastFour with r.mu held.
func (r *runner) lastFourHeld(idx int) board.LastFour {
	lf := r.cfg.Variant.Rules().LastFour
	if r.cfg.Traditional {
		lf = board.LastFourCapturer
		if idx >= 2 && r.holder >= 0 {
			lf = board.LastFourSouth
			if slotSide(idx, r.holder) == board.North {
				lf = board.LastFourNorth
			}
		}
	}
	return lf
}

// slotSide returns the side slot plays in game idx: engine1 (slot 0) is
// South in even games.
func slotSide(idx, slot int) board.Side {
	if (idx+slot)%2 == 0 {
		return board.South
	}
	return board.North
}

// limit returns the limit that applies to a slot's player.
func (r *runner) limit(slot int) timecontrol.Limit {
	if r.cfg.Engines[slot].Builtin != "" {
		return timecontrol.Limit{}
	}
	return r.cfg.Engines[slot].Limit
}

// ensure returns the slot's player, starting it if needed.
func (r *runner) ensure(ctx context.Context, w *worker, slot int) (player, *fault) {
	id := r.ids[slot]
	if p := w.players[id]; p != nil {
		if b, ok := p.(*builtinPlayer); ok {
			b.seed, b.slot = r.seed, slot // as a fresh one would be
		}
		return p, nil
	}
	spec := &r.cfg.Engines[slot]
	if spec.Builtin != "" {
		w.players[id] = &builtinPlayer{kind: spec.Builtin, seed: r.seed, slot: slot}
		return w.players[id], nil
	}
	label := fmt.Sprintf("%s(%d)", spec.Name, r.procs.Add(1))
	p, f := startProcess(ctx, spec, label, r.cfg.timeout(), r.log)
	if f != nil {
		if f.term != aborted {
			f = &fault{record.Crash, "could not start: " + f.detail}
		}
		return nil, f
	}
	if _, ok := p.e.HasOption("Ponder"); ok && r.cfg.Ponder && !ponderOff(spec.Options) {
		if f := p.setOptions([]Option{{Name: "Ponder", Value: "true"}}); f != nil {
			p.close(0)
			return nil, f
		}
		p.ponders = true
	}
	w.players[id] = p
	return p, nil
}

// provenOf returns what w's games ask after every move: w's own
// Config.NewProven judge (made the first time), or else Config.Proven.
func (r *runner) provenOf(w *worker) func(p board.Position, history []uint64) (board.Result, string, bool) {
	if r.cfg.NewProven == nil {
		return r.cfg.Proven
	}
	if w.proven == nil {
		w.proven = r.cfg.NewProven()
	}
	return w.proven
}

// finish counts a finished game, writes its records and progress, and
// stops the match when the SPRT decides.
func (r *runner) finish(rec *record.GameRecord) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.count(rec) {
		return
	}
	s := &r.sum
	r.write(rec)
	if r.cfg.Progress != nil {
		line := fmt.Sprintf("Finished game %d of %d (%s vs %s): %s {%s}; %s, Elo %s",
			rec.Game, r.cfg.Games, rec.South, rec.North, rec.Result, progressDetail(rec),
			scoreText(s.Score), eloText(s.Score))
		if s.SPRT != nil {
			line += fmt.Sprintf(", llr %.3g", s.LLR)
		}
		fmt.Fprintln(r.cfg.Progress, line)
	}
	done := s.Score.Games()
	if n := r.cfg.ReportEvery; n > 0 && done%n == 0 && done < r.cfg.Games && s.Decision == Continue && r.cfg.Report != nil {
		snap := r.summary()
		snap.WriteReport(r.cfg.Report)
	}
}

// progressDetail says in a progress line how a game ended: the rule, the
// adjudication, or who forfeited how.
func progressDetail(rec *record.GameRecord) string {
	if rec.Loser != "" {
		return fmt.Sprintf("%s forfeits: %s", titleSide(rec.Loser), rec.Termination)
	}
	return rec.Reason
}

// write writes a game's records; the first error stops the match.
func (r *runner) write(rec *record.GameRecord) {
	err := writeRecord(r.cfg, r.log, rec)
	if err != nil && r.err == nil {
		r.err = err
		r.cancel()
	}
}

// writeRecord writes a game's records to cfg's JSON and PGN, and returns
// the error writing them or, before that, the log.
func writeRecord(cfg *Config, log *client.Log, rec *record.GameRecord) error {
	var err error
	if cfg.JSON != nil {
		var b []byte
		if b, err = json.Marshal(rec); err == nil {
			_, err = cfg.JSON.Write(append(b, '\n'))
		}
	}
	if err == nil && cfg.PGN != nil {
		_, err = io.WriteString(cfg.PGN, rec.PGN())
	}
	if err != nil {
		return fmt.Errorf("writing game %d: %w", rec.Game, err)
	}
	if err = log.Err(); err != nil {
		return fmt.Errorf("writing the log: %w", err)
	}
	return nil
}

// summary returns a copy of the summary (r.mu held).
func (r *runner) summary() Summary {
	s := r.sum
	for i := range s.Horizons {
		s.Horizons[i] = slices.Clone(r.sum.Horizons[i])
	}
	for i := range s.Forfeits {
		s.Forfeits[i] = map[record.Termination]int{}
		for k, v := range r.sum.Forfeits[i] {
			s.Forfeits[i][k] = v
		}
	}
	return s
}

// count counts a finished game in the summary and stops the match when the
// SPRT decides (r.mu held). It returns false, counting nothing, if the
// match had already stopped.
func (r *runner) count(rec *record.GameRecord) bool {
	if r.sum.Decision != Continue || r.err != nil {
		return false // the match has stopped; games still running are not counted
	}
	if r.add(rec) {
		r.judge()
	}
	return true
}

// add counts a finished game's result in the summary (r.mu held) and
// reports whether it completed its pair.
func (r *runner) add(rec *record.GameRecord) (pairDone bool) {
	s := &r.sum
	e1 := rec.Engine1Score()
	tally := func(t *WDL, score float64) {
		switch score {
		case 1:
			t.Wins++
		case 0:
			t.Losses++
		default:
			t.Draws++
		}
	}
	tally(&s.Score, e1)
	for e, h := range proofHorizons(rec) {
		if h >= 0 {
			s.Horizons[e] = append(s.Horizons[e], h)
		}
	}
	if rec.Engine1 == "south" {
		tally(&s.AsSouth, e1)
		tally(&s.Sides, e1)
	} else {
		tally(&s.AsNorth, e1)
		tally(&s.Sides, 1-e1)
	}
	pair := (rec.Game - 1) / 2
	if other, ok := r.half[pair]; ok {
		s.Pairs.Add(other, e1)
		delete(r.half, pair)
		pairDone = true
	} else {
		r.half[pair] = e1
	}
	if rec.Loser != "" {
		slot := 0
		if rec.Loser != rec.Engine1 {
			slot = 1
		}
		s.Forfeits[slot][rec.Termination]++
	}
	if r.cfg.Traditional && rec.Game >= 2 && rec.Winner != "draw" {
		r.holder = 1
		if rec.Winner == rec.Engine1 {
			r.holder = 0
		}
	}
	return pairDone
}

// judge tests the SPRT, if any, on the pairs so far and stops the match
// when it decides (r.mu held).
func (r *runner) judge() {
	s := &r.sum
	if s.SPRT == nil || s.Decision != Continue {
		return
	}
	s.LLR = s.SPRT.LLR(s.Pairs)
	if s.Decision = s.SPRT.Decide(s.LLR); s.Decision != Continue {
		r.cancel()
	}
}

// titleSide turns "south" into "South".
func titleSide(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
