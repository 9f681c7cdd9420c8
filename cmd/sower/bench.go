package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"

	"github.com/sower-engine/sower/bench"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol"
	"github.com/sower-engine/sower/search"
)

func (c *cli) bench(args []string) error {
	var set bench.Settings
	fs := c.flags("bench", "[--depth N] [--threads N] [--multipv N] [--eval auto|linear|net [--evalfile FILE] [--evallazy N]] [--cpuprofile FILE]")
	fs.IntVarP(&set.Depth, "depth", "d", 0, "search every position to this depth instead of its default")
	fs.IntVar(&set.Threads, "threads", 1, "search with N threads (the signature is defined with one)")
	fs.IntVar(&set.MultiPV, "multipv", 1, "find the best N moves (the signature is defined with one)")
	ee := addEngineEvalFlags(fs, "auto")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the searches to FILE (go tool pprof)")
	if err := parse(fs, args); err != nil {
		return err
	}
	nets, lazy, err := ee.load()
	if err != nil {
		return err
	}
	switch {
	case fs.Changed("depth") && (set.Depth < 1 || set.Depth >= search.MaxPly):
		return usagef("--depth %d: want 1 to %d", set.Depth, search.MaxPly-1)
	case set.Threads < search.MinThreads || set.Threads > search.MaxThreads:
		return usagef("--threads %d: want %d to %d", set.Threads, search.MinThreads, search.MaxThreads)
	case set.MultiPV < 1 || set.MultiPV > board.MaxMoves:
		return usagef("--multipv %d: want 1 to %d", set.MultiPV, board.MaxMoves)
	}
	set.Nets, set.NetLazy = nets, lazy
	if nets == nil {
		set.NetLazy = 0 // the linear evaluation's search is the same with any margin
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			return flagError("--cpuprofile", err) // found before any search: a usage error
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("--cpuprofile %s: %w", *profile, err)
		}
		defer pprof.StopCPUProfile()
	}
	err = runBench(ctx, c.stdout, set)
	if errors.Is(err, context.Canceled) {
		return interruptedf("")
	}
	return err
}

// runBench runs the bench suite and writes a line per position with its
// time, then the signature, the time and the speed. The protocol's bench
// command writes the same lines. With more than one thread or line the
// node count is no signature, and a line says so.
func runBench(ctx context.Context, w io.Writer, set bench.Settings) error {
	n, total := 0, len(bench.Positions())
	sum, err := bench.Run(ctx, set, func(r bench.CaseResult) {
		n++
		fmt.Fprintf(w, "%2d/%d %-9s depth %2d %-15s nodes %9d %7d ms  %s\n", n, total, r.Game, r.Depth, "bestmove "+r.Move.String(), r.Nodes, r.Time.Milliseconds(), r.FEN)
	})
	if err != nil {
		return err
	}
	if set.Threads > 1 {
		fmt.Fprintf(w, "\nThreads: %d (the node count varies from run to run: the signature is that of one thread)\n", set.Threads)
	}
	if set.MultiPV > 1 {
		fmt.Fprintf(w, "\nMultiPV: %d (not the signature, which is that of one line)\n", set.MultiPV)
	}
	line, err := benchEvalLine(set)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\n", line)
	fmt.Fprintf(w, "\nNodes searched: %d\n", sum.Nodes)
	fmt.Fprintf(w, "Time (ms): %d\n", sum.Time.Milliseconds())
	fmt.Fprintf(w, "Nodes/second: %d\n", sum.NPS())
	return nil
}

// benchEvalLine is the line that says, after a bench, which evaluation
// each family was searched with and, when it is not each family's
// default, that the node count is not the signature.
func benchEvalLine(set bench.Settings) (string, error) {
	var b strings.Builder
	b.WriteString("Eval:")
	for i, f := range []board.Family{board.Katro, board.Hoyito} {
		if i > 0 {
			b.WriteByte(';')
		}
		fmt.Fprintf(&b, " %s: ", f)
		if n := set.Net(f); n != nil {
			fmt.Fprintf(&b, "a network for %s", protocol.NetBoards(n))
			if set.NetLazy > 0 {
				fmt.Fprintf(&b, ", lazy %d", set.NetLazy)
			}
		} else {
			b.WriteString("the linear evaluation")
		}
	}
	def, err := bench.DefaultSettings()
	if err != nil {
		return "", err
	}
	same, err := set.SameEval(def)
	if err != nil {
		return "", err
	}
	if !same {
		b.WriteString(" (not the signature, which is that of each game's default evaluation, --eval auto)")
	}
	return b.String(), nil
}
