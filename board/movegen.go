package board

import (
	"fmt"
	"sort"
)

// GenerateMoves lists the candidate moves: every non-empty hole of the
// mover's back row (Katro) or own row (Hoyito III), in circuit order. A
// candidate is legal unless its sowing is endless, which only Play can tell.
// A Hoyito III player none of whose candidates is legal must pass; a Katro
// player with no legal candidate has lost. GenerateMoves lists nothing when
// a Hoyito III game is over (its board is empty).
func (p *Position) GenerateMoves(l *MoveList) {
	v := p.v
	l.N = 0
	if v.family == Hoyito {
		first := int(p.side) * v.cols
		for k := first; k < first+v.cols; k++ {
			if p.cells[0].get(k) != 0 {
				l.Add(v.holeAt[0][k])
			}
		}
		return
	}
	me := int(p.side)
	mine := &p.cells[me]
	for d := 0; d < v.depth; d++ {
		if m := &v.rowMask[d]; mine[0]&m[0]|mine[1]&m[1] == 0 {
			continue
		}
		for k := d * v.cols; k < (d+1)*v.cols; k++ {
			if mine.get(k) != 0 {
				l.Add(v.holeAt[me][k])
			}
		}
		return
	}
}

// LegalMoves lists the legal moves sorted by row, then column (the order of
// the rule book's examples): the candidates whose sowing ends, or Pass alone
// when a Hoyito III player has none. It is empty when the game is over by a
// rule the position alone decides (no Katro move, an empty Hoyito III board).
func (p *Position) LegalMoves() []Move {
	var l MoveList
	p.GenerateMoves(&l)
	legal := make([]Move, 0, l.N+1)
	for _, m := range l.Slice() {
		c := *p
		if c.Play(m) {
			legal = append(legal, m)
		}
	}
	if len(legal) == 0 && p.v.family == Hoyito && p.OnBoard() > 0 {
		legal = append(legal, Pass)
	}
	sort.Slice(legal, func(i, j int) bool { return legal[i] < legal[j] })
	return legal
}

// HasLegalMove reports whether the side to move has a legal move (a Hoyito
// III pass counts).
func (p *Position) HasLegalMove() bool {
	if p.v.family == Hoyito {
		return p.OnBoard() > 0
	}
	var l MoveList
	p.GenerateMoves(&l)
	for _, m := range l.Slice() {
		c := *p
		if c.Play(m) {
			return true
		}
	}
	return false
}

// CheckMove returns nil if m is legal here, or an error that says why not:
// "b1 is empty", "d4 is not in South's back row", "passing is not allowed in
// Katro", and so on. It does not look at the no-capture limit or repetition,
// which need the game's history (see Game).
func (p *Position) CheckMove(m Move) error {
	v := p.v
	if v.family == Hoyito && p.OnBoard() == 0 {
		return fmt.Errorf("%s: the game is over", m)
	}
	switch {
	case m == NoMove:
		return fmt.Errorf("no move given")
	case m == Pass && v.family == Katro:
		return fmt.Errorf("pass: passing is not allowed in Katro")
	case m == Pass:
		var l MoveList
		p.GenerateMoves(&l)
		for _, c := range l.Slice() {
			if q := *p; q.Play(c) {
				return fmt.Errorf("pass: %s has a legal move (%s) and may not pass", p.side, c)
			}
		}
		return nil
	case !v.OnBoard(m):
		return fmt.Errorf("%s is not on the %s board", m, v.name)
	}
	if v.family == Katro && !p.HasLegalMove() {
		return fmt.Errorf("%s: the game is over, %s has no legal move", m, p.side)
	}
	var l MoveList
	p.GenerateMoves(&l)
	inRow := false
	for _, c := range l.Slice() {
		inRow = inRow || c.Row() == m.Row()
	}
	if v.family == Hoyito {
		inRow = m.Row() == int(p.side)
	}
	if !inRow || v.Owner(m) != p.side {
		if v.family == Hoyito {
			return fmt.Errorf("%s is not in %s's row", m, p.side)
		}
		return fmt.Errorf("%s is not in %s's back row (row %d)", m, p.side, l.Moves[0].Row()+1)
	}
	if p.Count(m) == 0 {
		return fmt.Errorf("%s is empty", m)
	}
	if c := *p; !c.Play(m) {
		return fmt.Errorf("%s is endless: its sowing would not end within %d laps", m, MaxLaps)
	}
	return nil
}

// After returns the position after the legal move m, or an error from
// CheckMove. p is not changed.
func (p Position) After(m Move) (Position, error) {
	if err := p.CheckMove(m); err != nil {
		return p, err
	}
	p.Play(m)
	return p, nil
}
