package main

import (
	"fmt"
	"time"
)

func (c *cli) perft(args []string) error {
	var g gameFlags
	var depth int
	var divide bool
	fs := c.flags("perft", `--game G --depth N [--fen F] [--moves "…"] [--divide]`)
	g.add(fs, true)
	fs.MarkHidden("no-capture-limit") // refused below: perft ignores the limit
	fs.MarkHidden("repetition")       // and repetition
	fs.IntVarP(&depth, "depth", "d", 0, "plies to count (required, 0-64)")
	fs.BoolVar(&divide, "divide", false, "print each legal move with the count below it")
	if err := parse(fs, args); err != nil {
		return err
	}
	if !fs.Changed("depth") {
		return usagef("--depth is required")
	}
	if fs.Changed("no-capture-limit") {
		return usagef("--no-capture-limit: perft ignores the no-capture limit (rule book section 5)")
	}
	if fs.Changed("repetition") {
		return usagef("--repetition: perft ignores repetition (rule book section 5)")
	}
	if depth < 0 || depth > 64 {
		return usagef("--depth %d: want 0 to 64", depth)
	}
	// The position itself, not a game's: perft ignores the no-capture limit
	// and repetition (rule book section 5), which end a game. --moves are
	// played on it likewise.
	p, err := g.position()
	if err != nil {
		return err
	}
	ms, err := p.Variant().ParseMoves(g.moves)
	if err != nil {
		return usagef("--moves: %v", err)
	}
	for i, m := range ms {
		if p, err = p.After(m); err != nil {
			return usagef("--moves: move %d: %v", i+1, err)
		}
	}
	start := time.Now()
	var nodes uint64
	if divide && depth > 0 {
		for _, e := range p.Divide(depth) {
			fmt.Fprintf(c.stdout, "%s %d\n", e.Move, e.Nodes)
			nodes += e.Nodes
		}
	} else {
		nodes = p.Perft(depth)
	}
	elapsed := time.Since(start)
	fmt.Fprintf(c.stdout, "nodes %d\n", nodes)
	fmt.Fprintf(c.stderr, "perft: time %d ms, %.0f nodes/s\n", elapsed.Milliseconds(), float64(nodes)/max(elapsed.Seconds(), 1e-9))
	return nil
}
