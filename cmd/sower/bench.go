package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/sower-engine/sower/bench"
	"github.com/sower-engine/sower/search"
)

func (c *cli) bench(args []string) error {
	var depth int
	fs := c.flags("bench", "[--depth N]")
	fs.IntVarP(&depth, "depth", "d", 0, "search every position to this depth instead of its default")
	if err := parse(fs, args); err != nil {
		return err
	}
	if depth < 0 || depth >= search.MaxPly {
		return usagef("--depth %d: want 1 to %d", depth, search.MaxPly-1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return runBench(ctx, c.stdout, depth)
}

// runBench runs the bench suite and writes a line per position, then the
// signature, the time and the speed. The protocol's bench command writes
// the same lines.
func runBench(ctx context.Context, w io.Writer, depth int) error {
	n, total := 0, len(bench.Positions())
	sum, err := bench.Run(ctx, depth, func(r bench.CaseResult) {
		n++
		fmt.Fprintf(w, "%2d/%d %-9s depth %2d %-15s nodes %9d  %s\n", n, total, r.Game, r.Depth, "bestmove "+r.Move.String(), r.Nodes, r.FEN)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nNodes searched: %d\n", sum.Nodes)
	fmt.Fprintf(w, "Time (ms): %d\n", sum.Time.Milliseconds())
	fmt.Fprintf(w, "Nodes/second: %d\n", sum.NPS())
	return nil
}
