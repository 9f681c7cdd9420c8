package protocol

import (
	"fmt"
	"io"
	"strings"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
	"github.com/sower-engine/sower/eval/nnue"
)

// WriteNetEval writes what "eval" and the command line's eval print when
// the evaluation is network n (source names it: "the built-in
// hoyito3.nnue", "file x.nnue"): which network and the boards it was
// trained for, its win/draw/loss model, a picture of the board with each
// non-empty hole's effect on the score (the score less the score with
// that hole's seeds taken away, for South), then the network's score for
// the side to move and for South beside the linear evaluation's (linear).
// When n does not evaluate p's board (a Katro network trained on other
// boards) it says so and writes the linear evaluation term by term, which
// the search then plays with.
func WriteNetEval(w io.Writer, n *nnue.Net, source string, p *board.Position, linear *eval.Evaluator) error {
	v := p.Variant()
	var b strings.Builder
	fmt.Fprintf(&b, "network: %s, a %s network for %s\n", source, n.Family, NetBoards(n))
	if d, _, _ := strings.Cut(n.Description, "\n"); d != "" {
		fmt.Fprintf(&b, "made by: %s\n", d)
	}
	if !n.Evaluates(v) {
		fmt.Fprintf(&b, "the network does not evaluate %s: the search plays it with the linear evaluation\n", v.Name())
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
		return WriteEval(w, linear, p)
	}
	if n.WDL.K > 0 {
		fmt.Fprintf(&b, "wdl model: %s (the network's own)\n", describeWDL(n.WDL))
	} else {
		fmt.Fprintf(&b, "wdl model: %s (none recorded: the linear evaluation's)\n", describeWDL(eval.BuiltinWDL(v.Family())))
	}
	m, err := nnue.NewModel(n, v)
	if err != nil {
		return err
	}
	score, holes := m.Explain(p)
	sign := 1
	if p.Side() == board.North {
		sign = -1
	}
	effect := make(map[board.Move]int, len(holes))
	for _, h := range holes {
		effect[h.Hole] = sign * h.Effect
	}
	b.WriteString("effect of each hole's seeds on the score, for South (the score less the score without them):\n")
	writeHoleGrid(&b, v, effect)
	lin := linear.Evaluate(p)
	fmt.Fprintf(&b, "network %d for %s, the side to move; %d for South (hundredths of a seed)\n", score, p.Side(), sign*score)
	fmt.Fprintf(&b, "linear  %d for %s, the side to move; %d for South\n", lin, p.Side(), sign*lin)
	_, err = io.WriteString(w, b.String())
	return err
}

// writeHoleGrid writes one number per hole, laid out as the diagram lays
// out the board (the top row first); an empty hole is a dot.
func writeHoleGrid(b *strings.Builder, v *board.Variant, effect map[board.Move]int) {
	cols := func() {
		b.WriteString("    ")
		for c := 0; c < v.Cols(); c++ {
			fmt.Fprintf(b, "%6c", 'a'+c)
		}
		b.WriteByte('\n')
	}
	cols()
	for r := v.Rows(); r >= 1; r-- {
		fmt.Fprintf(b, "%3d ", r)
		for c := 0; c < v.Cols(); c++ {
			m, err := v.ParseMove(fmt.Sprintf("%c%d", 'a'+c, r))
			if e, ok := effect[m]; ok && err == nil {
				fmt.Fprintf(b, "%+6d", e)
			} else {
				b.WriteString("     .")
			}
		}
		b.WriteByte('\n')
		if v.Family() == board.Katro && r == v.Rows()/2+1 {
			b.WriteString("    " + strings.Repeat("-", 6*v.Cols()) + "\n")
		}
	}
	cols()
}

// NetBoards names the boards n was trained for: "every board", or their
// names separated by commas.
func NetBoards(n *nnue.Net) string {
	if n.Boards == 0 {
		return "every board"
	}
	var names []string
	for _, name := range board.Names() {
		v, err := board.New(name)
		if err != nil || v.Family() != n.Family {
			continue
		}
		if bit, err := nnue.BoardBit(v); err == nil && n.Boards&bit != 0 {
			names = append(names, name)
		}
	}
	return strings.Join(names, ", ")
}

// describeWDL names a win/draw/loss model's numbers: its K and band, and
// whether its table gives the forecasts.
func describeWDL(m eval.WDLModel) string {
	d := fmt.Sprintf("K %.6f, band %.1f", m.K, m.Band)
	if !m.Table.Empty() {
		d += ", forecast by its table"
	}
	return d
}
