package dfpn

import (
	"context"
	"errors"
	"fmt"
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

// Config are a Solver's settings.
type Config struct {
	// HashMiB is the table's size in MiB (at least 1).
	HashMiB int
	// Every is how often Progress reports come (default 2 s).
	Every time.Duration
	// Init chooses the first estimates of positions never searched.
	Init Init
	// MaxNodes, if not 0, stops each proof search (each attacker's) after
	// about this many nodes, with what it has proven.
	MaxNodes uint64
}

// Init is a way to estimate the proof and disproof numbers of a position
// never searched.
type Init uint8

// The estimates.
const (
	// InitMobility: the side to move's moves count as the number to prove
	// or disprove where each must be answered (1 for the other number).
	InitMobility Init = iota
	// InitUniform: 1 and 1.
	InitUniform
	// InitSeeds: from the seed balance: a factor of two for every eighth
	// of the seeds the attacker has less (or more) than the defender.
	InitSeeds
	// InitSeedsMobility: InitSeeds times the moves, as InitMobility.
	InitSeedsMobility
)

// Progress is a report on a running proof.
type Progress struct {
	Attacker board.Side // the side whose win is being proven
	Nodes    uint64
	Time     time.Duration
	PN, DN   uint32  // the root's proof and disproof numbers
	Fill     float64 // the share of the table in use
}

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
	Nodes uint64
	Time  time.Duration
}

// Solver is a df-pn prover with its table. It is not safe for concurrent
// use.
type Solver struct {
	tt       *table
	every    time.Duration
	maxNodes uint64
	init     Init
	total    int // seeds on the board
	v        *board.Variant
	limit    int
	attacker board.Side
	salt     uint64
	frames   []frame
	path     []uint64
	base     int
	onPath   pathFilter
	nodes    uint64
	start    time.Time
	last     time.Time
	ctx      context.Context
	stop     bool
	report   func(Progress)
	root     result
	// rootAttack: the attacker moves at the root.
	rootAttack bool
}

// New returns a Solver with a table of cfg.HashMiB MiB.
func New(cfg Config) (*Solver, error) {
	if cfg.HashMiB < 1 {
		return nil, fmt.Errorf("dfpn: hash size %d MiB: want at least 1", cfg.HashMiB)
	}
	every := cfg.Every
	if every <= 0 {
		every = 2 * time.Second
	}
	return &Solver{tt: newTable(cfg.HashMiB), every: every, maxNodes: cfg.MaxNodes, init: cfg.Init, frames: make([]frame, MaxDepth)}, nil
}

// SetMaxNodes sets Config.MaxNodes for the next searches: each proof
// search stops after about n nodes (0: no limit).
func (s *Solver) SetMaxNodes(n uint64) { s.maxNodes = n }

// Clear empties the table, as for a new game.
func (s *Solver) Clear() { s.tt.clear() }

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
	v := root.Variant()
	if v == nil || v.Family() != board.Katro {
		return Result{}, ErrNotKatro
	}
	start := time.Now()
	var res Result
	for _, attacker := range [2]board.Side{root.Side(), root.Side().Other()} {
		r, err := s.Prove(ctx, root, history, attacker, report)
		res.Nodes += s.nodes
		res.Time = time.Since(start)
		if err != nil {
			return res, err
		}
		if r.pn != 0 && r.dn != 0 {
			return res, nil // the node budget ran out
		}
		if r.pn == 0 {
			res.Winner, res.Plies, res.Move = attacker, int(r.dist), r.move
			res.Outcome = Win
			if attacker != root.Side() {
				res.Outcome, res.Move = Loss, board.NoMove
			}
			return res, nil
		}
		if r.rep != noRep {
			// The disproof rests on the history before the root or on the
			// depth bound: it proves nothing.
			return res, nil
		}
	}
	res.Outcome = Draw
	return res, nil
}

// Prove runs df-pn on root for attacker until root is proven or disproven,
// and returns the root's numbers (pn 0: attacker wins).
func (s *Solver) Prove(ctx context.Context, root board.Position, history []uint64, attacker board.Side, report func(Progress)) (result, error) {
	if root.Variant() == nil || root.Variant().Family() != board.Katro {
		return result{}, ErrNotKatro
	}
	s.setup(ctx, root, history, attacker, report)
	key := root.Key() ^ s.salt
	var r result
	for !s.stop {
		if st := root.Status(history); st.Over() {
			r = s.endResult(st)
			break
		}
		r = s.mid(&root, key, 0, maxPN, maxPN)
		s.root = r
		if r.pn == 0 || r.dn == 0 {
			break
		}
	}
	s.progress()
	return r, ctx.Err()
}

// setup readies the solver for one search.
func (s *Solver) setup(ctx context.Context, root board.Position, history []uint64, attacker board.Side, report func(Progress)) {
	if v := root.Variant(); v != s.v {
		if s.v != nil {
			s.tt.clear()
		}
		s.v = v
		s.limit = v.Rules().NoCaptureLimit
		s.total = v.Total()
	}
	s.attacker, s.salt = attacker, salts[attacker]
	s.rootAttack = root.Side() == attacker
	s.ctx, s.report, s.stop = ctx, report, false
	s.nodes, s.start = 0, time.Now()
	s.last = s.start
	s.base = len(history)
	if cap(s.path) < s.base+MaxDepth {
		s.path = make([]uint64, s.base+MaxDepth)
	}
	s.path = s.path[:s.base+MaxDepth]
	copy(s.path, history)
	s.onPath = pathFilter{}
	for _, k := range history {
		s.onPath.add(k ^ s.salt)
	}
	for i := range s.base {
		s.path[i] ^= s.salt
	}
	s.root = result{pn: 1, dn: 1}
}

// endResult is the result of a root whose game is already over.
func (s *Solver) endResult(st board.Status) result {
	if w, ok := st.Result.Winner(); ok && w == s.attacker {
		return result{pn: 0, dn: inf, clock: clockAny, rep: noRep}
	}
	return result{pn: inf, dn: 0, rep: noRep}
}

// poll checks for cancellation and reports progress when it is due.
func (s *Solver) poll() {
	if s.ctx.Err() != nil || (s.maxNodes > 0 && s.nodes >= s.maxNodes) {
		s.stop = true
	}
	if now := time.Now(); now.Sub(s.last) >= s.every {
		s.last = now
		s.progress()
	}
}

// progress calls the report function.
func (s *Solver) progress() {
	if s.report == nil {
		return
	}
	r := s.root
	if f := &s.frames[0]; r.pn != 0 && r.dn != 0 && f.n > 0 {
		r = s.combine(f, s.rootAttack, 0, 0)
	}
	s.report(Progress{Attacker: s.attacker, Nodes: s.nodes, Time: time.Since(s.start), PN: r.pn, DN: r.dn, Fill: s.tt.fill()})
}

// repeated reports whether key occurs on the line to the node at ply (its
// ancestors and itself) or in the history, with the ply of the occurrence
// (-1 for the history).
func (s *Solver) repeated(key uint64, ply int) (int32, bool) {
	if !s.onPath.has(key) {
		return 0, false
	}
	for i := s.base + ply; i >= 0; i-- {
		if s.path[i] == key {
			return int32(i - s.base), true
		}
	}
	return 0, false
}

// pathFilter counts the keys on the current line in 4096 cells, so that
// most positions are known to be off the line without a scan.
type pathFilter [4096]uint16

func (f *pathFilter) add(k uint64)      { f[k>>52]++ }
func (f *pathFilter) remove(k uint64)   { f[k>>52]-- }
func (f *pathFilter) has(k uint64) bool { return f[k>>52] != 0 }
