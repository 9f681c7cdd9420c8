package gui

import "github.com/sower-engine/sower/board"

// sowingSteps returns the boards of a move's sowing for the page to
// animate: the hole lifted, then the position after the move. (The rules
// package makes a move whole, so the steps in between are not known
// here.)
func sowingSteps(before string, v *board.Variant, m board.Move) []step {
	p, err := v.ParsePosition(before)
	if err != nil || !m.IsHole() {
		return nil
	}
	var counts []int
	for _, h := range v.Holes() {
		n := p.Count(h)
		if h == m {
			n = 0
		}
		counts = append(counts, n)
	}
	return []step{{Kind: "lift", Hole: m.String(), Counts: counts, Capt: [2]int{p.Captured(board.South), p.Captured(board.North)}}}
}
