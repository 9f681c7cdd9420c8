package board

import (
	"fmt"
	"strings"
)

// Diagram draws the position for people: South at the bottom, rows and
// columns labelled, empty holes as dots, a rule between the two halves,
// the capture totals (Hoyito III), the side to move and the clock.
//
//	     a  b  c  d
//	 4   2  3  1  4   North
//	 3   6  3  1  .
//	    ------------
//	 2   3  .  .  .
//	 1   1  4  1  3   South
//	     a  b  c  d
//	South to move, clock 0
func (p *Position) Diagram() string {
	v := p.v
	var b strings.Builder
	cols := func() {
		b.WriteString("    ")
		for c := 0; c < v.cols; c++ {
			fmt.Fprintf(&b, " %2c", 'a'+c)
		}
		b.WriteByte('\n')
	}
	cols()
	for r := v.rows - 1; r >= 0; r-- {
		fmt.Fprintf(&b, "%2d  ", r+1)
		for c := 0; c < v.cols; c++ {
			if n := p.Count(HoleMove(r, c)); n == 0 {
				b.WriteString("  .")
			} else {
				fmt.Fprintf(&b, " %2d", n)
			}
		}
		switch {
		case r == v.rows-1 && v.family == Hoyito:
			fmt.Fprintf(&b, "   North  captured %d", p.capt[North])
		case r == 0 && v.family == Hoyito:
			fmt.Fprintf(&b, "   South  captured %d", p.capt[South])
		case r == v.rows-1:
			fmt.Fprintf(&b, "   North  %d seeds", p.SeedsOf(North))
		case r == 0:
			fmt.Fprintf(&b, "   South  %d seeds", p.SeedsOf(South))
		}
		b.WriteByte('\n')
		if r == v.rows/2 && v.family == Katro {
			b.WriteString("    " + strings.Repeat("-", 3*v.cols+1) + "\n")
		}
	}
	cols()
	fmt.Fprintf(&b, "%s to move, clock %d", p.side, p.clock)
	if p.AfterPass() {
		b.WriteString(", after a pass")
	}
	b.WriteByte('\n')
	return b.String()
}
