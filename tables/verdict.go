package tables

import (
	"cmp"
	"slices"

	"github.com/sower-engine/sower/board"
)

// CaptureMargin returns the side to move's captures minus the opponent's:
// what turns the tables' board margins (the seeds still on the board)
// into final margins.
func CaptureMargin(p *board.Position) int {
	return p.Captured(p.Side()) - p.Captured(p.Side().Other())
}

// Verdict is what the tables say of one legal move, in final margins
// (captures included) from the mover's view.
type Verdict struct {
	Move board.Move
	// Lo and Hi are the bounds of the final margin after the move, under
	// either repetition rule; DistLo and DistHi as in MoveValue.
	Lo, Hi         int
	DistLo, DistHi int
	// Margin is the exact final margin under Repetition off at the
	// position's clock; HasMargin says whether the set knows it (it was
	// built for a no-capture limit).
	Margin    int
	HasMargin bool
	// Exact says the result is exact under the position's own rules:
	// Margin under Repetition off, Lo == Hi under threefold.
	Exact bool
	// Best marks the moves that keep the position's value under its
	// rules: the margin under Repetition off (when the set knows it), the
	// bounds otherwise (MoveValue's KeepsValue and Keeps).
	Best bool
}

// Verdicts returns every legal move of p with its verdict, best first for
// the side to move under p's rules: under Repetition off by the exact
// margin, under threefold by the bounds (the moves that keep them, then
// Lo, then Hi), with the Repetition off margin breaking ties; moves still
// level keep their legal order. It fails with ErrNotInTables as Moves
// does.
func (t *Tables) Verdicts(p *board.Position) ([]Verdict, error) {
	_, ms, err := t.Moves(p)
	if err != nil {
		return nil, err
	}
	off := p.Variant().Rules().Repetition == board.RepetitionOff
	useMargin := off && t.HasValues()
	cur := CaptureMargin(p)
	out := make([]Verdict, len(ms))
	for i, m := range ms {
		out[i] = Verdict{Move: m.Move, Lo: cur + m.Entry.Lo, Hi: cur + m.Entry.Hi,
			DistLo: m.Entry.DistLo, DistHi: m.Entry.DistHi,
			Margin: cur + m.Value, HasMargin: t.HasValues(),
			Exact: useMargin || m.Entry.Lo == m.Entry.Hi, Best: m.Keeps}
		if useMargin {
			out[i].Best = m.KeepsValue
		}
	}
	slices.SortStableFunc(out, func(a, b Verdict) int {
		if useMargin {
			return cmp.Compare(b.Margin, a.Margin)
		}
		return cmp.Or(compareBool(b.Best, a.Best), cmp.Compare(b.Lo, a.Lo), cmp.Compare(b.Hi, a.Hi), cmp.Compare(b.Margin, a.Margin))
	})
	return out, nil
}

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
