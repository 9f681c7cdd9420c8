package tables

import (
	"errors"

	"github.com/sower-engine/sower/board"
)

// MoveValue is a legal move and the bounds it leads to, from the mover's
// view, with the distances counted from before the move.
type MoveValue struct {
	Move  board.Move
	Entry Entry
	// Keeps is true for the moves that keep the position's value: they
	// secure Lo at its distance (so repeating them cannot cycle), and
	// when the position is exact they are exactly its best moves.
	Keeps bool
	// Value is the move's exact value under Repetition off, from the
	// mover's view, at the position's clock (the child's clock is one more,
	// or 0 after a capture); KeepsValue is true for the moves whose Value
	// is the position's. Both are unset for a set without a limit.
	Value      int
	KeepsValue bool
}

// ErrNotInTables is returned for a position the tables do not hold.
var ErrNotInTables = errors.New("position is not in the tables")

// Moves returns the position's entry and every legal move with the bounds
// it leads to. It is meant for analysis and the root of a search (it
// allocates); inside a search use Probe.
func (t *Tables) Moves(p *board.Position) (Entry, []MoveValue, error) {
	e, ok := t.Probe(p)
	if !ok || !t.Fits(p.Variant()) {
		return e, nil, ErrNotInTables
	}
	me, n := p.Side(), p.OnBoard()
	cur := p.Captured(me) - p.Captured(me.Other())
	pv, hasValue := t.Value(p)
	var out []MoveValue
	for _, m := range p.LegalMoves() {
		c := *p
		c.Play(m)
		gain := c.Captured(me) - p.Captured(me) - (c.Captured(me.Other()) - p.Captured(me.Other()))
		var v Entry
		var value int
		switch {
		case c.OnBoard() == 0 || (m == board.Pass && mustPass(&c)):
			// The game ends with this move, or with the pass the opponent
			// must answer with a pass, each keeping their row.
			end, dist := c, 1
			if end.OnBoard() > 0 {
				end.Play(board.Pass)
				dist = 2
			}
			value = end.Ending(false, board.SomeMoves).Margin(me) - cur
			v = Entry{Lo: value, Hi: value, DistLo: dist, DistHi: dist}
		case c.Side() == me: // a capture: the layer below
			k, ok := t.Probe(&c)
			if !ok {
				return e, nil, ErrNotInTables
			}
			v = Entry{Lo: gain + k.Lo, Hi: gain + k.Hi, DistLo: 1, DistHi: 1}
			cv, _ := t.Value(&c)
			value = gain + cv
		default:
			k, ok := t.Probe(&c)
			if !ok {
				return e, nil, ErrNotInTables
			}
			cv, _ := t.Value(&c)
			value = -cv
			v = Entry{Lo: -k.Hi, Hi: -k.Lo, DistLo: k.DistHi + 1, DistHi: k.DistLo + 1}
			if v.Lo == -n {
				v.DistLo = 0
			}
			if v.Hi == n {
				v.DistHi = 0
			}
		}
		keeps := v.Lo == e.Lo && (e.DistLo == 0 || v.DistLo == e.DistLo)
		mv := MoveValue{Move: m, Entry: v, Keeps: keeps}
		if hasValue {
			mv.Value, mv.KeepsValue = value, value == pv
		}
		out = append(out, mv)
	}
	return e, out, nil
}

// mustPass reports whether the side to move has no legal move but a pass.
func mustPass(p *board.Position) bool {
	l := p.LegalMoves()
	return len(l) == 1 && l[0] == board.Pass
}
