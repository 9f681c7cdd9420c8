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
	set := bench.Settings{Engine: search.DefaultOptions()}
	fs := c.flags("bench", "[--depth N] [--hash MB] [--threads N] [--multipv N] [--eval auto|linear|net [--evalfile FILE] [--evallazy N]] [--cpuprofile FILE]")
	fs.IntVarP(&set.Depth, "depth", "d", 0, "search every position to this depth instead of its default")
	fs.IntVar(&set.Engine.HashMiB, "hash", search.DefaultHashMiB, "transposition table size in MiB")
	fs.IntVar(&set.Engine.Threads, "threads", search.DefaultThreads, "search with N threads (the signature is defined with one)")
	fs.IntVar(&set.MultiPV, "multipv", 1, "find the best N moves (the signature is defined with one)")
	ee := addEngineEvalFlags(fs, "auto")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the searches to FILE (go tool pprof)")
	if err := parse(fs, args); err != nil {
		return err
	}
	var err error
	if set.Engine.Nets, set.Engine.NetLazy, err = ee.load(); err != nil {
		return err
	}
	switch {
	case fs.Changed("depth") && (set.Depth < 1 || set.Depth >= search.MaxPly):
		return usagef("--depth %d: want 1 to %d", set.Depth, search.MaxPly-1)
	case set.Engine.Threads < search.MinThreads || set.Engine.Threads > search.MaxThreads:
		return usagef("--threads %d: want %d to %d", set.Engine.Threads, search.MinThreads, search.MaxThreads)
	case set.MultiPV < 1 || set.MultiPV > board.MaxMoves:
		return usagef("--multipv %d: want 1 to %d", set.MultiPV, board.MaxMoves)
	}
	if err := c.checkHash(set.Engine.HashMiB, search.CheckHashMemory); err != nil {
		return err
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
	if set.Engine.Threads > 1 {
		fmt.Fprintf(w, "\nThreads: %d (the node count varies from run to run: the signature is that of one thread)\n", set.Engine.Threads)
	}
	if set.MultiPV > 1 {
		fmt.Fprintf(w, "\nMultiPV: %d (not the signature, which is that of one line)\n", set.MultiPV)
	}
	if line := benchOptionsLine(set.Engine); line != "" {
		fmt.Fprintf(w, "\n%s\n", line)
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

// benchOptionsLine is the line that names, after a bench, the engine
// options other than the signature's besides the threads and the
// evaluation (which have lines of their own), by the protocol's names;
// "" when there are none.
func benchOptionsLine(o search.Options) string {
	def := search.DefaultOptions()
	var diff []string
	if o.HashMiB != def.HashMiB {
		diff = append(diff, fmt.Sprintf("Hash %d", o.HashMiB))
	}
	if o.Tables != nil {
		diff = append(diff, "TablePath (endgame tables)")
		if o.TableEstimate != def.TableEstimate {
			diff = append(diff, fmt.Sprintf("TableEstimate %t", o.TableEstimate))
		}
	}
	if o.Prover != def.Prover {
		diff = append(diff, fmt.Sprintf("Prover %t", o.Prover))
	}
	if o.ProverThread != def.ProverThread && o.Prover && o.Threads > 1 {
		diff = append(diff, fmt.Sprintf("ProverThread %t", o.ProverThread))
	}
	if len(diff) == 0 {
		return ""
	}
	return "Options: " + strings.Join(diff, ", ") + " (not the signature, which is that of the defaults)"
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
			if set.Engine.NetLazy > 0 {
				fmt.Fprintf(&b, ", lazy %d", set.Engine.NetLazy)
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
