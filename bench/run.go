package bench

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
	"github.com/sower-engine/sower/search"
)

// CaseResult is the outcome of one bench search.
type CaseResult struct {
	Case
	Move  board.Move
	Nodes uint64
	Time  time.Duration
}

// Summary totals a bench run. Nodes is the signature: it changes only when
// search or evaluation behaviour changes.
type Summary struct {
	Nodes uint64
	Time  time.Duration
}

// NPS returns the nodes searched per second.
func (s Summary) NPS() uint64 {
	if s.Time <= 0 {
		return 0
	}
	return uint64(float64(s.Nodes) / s.Time.Seconds())
}

// Settings change how Run searches; DefaultSettings give the signature.
type Settings struct {
	Depth   int // search every position to this depth instead of its own, if above 0
	MultiPV int // lines to find (0 or 1: one)
	// Engine configures the engine (search.NewEngineWith): the
	// signature's is search.DefaultOptions with each family's default
	// network. With more than one thread the node count varies from run
	// to run.
	Engine search.Options
}

// DefaultSettings returns the Settings of the signature: the engine's
// defaults (search.DefaultOptions: one thread, a table of
// search.DefaultHashMiB) with each family's default evaluation
// (nnue.Default: Hoyito III's network, the linear evaluation in Katro),
// one line, each position to its own depth, as the protocol plays by
// default.
func DefaultSettings() (Settings, error) {
	set := Settings{Engine: search.DefaultOptions()}
	for _, f := range []board.Family{board.Katro, board.Hoyito} {
		n, err := nnue.Default(f)
		if err != nil {
			return Settings{}, err
		}
		if n != nil {
			set.Engine.Nets = append(set.Engine.Nets, n)
		}
	}
	return set, nil
}

// SameEval reports whether s and t evaluate every family alike: the same
// networks (compared by their files' bytes) for the same families, and,
// where a network plays, the same lazy margin.
func (s Settings) SameEval(t Settings) (bool, error) {
	for _, f := range []board.Family{board.Katro, board.Hoyito} {
		a, b := s.Net(f), t.Net(f)
		if (a == nil) != (b == nil) {
			return false, nil
		}
		if a == nil {
			continue
		}
		if s.Engine.NetLazy != t.Engine.NetLazy {
			return false, nil
		}
		ab, err := a.AppendBinary(nil)
		if err != nil {
			return false, err
		}
		bb, err := b.AppendBinary(nil)
		if err != nil {
			return false, err
		}
		if !bytes.Equal(ab, bb) {
			return false, nil
		}
	}
	return true, nil
}

// Net returns the network s searches family f with, or nil for the
// linear evaluation.
func (s Settings) Net(f board.Family) *nnue.Net {
	for _, n := range s.Engine.Nets {
		if n.Family == f {
			return n
		}
	}
	return nil
}

// Run searches every bench position to its depth with a fresh table, one
// position at a time, as set, calling each with every result. The node
// count is the signature with DefaultSettings.
func Run(ctx context.Context, set Settings, each func(CaseResult)) (Summary, error) {
	var sum Summary
	eng, err := search.NewEngineWith(set.Engine)
	if err != nil {
		return sum, err
	}
	depth := set.Depth
	for _, c := range Positions() {
		if depth > 0 {
			c.Depth = depth
		}
		v, err := board.New(c.Game)
		if err != nil {
			return sum, err
		}
		p, err := v.ParsePosition(c.FEN)
		if err != nil {
			return sum, fmt.Errorf("bench position %q: %w", c.FEN, err)
		}
		eng.ClearHash()
		res, err := eng.Search(ctx, p, nil, search.Limits{Depth: c.Depth, MultiPV: set.MultiPV}, nil)
		if err != nil {
			return sum, err
		}
		if ctx.Err() != nil {
			return sum, ctx.Err()
		}
		r := CaseResult{Case: c, Move: res.Move, Nodes: res.Info.Nodes, Time: res.Info.Time}
		sum.Nodes += r.Nodes
		sum.Time += r.Time
		if each != nil {
			each(r)
		}
	}
	return sum, nil
}
