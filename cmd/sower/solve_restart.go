package main

import (
	"context"
	"fmt"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// solveRounds is SolveFirst, in rounds of every nodes a question when
// every is not 0 (--restart): a round that runs out of nodes with the root
// still open drops from the table what a saved table would not hold
// (dfpn.Solver.Collect), and the next round starts again from the root.
// That is what a --save and a --resume of the same table do, without the
// file and the minutes of writing and reading it; in the long proofs of
// katro-4x6 the search went on faster after each resume (docs/dfpn.md).
// The result counts the nodes and time of all the rounds.
func (c *cli) solveRounds(ctx context.Context, s *dfpn.Solver, game *board.Game, first board.Side, every uint64) (dfpn.Result, error) {
	p, history := game.Position(), game.History()
	if every == 0 {
		return s.SolveFirst(ctx, p, history, first, c.dfpnProgress(""))
	}
	s.SetMaxNodes(every)
	start := time.Now()
	var before uint64
	for round := 1; ; round++ {
		since := time.Since(start)
		report := c.dfpnProgress("")
		res, err := s.SolveFirst(ctx, p, history, first, func(pr dfpn.Progress) {
			pr.Nodes += before
			pr.Time += since
			report(pr)
		})
		before += res.Nodes
		res.Nodes, res.Time = before, time.Since(start)
		if err != nil || !res.OutOfNodes {
			return res, err
		}
		kept := s.Collect()
		fmt.Fprintf(c.stderr, "solve: round %d ended at %d nodes with the root open: back to the root, %d entries kept (the table %.1f%% full)\n",
			round, before, kept, 100*s.Fill())
	}
}
