package review

import (
	"fmt"
	"io"
	"strings"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
)

// Write prints the review as text: a line per ply reviewed (the ply, who
// played what, its mark, the score after it from South's view, what it
// lost, and for an inaccuracy, a mistake or a blunder the better move and
// its line), then each side's counts under the names of its players.
func (r *Result) Write(w io.Writer, south, north string) error {
	var b strings.Builder
	p := r.Game.Start()
	f := p.Variant().Family()
	fmt.Fprintf(&b, "%4s  %-6s %-10s  %-22s  %-12s  %s\n", "ply", "move", "mark", "after (South's view)", "lost", "better")
	for i, pr := range r.Plies {
		m := r.Game.Moves()[i]
		better := ""
		if pr.Best != "" {
			better = pr.Best + " (" + strings.Join(pr.Line, " ") + ")"
		}
		line := fmt.Sprintf("%4d  %s %-4s %-10s  %-22s  %-12s  %s", i+1, string(p.Side().Letter()), m, pr.Mark, scoreText(f, &pr, r.Game, i), lossText(f, pr.Loss), better)
		b.WriteString(strings.TrimRight(line, " ") + "\n")
		p, _ = p.After(m)
	}
	if !r.Complete() {
		fmt.Fprintf(&b, "(stopped: %d of the %d plies reviewed)\n", len(r.Plies), len(r.Game.Moves()))
	}
	counts := r.Counts()
	for _, s := range []board.Side{board.South, board.North} {
		name := south
		if s == board.North {
			name = north
		}
		c := counts[s]
		fmt.Fprintf(&b, "%s (%s): %d best, %d good, %d inaccuracies, %d mistakes, %d blunders\n",
			s, name, c[Best], c[Good], c[Inaccuracy], c[Mistake], c[Blunder])
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// scoreText writes the score after ply i from South's view: Katro in the
// evaluation's unit ("+0.35"), "#3" for a win in 3 moves (#-3 for North),
// the result after the game's last move; Hoyito III in seeds of margin.
// A proven score says so.
func scoreText(f board.Family, pr *record.MoveReview, g *board.Game, i int) string {
	proven := ""
	if pr.Proven {
		proven = ", proven"
	}
	switch {
	case pr.Mate != nil:
		return fmt.Sprintf("#%d", *pr.Mate)
	case pr.CP == nil && i == len(g.Moves())-1:
		st := g.Status()
		if w, ok := st.Result.Winner(); ok {
			return w.String() + " won"
		}
		return "draw"
	case pr.CP == nil:
		return ""
	case f == board.Hoyito:
		return fmt.Sprintf("%+.2f seeds%s", float64(*pr.CP)/100, proven)
	}
	return fmt.Sprintf("%+.2f%s", float64(*pr.CP)/100, proven)
}

// lossText writes a loss: Katro in points of expected score, Hoyito III in
// seeds; nothing for none.
func lossText(f board.Family, loss float64) string {
	switch {
	case loss == 0:
		return ""
	case f == board.Hoyito:
		return fmt.Sprintf("%.2f seeds", loss)
	}
	return fmt.Sprintf("%.1f points", 100*loss)
}
