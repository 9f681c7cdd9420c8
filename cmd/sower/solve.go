package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search"
)

func (c *cli) solve(args []string) error {
	var g gameFlags
	var o solveFlags
	fs := c.flags("solve", `[--game G] [--fen F] [--moves "…"] [--method ab|dfpn] [--tables DIR] [--hash MB] [--depth N] [--proof FILE] [--threads N] [--save FILE] [--resume FILE] [--first SIDE] [--each [--each-nodes N] [--walk N]] [--split FILE [--split-nodes N] [--split-steps N]] [--split FILE --broker URL [--tasks N] [--run-id ID] [--ack-wait MS] [--pieces DIR] [--trust-disproofs]]`)
	g.add(fs, true)
	o.add(fs)
	o.brk = addProofBrokerFlags(fs, c.stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	game, err := g.build()
	if err != nil {
		return err
	}
	p := game.Position()
	if err := o.check(c, p.Variant()); err != nil {
		return err
	}
	if o.method == methodDfpn {
		return c.solveDfpn(game, o)
	}
	tdir, hash, depth := o.tables, o.hash, o.depth
	cfg := search.SolveConfig{History: game.History(), HashMiB: hash, MaxDepth: depth, Progress: func(i search.SolveInfo) {
		fmt.Fprintf(c.stderr, "solve: depth %d, %d nodes, %s, bounds %d %d so far\n", i.Depth, i.Nodes, i.Time.Round(time.Second), i.Lo, i.Hi)
	}}
	if tdir != "" {
		tb, err := openTables(tdir, p.Variant())
		if err != nil {
			return err
		}
		defer tb.Close()
		cfg.Tables = tb
		fmt.Fprintf(c.stdout, "tables %s: %s, up to %d seeds\n", tdir, tb.Options(), tb.Top())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Fprintf(c.stdout, "solving %s (%s to move; values from its view: %s)\n", p.String(), p.Side(), valueUnit(p.Variant()))
	res, err := search.Solve(ctx, p, cfg, func(i search.SolveInfo) {
		fmt.Fprintf(c.stdout, "bounds %d %d depth %d nodes %d time %d\n", i.Lo, i.Hi, i.Depth, i.Nodes, i.Time.Milliseconds())
	})
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	fmt.Fprintf(c.stdout, "pv %s\n", board.FormatMoves(res.PV))
	switch {
	case res.Lo == res.Hi:
		fmt.Fprintf(c.stdout, "solved: %s, depth %d, %d nodes, %d ms\n", verdict(p.Variant(), res.Lo), res.Depth, res.Nodes, res.Time.Milliseconds())
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(c.stdout, "interrupted: proven bounds %d %d at depth %d, %d nodes, %d ms%s\n", res.Lo, res.Hi, res.Depth, res.Nodes, res.Time.Milliseconds(), boundsResult(res.Lo, res.Hi))
		return interruptedf("at depth %d: the bounds proven so far are shown", res.Depth)
	default:
		fmt.Fprintf(c.stdout, "not solved: proven bounds %d %d at depth %d, %d nodes, %d ms%s\n", res.Lo, res.Hi, res.Depth, res.Nodes, res.Time.Milliseconds(), boundsResult(res.Lo, res.Hi))
	}
	return nil
}

// valueUnit says what a solver value means in the variant.
func valueUnit(v *board.Variant) string {
	if v.Family() == board.Hoyito {
		return "the final seed margin"
	}
	return "1 a win, 0 a draw, -1 a loss"
}

// boundsResult words the result that proven bounds lo ≤ value ≤ hi
// decide although the value is not known: a win when lo is above 0, a
// loss when hi is below 0, with the forecast the protocol's UCI_ShowWDL
// gives a proven result; "" when they leave the result open.
func boundsResult(lo, hi int) string {
	switch {
	case lo > 0:
		return "; a certain win for the side to move (wdl 1000 0 0)"
	case hi < 0:
		return "; a certain loss for the side to move (wdl 0 0 1000)"
	}
	return ""
}

// verdict words an exact value.
func verdict(v *board.Variant, val int) string {
	if v.Family() == board.Hoyito {
		return fmt.Sprintf("value %+d (final seed margin for the side to move)", val)
	}
	switch val {
	case 1:
		return "a win for the side to move"
	case -1:
		return "a loss for the side to move"
	}
	return "a draw"
}
