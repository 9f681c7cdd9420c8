package main

import (
	"fmt"
	"io"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
)

// writeEval prints the evaluation's terms, one line each, and the total.
func writeEval(w io.Writer, e *eval.Evaluator, p *board.Position) {
	fmt.Fprintf(w, "%-10s %6s %6s %7s %7s\n", "term", "South", "North", "weight", "score")
	total := 0
	for _, t := range e.Breakdown(p) {
		fmt.Fprintf(w, "%-10s %6d %6d %7d %7d\n", t.Name, t.South, t.North, t.Weight, t.Score)
		total += t.Score
	}
	fmt.Fprintf(w, "total %d for %s, the side to move (hundredths of a seed)\n", total, p.Side())
}
