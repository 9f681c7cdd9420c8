package search

import (
	"context"
	"errors"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
	"github.com/sower-engine/sower/eval/nnue"
	"github.com/sower-engine/sower/search/dfpn"
	"github.com/sower-engine/sower/tables"
)

// Info is a progress report: one per completed iteration, and one when the
// best move changes at the root during an iteration.
type Info struct {
	Family   board.Family // the game family, for formatting Score
	Depth    int          // the iteration's nominal depth
	SelDepth int          // the deepest ply reached, or Depth if more: never below Depth
	Score    Score
	// Bound is BoundExact, or BoundLower / BoundUpper after a failed
	// aspiration window, and for a proven Hoyito III result whose margin
	// is a minimum (see Score): a win by at least, a loss by at least.
	Bound Bound
	// Proven reports that a completed iteration proved Score: a Katro
	// win or loss, or a value that the rules (or the endgame tables)
	// reached on every line: a Hoyito III win or loss by exactly its
	// margin, or a draw when Score is 0. A decisive score whose bound
	// lies on its side (a Hoyito III win's BoundLower, a loss's
	// BoundUpper) is a proven win or loss too, by at least its margin.
	Proven   bool
	Nodes    uint64
	Time     time.Duration
	NPS      uint64
	Hashfull int          // per mille
	TBHits   uint64       // endgame table probes that found the position
	PV       []board.Move // principal variation, from the root
	// MultiPV is the line's rank, 1 for the best, when the search looks
	// for several lines (Limits.MultiPV above 1); 0 otherwise.
	MultiPV int
	// WDLModel is the win/draw/loss model of the evaluation that made
	// Score (NetWDLModel); the zero model in a report made elsewhere
	// stands for the family's eval.BuiltinWDL.
	WDLModel eval.WDLModel
}

// Result is what a search found.
type Result struct {
	// Move is the best move: always legal at the root, or NoMove when the
	// game is over there.
	Move board.Move
	// Ponder is the reply the search expects, or NoMove.
	Ponder board.Move
	// Info is the last progress report, with the final node count and time.
	Info Info
	// Over is the game's status at the root when the game is already over.
	Over board.Status
}

// Engine searches positions. It owns a transposition table that persists
// between searches of a game. An Engine runs one search at a time (with
// one or more threads, see SetThreads): Search must not be called
// concurrently, and SetHash, SetThreads and ClearHash only between
// searches.
type Engine struct {
	tt      *Table
	s       *searcher      // reused between searches; allocated once
	tables  *tables.Tables // Hoyito III endgame tables, or nil (SetTables)
	nets    [2]*nnue.Net   // each family's network, or nil for the linear evaluation (SetNet)
	netLazy int            // SetNetLazy's margin
	// noEstimate turns off the tables' estimate under threefold
	// (SetTableEstimate).
	noEstimate bool

	// proverOn and solver: the Katro prover (SetProver) and its table;
	// proverThread: its own thread (SetProverThread).
	proverOn, proverThread bool
	solver                 *dfpn.Solver

	books Books // see SetBooks

	threads int         // see SetThreads
	helpers []*searcher // the helper threads' searchers, reused

	currMovePeriod time.Duration // CurrMovePeriod; shorter in tests
	quietPeriod    time.Duration // quietPeriod; longer in tests that compare reports
}

// NewEngine returns an engine with a transposition table of hashMiB MiB.
func NewEngine(hashMiB int) (*Engine, error) {
	tt, err := NewTable(hashMiB)
	if err != nil {
		return nil, err
	}
	return &Engine{tt: tt, s: new(searcher), currMovePeriod: CurrMovePeriod, quietPeriod: quietPeriod}, nil
}

// SetHash reallocates the transposition table with a new size.
func (e *Engine) SetHash(mib int) error {
	tt, err := NewTable(mib)
	if err != nil {
		return err
	}
	e.tt = tt
	return nil
}

// HashMiB returns the transposition table's size.
func (e *Engine) HashMiB() int { return e.tt.SizeMiB() }

// ClearHash empties the transposition tables (the search's and the
// prover's) and the move-ordering statistics, as for a new game.
func (e *Engine) ClearHash() {
	e.tt.Clear()
	if e.solver != nil {
		e.solver.Clear()
	}
}

// ErrNoPosition is returned for a zero Position.
var ErrNoPosition = errors.New("search: no position")

// Search searches root, whose game went through the positions whose keys
// are in history (from the game's start to the position before root; see
// board.Game.History), within lim, until ctx is cancelled. It calls report
// (if not nil) with each progress report, from the calling goroutine; it
// never prints. The result's move is legal even when the search is
// stopped before its first iteration completes.
func (e *Engine) Search(ctx context.Context, root board.Position, history []uint64, lim Limits, report func(Info)) (Result, error) {
	return e.SearchWith(ctx, root, history, lim, Callbacks{Info: report})
}

// SearchWith is Search with every kind of report: progress, the root move
// being searched and proven results (see Callbacks).
func (e *Engine) SearchWith(ctx context.Context, root board.Position, history []uint64, lim Limits, cb Callbacks) (Result, error) {
	if root.Variant() == nil {
		return Result{}, ErrNoPosition
	}
	s := e.s
	s.reset(ctx, e.tt, &root, history, lim, cb)
	s.useTables(e.tablesFor(root.Variant()), !e.noEstimate)
	if err := s.useNet(e.searchNet(root.Variant().Family(), lim), e.netLazy); err != nil {
		return Result{}, err
	}
	s.wdl = wdlModel(s.net.network(), s.family)
	s.currMovePeriod, s.quietPeriod = e.currMovePeriod, e.quietPeriod
	e.tt.NewSearch()
	s.book = e.bookFor(&root, lim)
	s.pr = e.startProver(ctx, s, lim)
	helpers := e.Threads() - 1
	if s.pr != nil && !s.pr.sliced {
		helpers-- // the prover has a thread of its own
	}
	stopHelpers := e.startHelpers(ctx, s, lim, helpers)
	res := s.run()
	stopHelpers()
	s.pr.stop()
	s.pr = nil
	if len(s.team) > 0 {
		// Count the helpers' last nodes and hits too, and the time they
		// took to stop: the result is reported once they have.
		res.Info.Nodes = s.totalNodes()
		res.Info.TBHits = s.totalTBHits()
		res.Info.Time = time.Since(s.start)
		res.Info.NPS = nps(res.Info.Nodes, res.Info.Time)
	}
	return res, nil
}

// Evaluator returns the evaluator the engine uses for v.
func Evaluator(v *board.Variant) *eval.Evaluator { return eval.New(v) }
