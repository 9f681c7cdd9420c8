package frontier

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
	"github.com/sower-engine/sower/search/dfpn"
)

// Config is a measurement's settings: the solver's table and threads,
// the limits of each position's proof search, and the step of the walk.
type Config struct {
	HashMiB int // the table, emptied before each position
	Threads int // threads on the one table (default 1)
	// Time, if not 0, stops a position's proof search after this long.
	Time time.Duration
	// Nodes, if not 0, stops each of a position's two questions (each
	// side's win) after about this many nodes (dfpn.Config.MaxNodes).
	Nodes uint64
	// Step is the plies between the positions tried (default 1); after a
	// failure the positions between the last proven one and it are tried.
	Step int
	// From, if above 1, is where the walk begins, in plies before the
	// end: the positions nearer the end are taken as proven (known from
	// a shorter limit, say) and not measured, nor tried after a failure.
	// FromLines gives a line its own From, by the line's name.
	From      int
	FromLines map[string]int
	// Load, if not nil, is read after each position and kept in its
	// record: the machine's load average, on a shared machine.
	Load func() float64
	// Settle, if not nil, settles each position instead of a solver of
	// this process, as dfpn.Solver.SolveFirst does: for example on a
	// broker's workers (broker.Settle). Via then says how, in each
	// record; HashMiB and Threads are what each of its searches has.
	Settle func(ctx context.Context, g *board.Game, first board.Side) (dfpn.Result, error)
	Via    string
}

// Record is one position measured.
type Record struct {
	Line   string `json:"line"`
	Before int    `json:"before"` // plies before the end of the line
	Ply    int    `json:"ply"`    // plies from the line's start
	// Proven: the result is settled within the limits (a win for a side,
	// or a draw).
	Proven  bool   `json:"proven"`
	Outcome string `json:"outcome"`          // for the side to move: win, loss, draw or unknown
	Winner  string `json:"winner,omitempty"` // South or North, when a side wins
	Plies   int    `json:"plies,omitempty"`  // the proof's longest line
	Nodes   uint64 `json:"nodes"`
	MS      int64  `json:"ms"`
	// Fill is the share of the table in use at the end.
	Fill float64 `json:"fill"`
	// Load is the machine's load average after the search (Config.Load).
	Load float64 `json:"load,omitempty"`
	// The measurement's settings.
	LimitMS    int64  `json:"limit_ms"`
	LimitNodes uint64 `json:"limit_nodes"`
	HashMiB    int    `json:"hash_mib"`
	Threads    int    `json:"threads"`
	// Via says how the positions were settled when not by a solver of
	// the measuring process (Config.Via), such as a broker's workers.
	Via string `json:"via,omitempty"`
}

// sameSettings reports whether r was measured with cfg's table and limits.
func (r *Record) sameSettings(cfg *Config) bool {
	return r.LimitMS == cfg.Time.Milliseconds() && r.LimitNodes == cfg.Nodes &&
		r.HashMiB == cfg.HashMiB && r.Threads == max(cfg.Threads, 1) && r.Via == cfg.Via
}

// Walker measures positions with one solver, its table emptied before
// each, or with Config.Settle.
type Walker struct {
	s   *dfpn.Solver // nil with Config.Settle
	cfg Config
}

// NewWalker returns a Walker with cfg's solver.
func NewWalker(cfg Config) (*Walker, error) {
	if cfg.Step < 0 || cfg.From < 0 {
		return nil, fmt.Errorf("frontier: step %d, from %d: want 1 or more", cfg.Step, cfg.From)
	}
	cfg.Threads = max(cfg.Threads, 1)
	cfg.Step = max(cfg.Step, 1)
	if cfg.Settle != nil {
		return &Walker{cfg: cfg}, nil
	}
	s, err := dfpn.New(dfpn.Config{HashMiB: cfg.HashMiB, Threads: cfg.Threads, MaxNodes: cfg.Nodes})
	if err != nil {
		return nil, err
	}
	return &Walker{s: s, cfg: cfg}, nil
}

// settle settles the game's position, first's win asked first.
func (w *Walker) settle(ctx context.Context, g *board.Game, first board.Side) (dfpn.Result, float64, error) {
	if w.cfg.Settle != nil {
		res, err := w.cfg.Settle(ctx, g, first)
		return res, 0, err
	}
	w.s.Clear()
	p := g.Position()
	res, err := w.s.SolveFirst(ctx, p, g.History(), first, nil)
	return res, w.s.Fill(), err
}

// Measure proves the position after l's first ply moves from an empty
// table, asking first for the win of the side the static evaluation
// favours (as sower solve does). A search stopped by the limits is a
// record that is not proven; one stopped because ctx ended returns ctx's
// error and no record.
func (w *Walker) Measure(ctx context.Context, l *Line, ply int) (Record, error) {
	g, err := l.Game(ply)
	if err != nil {
		return Record{}, err
	}
	p := g.Position()
	first := p.Side()
	if eval.New(p.Variant()).Evaluate(&p) < 0 {
		first = first.Other()
	}
	sctx := ctx
	if w.cfg.Time > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, w.cfg.Time)
		defer cancel()
	}
	res, fill, err := w.settle(sctx, g, first)
	if err != nil {
		if ctx.Err() != nil {
			return Record{}, ctx.Err()
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			return Record{}, fmt.Errorf("line %s, ply %d: %w", l.Name, ply, err)
		}
	}
	r := Record{
		Line: l.Name, Before: len(l.Moves) - ply, Ply: ply,
		Outcome: res.Outcome.String(), Nodes: res.Nodes, MS: res.Time.Milliseconds(), Fill: fill,
		LimitMS: w.cfg.Time.Milliseconds(), LimitNodes: w.cfg.Nodes, HashMiB: w.cfg.HashMiB, Threads: w.cfg.Threads, Via: w.cfg.Via,
	}
	if w.cfg.Load != nil {
		r.Load = w.cfg.Load()
	}
	if err != nil {
		r.Outcome = dfpn.Unknown.String() // the time ran out
		return r, nil
	}
	switch res.Outcome {
	case dfpn.Win, dfpn.Loss:
		r.Proven, r.Winner, r.Plies = true, res.Winner.String(), res.Plies
	case dfpn.Draw:
		r.Proven = true
	}
	return r, nil
}

// Walk measures l from its end back: the positions Step, 2·Step, … plies
// before the end (or From, From+Step, …), and the start last, until one
// is not proven; then, when Step is above one, the positions between the
// last proven one and it, from the nearer end, until one is not proven. done holds the positions
// of l already measured, by plies before the end: they are not measured
// again, and their records decide the walk as new ones do. Each new
// record is passed to emit before the walk goes on. Walk returns the
// records of the walk in its order; when ctx ends it returns those so far
// with ctx's error.
func (w *Walker) Walk(ctx context.Context, l *Line, done map[int]Record, emit func(Record) error) ([]Record, error) {
	var out []Record
	visit := func(before int) (bool, error) {
		r, ok := done[before]
		if !ok {
			var err error
			if r, err = w.Measure(ctx, l, len(l.Moves)-before); err != nil {
				return false, err
			}
			if err := emit(r); err != nil {
				return false, err
			}
		}
		out = append(out, r)
		return r.Proven, nil
	}
	n := len(l.Moves)
	proven := 0 // the farthest position proven by the walk, or taken as proven
	first := min(w.cfg.Step, n)
	from := w.cfg.From
	if f, ok := w.cfg.FromLines[l.Name]; ok {
		from = f
	}
	if from > 1 {
		proven, first = min(from, n)-1, min(from, n)
	}
	for before := first; before > proven; before = min(before+w.cfg.Step, n) {
		ok, err := visit(before)
		if err != nil {
			return out, err
		}
		if ok {
			proven = before
			continue
		}
		for between := proven + 1; between < before; between++ {
			if ok, err := visit(between); err != nil || !ok {
				return out, err
			}
		}
		break
	}
	return out, nil
}
