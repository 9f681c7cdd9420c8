package dfpn

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sower-engine/sower/board"
)

// MaxDepth bounds the plies of a line the solver follows; a line that
// reaches it counts as a failure for the attacker that only that line uses.
const MaxDepth = 2048

// Outcome is what a proof search found for the side to move at the root.
type Outcome uint8

// Outcomes. Unknown: the search stopped first (interrupted, or the
// disproofs rest on the depth bound).
const (
	Unknown Outcome = iota
	Win             // the side to move wins (proven)
	Loss            // the side to move loses (proven)
	Draw            // neither side can force a win (both disproven)
)

// String returns "win", "loss", "draw" or "unknown".
func (o Outcome) String() string {
	switch o {
	case Win:
		return "win"
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	}
	return "unknown"
}

// Config are a Solver's settings. Its zero value, with HashMiB set, is
// the configuration of sower solve and of the prover in play: there is no
// other way to estimate a new position or to break ties (docs/dfpn.md,
// "The algorithm").
type Config struct {
	// HashMiB is the table's size in MiB (at least 1).
	HashMiB int
	// Every is how often Progress reports come (default 2 s).
	Every time.Duration
	// MaxNodes, if not 0, stops each proof search (each attacker's) after
	// about this many nodes, with what it has proven.
	MaxNodes uint64
	// Threads is the number of threads that search the one table together
	// (default 1).
	Threads int
	// HugePages asks the system for huge pages for the table (Linux's
	// transparent huge pages; elsewhere it does nothing). A probe of a
	// large table is then cheaper, and a long search that fills it
	// faster (measured: 5 to 8% more nodes a second on 8 GiB); but each page
	// touched is 2 MiB zeroed, so a short search of a large table is
	// slower and holds the whole table in memory (journal
	// 2026-12-07-dfpn-huge-pages-for-campaigns). Proof campaigns set it.
	HugePages bool
}

// Progress is a report on a running proof.
type Progress struct {
	Attacker board.Side // the side whose win is being proven
	Nodes    uint64
	Time     time.Duration
	// PN and DN are the root's proof and disproof numbers as the search
	// has them now (each node of the line combined from its children's,
	// from the deepest up: a node's own copy of a child's numbers changes
	// only when the child's search returns, which in a long proof may
	// take hours).
	PN, DN uint32
	Fill   float64 // the share of the table in use
	// Move is the root's move being searched (board.NoMove when none),
	// MovePN and MoveDN the numbers of the position after it, as PN and
	// DN are the root's.
	Move           board.Move
	MovePN, MoveDN uint32
	// Line is the main thread's line from the root, its first
	// ProgressLine moves at most (empty when it is at the root), and Ply
	// the line's whole length: where the search's work is now.
	Line []board.Move
	Ply  int
}

// ProgressLine is the most moves of the line Progress.Line holds.
const ProgressLine = 16

// NPS returns the nodes searched per second.
func (p Progress) NPS() float64 {
	if p.Time <= 0 {
		return 0
	}
	return float64(p.Nodes) / p.Time.Seconds()
}

// Result is a finished (or stopped) proof search of a root.
type Result struct {
	Outcome Outcome
	// Winner is the side that wins when Outcome is Win or Loss.
	Winner board.Side
	// Move is a move that keeps the win when the side to move wins.
	Move board.Move
	// Plies is the length of the proof's longest line: the winner wins in
	// at most this many plies by following it.
	Plies int
	// OutOfNodes reports that a question ran out of Config.MaxNodes
	// (SetMaxNodes) before it was settled; the Outcome is then Unknown.
	OutOfNodes bool
	Nodes      uint64
	Time       time.Duration
}

// Solver is a df-pn prover with its table. Its methods are not safe for
// concurrent use; with Config.Threads above 1 each search runs that many
// threads on the one table.
type Solver struct {
	tt       *table
	every    time.Duration
	maxNodes uint64
	// noEstimates turns the threads' estimate caches off, for the tests'
	// comparison (the caches change no number).
	noEstimates bool

	// The search under way: set before its threads start, then only read.
	v          *board.Variant
	limit      int
	total      int // seeds on the board
	attacker   board.Side
	salt       uint64
	rootAttack bool // the attacker moves at the root
	parallel   bool // helpers search beside the main thread
	ctx        context.Context
	report     func(Progress)
	start      time.Time
	last       time.Time

	searched uint64        // nodes of the last search, all threads
	count    atomic.Uint64 // nodes the threads have counted so far
	halt     atomic.Bool   // the search is over: every thread returns

	helping sync.WaitGroup // the helpers' goroutines
	mu      sync.Mutex     // guards found and done
	found   result         // the root's result, when a helper found it first
	done    bool

	main    worker
	helpers []worker
}

// New returns a Solver with a table of cfg.HashMiB MiB.
func New(cfg Config) (*Solver, error) {
	if cfg.HashMiB < 1 {
		return nil, fmt.Errorf("dfpn: hash size %d MiB: want at least 1", cfg.HashMiB)
	}
	if cfg.Threads < 0 || cfg.Threads > MaxThreads {
		return nil, fmt.Errorf("dfpn: %d threads: want 1 to %d", cfg.Threads, MaxThreads)
	}
	every := cfg.Every
	if every <= 0 {
		every = 2 * time.Second
	}
	s := &Solver{tt: newTable(cfg.HashMiB, cfg.HugePages), every: every, maxNodes: cfg.MaxNodes}
	s.main = newWorker(s, false)
	for range max(cfg.Threads, 1) - 1 {
		s.helpers = append(s.helpers, newWorker(s, true))
	}
	return s, nil
}

// MaxThreads is the most threads a Solver runs.
const MaxThreads = 256

// SetMaxNodes sets Config.MaxNodes for the next searches: each proof
// search stops after about n nodes (0: no limit).
func (s *Solver) SetMaxNodes(n uint64) { s.maxNodes = n }

// Fill returns the share of the table in use.
func (s *Solver) Fill() float64 { return s.tt.fill() }

// Clear empties the table and the threads' estimate caches, as for a new
// game.
func (s *Solver) Clear() {
	s.tt.clear()
	s.main.cacheFor = nil
	for i := range s.helpers {
		s.helpers[i].cacheFor = nil
	}
}

// Collect drops from the table what Save would not write (unfinished
// entries with little work below them, and disproofs that rest on a
// position of the line that found them) and returns the entries it keeps.
// A long proof that goes on after Collect, from the root, goes on as one
// resumed from a saved table would, without the file. No search may run
// meanwhile.
func (s *Solver) Collect() int { return s.tt.collect() }

// salts distinguish the two attackers' entries in one table.
var salts = [2]uint64{0, 0x9e3779b97f4a7c15}

// ErrNotKatro is returned for a position of another game.
var ErrNotKatro = errors.New("dfpn: proof-number search is for Katro")

// Solve decides root: whether its side to move wins, and if not, whether
// the other side does. history holds the game's keys before root (as in
// board.Game.History), for repetition. report, if not nil, is called every
// Config.Every with the search's progress. When ctx is cancelled Solve
// returns what it has proven with ctx's error.
func (s *Solver) Solve(ctx context.Context, root board.Position, history []uint64, report func(Progress)) (Result, error) {
	return s.SolveFirst(ctx, root, history, root.Side(), report)
}

// SolveFirst is Solve asking first whether first wins (Solve asks first
// for the side to move). The answer is the same either way; the work is
// not: once a side's win is proven the other question is never asked, so
// asking first for the side expected to win saves the disproof of the
// other's.
func (s *Solver) SolveFirst(ctx context.Context, root board.Position, history []uint64, first board.Side, report func(Progress)) (Result, error) {
	v := root.Variant()
	if v == nil || v.Family() != board.Katro {
		return Result{}, ErrNotKatro
	}
	return Decide(root, first, func(attacker board.Side) (Answer, error) {
		r, err := s.Prove(ctx, root, history, attacker, report)
		a := Answer{Bounds: Bounds{PN: r.pn, DN: r.dn, Plies: int(r.dist), OnPath: r.dn == 0 && r.rep != noRep}, Move: r.move, Nodes: s.searched}
		return a, err
	})
}

// Prove runs df-pn on root for attacker until root is proven or disproven,
// and returns the root's numbers (pn 0: attacker wins).
func (s *Solver) Prove(ctx context.Context, root board.Position, history []uint64, attacker board.Side, report func(Progress)) (result, error) {
	if root.Variant() == nil || root.Variant().Family() != board.Katro {
		return result{}, ErrNotKatro
	}
	s.setup(ctx, root, attacker, report)
	s.main.setup(history)
	if st := root.Status(history); st.Over() {
		s.progress()
		return s.endResult(st), ctx.Err()
	}
	if s.parallel {
		s.startHelpers(root, history)
	}
	r := s.main.run(root)
	s.halt.Store(true)
	s.helping.Wait()
	s.mu.Lock()
	if r.pn != 0 && r.dn != 0 && s.done {
		// A helper settled the root. The main thread, stopped, stored its
		// own numbers over the helper's entry (mid keeps a stopped root's
		// numbers), which may still be open where it refuses a child's
		// result the helper used (a disproof resting on a repetition):
		// the settled result goes back in.
		r = s.found
		s.tt.store(root.Key()^s.salt, r, s.count.Load())
	}
	s.mu.Unlock()
	s.searched = s.count.Load()
	s.progress()
	return r, ctx.Err()
}

// startHelpers starts the helpers' search of root.
func (s *Solver) startHelpers(root board.Position, history []uint64) {
	for i := range s.helpers {
		h := &s.helpers[i]
		h.setup(history)
		s.helping.Go(func() { h.run(root) })
	}
}

// setup readies the solver for one search.
func (s *Solver) setup(ctx context.Context, root board.Position, attacker board.Side, report func(Progress)) {
	if v := root.Variant(); !sameRules(v, s.v) {
		if s.v != nil {
			s.tt.clear()
		}
		s.setVariant(v)
	}
	s.attacker, s.salt = attacker, salts[attacker]
	s.rootAttack = root.Side() == attacker
	s.parallel = len(s.helpers) > 0
	s.ctx, s.report = ctx, report
	s.start = time.Now()
	s.last = s.start
	s.searched = 0
	s.count.Store(0)
	s.halt.Store(false)
	s.done = false
}

// sameRules reports whether variants a and b (b possibly nil) are the same
// board under the same rule options: their positions have the same keys
// and values, so one table serves both.
func sameRules(a, b *board.Variant) bool {
	return a == b || (b != nil && a.Name() == b.Name() && a.Rules() == b.Rules())
}

// setVariant sets the variant whose positions the table holds.
func (s *Solver) setVariant(v *board.Variant) {
	s.v = v
	s.limit = v.Rules().NoCaptureLimit
	s.total = v.Total()
}

// finish records a helper's final result of the root and ends the search.
func (s *Solver) finish(r result) {
	s.mu.Lock()
	if !s.done {
		s.found, s.done = r, true
	}
	s.mu.Unlock()
	s.halt.Store(true)
}

// endResult is the result of a root whose game is already over.
func (s *Solver) endResult(st board.Status) result {
	if w, ok := st.Result.Winner(); ok && w == s.attacker {
		return result{pn: 0, dn: inf, clock: clockAny, rep: noRep}
	}
	return result{pn: inf, dn: 0, rep: noRep}
}

// progress calls the report function with the main thread's view of the
// root.
func (s *Solver) progress() {
	if s.report == nil {
		return
	}
	w := &s.main
	r := w.root
	f := &w.frames[0]
	open := r.pn != 0 && r.dn != 0
	var move result
	if open && f.n > 0 {
		r, move = w.live(s.rootAttack)
	}
	p := Progress{Attacker: s.attacker, Nodes: s.count.Load(), Time: time.Since(s.start), PN: r.pn, DN: r.dn, Fill: s.tt.fill()}
	if open && f.cur > 0 && len(w.frames) > 1 {
		p.Line, p.Ply = w.line()
		p.Move, p.MovePN, p.MoveDN = f.kids[f.cur-1].move, move.pn, move.dn
	}
	s.report(p)
}

// live returns the numbers of the main thread's root, and of the root's
// child under search, as its search has them now. A node's copy of a
// child's numbers changes only when the child's search returns, which in
// a long proof may take hours; so each node of the line, from the
// deepest up, is combined from its children with the child under search
// given the numbers just combined for it. Nothing is changed. It is
// called on the main thread (poll), between two nodes.
func (w *worker) live(rootAttack bool) (root, move result) {
	depth := 0
	for depth < len(w.frames) && w.frames[depth].cur > 0 {
		depth++
	}
	var below result
	for ply := max(depth-1, 0); ply >= 0; ply-- {
		f := &w.frames[ply]
		attack, clock := rootAttack, 0
		if ply > 0 {
			pos := &w.frames[ply-1].kids[w.frames[ply-1].cur-1].pos
			attack, clock = pos.Side() == w.attacker, pos.Clock()
		}
		c := &f.kids[max(f.cur-1, 0)]
		if depth <= 1 {
			move = c.result // the child is entering its search
		}
		if ply < depth-1 {
			kept := c.result
			c.pn, c.dn = below.pn, below.dn
			below = w.combine(f, attack, clock, ply)
			c.result = kept
		} else {
			below = w.combine(f, attack, clock, ply)
		}
		if ply == 1 {
			move = below
		}
	}
	return below, move
}

// line returns the main thread's line from the root (its first
// ProgressLine moves) and the line's length: each frame's child under
// search, down to the first frame searching none.
func (w *worker) line() ([]board.Move, int) {
	var l []board.Move
	ply := 0
	for ; ply < len(w.frames) && w.frames[ply].cur > 0; ply++ {
		if ply < ProgressLine {
			f := &w.frames[ply]
			l = append(l, f.kids[f.cur-1].move)
		}
	}
	return l, ply
}

// Bounds are a root's proof and disproof numbers for one attacker after a
// search: PN 0 when the attacker's win is proven (in at most Plies plies),
// DN 0 when it is disproven, both Infinity at most.
type Bounds struct {
	PN, DN uint32
	Plies  int
	// OnPath reports a disproof that rests on a position of the history
	// given (or on the depth bound): it holds for that history only.
	OnPath bool
}

// ProveWithin is Prove within a node budget of its own (0: none; the
// solver's own budget, SetMaxNodes, is restored after it), with the
// root's numbers exported and the nodes it searched: a root neither
// proven nor disproven within the budget comes back with its numbers as
// the search left them, which the table keeps (Numbers reads them).
func (s *Solver) ProveWithin(ctx context.Context, root board.Position, history []uint64, attacker board.Side, maxNodes uint64, report func(Progress)) (Bounds, uint64, error) {
	saved := s.maxNodes
	s.maxNodes = maxNodes
	r, err := s.Prove(ctx, root, history, attacker, report)
	s.maxNodes = saved
	n := Bounds{PN: r.pn, DN: r.dn}
	switch {
	case r.pn == 0:
		n.Plies = int(r.dist)
	case r.dn == 0 && r.rep != noRep:
		n.OnPath = true
	case r.dn == 0:
		// A root drawn by repetition before any search rests on the
		// history too.
		n.OnPath = root.Status(history).Reason == board.ReasonRepeat
	}
	return n, s.searched, err
}
