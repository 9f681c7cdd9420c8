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
	var depth, threads int
	fs := c.flags("bench", "[--depth N] [--threads N]")
	fs.IntVarP(&depth, "depth", "d", 0, "search every position to this depth instead of its default")
	fs.IntVar(&threads, "threads", 1, "search with N threads (the signature is defined with one)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if depth < 0 || depth >= search.MaxPly {
		return usagef("--depth %d: want 1 to %d", depth, search.MaxPly-1)
	}
	if threads < search.MinThreads || threads > search.MaxThreads {
		return usagef("--threads %d: want %d to %d", threads, search.MinThreads, search.MaxThreads)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return runBench(ctx, c.stdout, depth, threads)
}

// runBench runs the bench suite and writes a line per position with its
// time, then the signature, the time and the speed. The protocol's bench
// command writes the same lines. With more than one thread the node count
// is no signature, and a line says so.
func runBench(ctx context.Context, w io.Writer, depth, threads int) error {
	n, total := 0, len(bench.Positions())
	sum, err := bench.Run(ctx, depth, threads, func(r bench.CaseResult) {
		n++
		fmt.Fprintf(w, "%2d/%d %-9s depth %2d %-15s nodes %9d %7d ms  %s\n", n, total, r.Game, r.Depth, "bestmove "+r.Move.String(), r.Nodes, r.Time.Milliseconds(), r.FEN)
	})
	if err != nil {
		return err
	}
	if threads > 1 {
		fmt.Fprintf(w, "\nThreads: %d (the node count varies from run to run: the signature is that of one thread)\n", threads)
	}
	fmt.Fprintf(w, "\nNodes searched: %d\n", sum.Nodes)
	fmt.Fprintf(w, "Time (ms): %d\n", sum.Time.Milliseconds())
	fmt.Fprintf(w, "Nodes/second: %d\n", sum.NPS())
	return nil
}
