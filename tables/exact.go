package tables

import "github.com/sower-engine/sower/board"

// ExactMargin returns the final margin of p (captures included, from the
// side to move's view) under p's own rules, and whether the tables know it
// exactly: p is in the tables, the set serves p's rules (Fits, the
// no-capture limit included), and either the rules have Repetition off
// (the value at p's clock; a set built for a limit) or the bounds meet and
// the no-capture clock leaves time for their distances (as the search uses
// them). A set built without a limit knows no value under Repetition off.
//
// Under threefold repetition a position met twice since the last capture
// could meet the forcing play a third time; the search watches its game's
// history for that, which p alone does not carry, so a caller that has no
// history accepts that rare case.
func (t *Tables) ExactMargin(p *board.Position) (int, bool) {
	v := p.Variant()
	if !t.Fits(v) || p.OnBoard() < 8 || p.OnBoard() > t.top {
		return 0, false
	}
	cur := CaptureMargin(p)
	if v.Rules().Repetition == board.RepetitionOff {
		val, ok := t.Value(p)
		return cur + val, ok
	}
	e, ok := t.Probe(p)
	if !ok || e.Lo != e.Hi {
		return 0, false
	}
	left := 1 << 30
	if limit := v.Rules().NoCaptureLimit; limit > 0 {
		left = limit - p.Clock()
	}
	n := p.OnBoard()
	if (e.DistLo > left && e.Lo != -n) || (e.DistHi > left && e.Hi != n) {
		return 0, false
	}
	return cur + e.Lo, true
}
