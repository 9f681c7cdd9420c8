package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search"
)

// HashMiB is the transposition table size of every bench search.
const HashMiB = 16

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

// Run searches every bench position to its depth (or to depth, if above
// zero) with a fresh table, one position at a time, with the given number
// of search threads, calling each with every result. The node count is a
// signature with one thread only: with more, it varies from run to run.
func Run(ctx context.Context, depth, threads int, each func(CaseResult)) (Summary, error) {
	var sum Summary
	eng, err := search.NewEngine(HashMiB)
	if err != nil {
		return sum, err
	}
	if err := eng.SetThreads(threads); err != nil {
		return sum, err
	}
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
		res, err := eng.Search(ctx, p, nil, search.Limits{Depth: c.Depth}, nil)
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
