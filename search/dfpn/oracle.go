package dfpn

import (
	"context"
	"iter"

	"github.com/sower-engine/sower/board"
)

// WinningMove returns a move that keeps winner's proven win at p, where
// winner is to move, and the plies in which the proof wins after it. It
// reads the table, and proves p again when the table no longer holds what
// it needs (an entry replaced); false means p is not a win for its side to
// move. The moves it returns have proofs strictly shorter than p's, so
// following them never repeats a position.
func (s *Solver) WinningMove(ctx context.Context, p *board.Position) (board.Move, int, bool) {
	for try := 0; try < 2; try++ {
		if m, d, ok := s.provenChild(p, true); ok {
			return m, d, true
		}
		if r, err := s.Prove(ctx, *p, nil, p.Side(), nil); err != nil || r.pn != 0 {
			return board.NoMove, 0, false
		}
	}
	return board.NoMove, 0, false
}

// LongestDefence returns, at p where the loser is to move and winner's win
// is proven, the move that delays the loss longest along the proof, and
// that proof's plies; false when the table holds no proof of every move.
func (s *Solver) LongestDefence(p *board.Position) (board.Move, int, bool) {
	return s.provenChild(p, false)
}

// provenChild looks the children of p up in the table for the attacker
// being the side to move (winner) or the other side: the proven child with
// the shortest proof (winner) or, when every child is proven, the longest.
func (s *Solver) provenChild(p *board.Position, winner bool) (board.Move, int, bool) {
	attacker := p.Side()
	if !winner {
		attacker = attacker.Other()
	}
	if !sameRules(p.Variant(), s.v) {
		return board.NoMove, 0, false
	}
	best, bestDist, found := board.NoMove, 0, false
	for m, c := range children(p) {
		d, ok := s.provenAt(c, attacker)
		switch {
		case !ok && !winner:
			return board.NoMove, 0, false
		case !ok:
		case !found || (winner && d < bestDist) || (!winner && d > bestDist):
			best, bestDist, found = m, d, true
		}
	}
	return best, bestDist + 1, found
}

// children yields each legal move of p with the position after it, for
// the lookups above (not the search's own move loop, which must not
// allocate).
func children(p *board.Position) iter.Seq2[board.Move, *board.Position] {
	return func(yield func(board.Move, *board.Position) bool) {
		var l board.MoveList
		p.GenerateMoves(&l)
		for _, m := range l.Slice() {
			c := *p
			if c.Play(m) && !yield(m, &c) {
				return
			}
		}
	}
}

// provenAt reports whether the table proves attacker's win at c (at c's
// clock), with the proof's plies.
func (s *Solver) provenAt(c *board.Position, attacker board.Side) (int, bool) {
	if c.SeedsOf(c.Side()) == 0 {
		return 0, c.Side() != attacker
	}
	e, ok := s.tt.find(c.Key() ^ salts[attacker])
	if !ok || e.pn != 0 || (s.limit > 0 && int32(c.Clock()) > e.clock) {
		return 0, false
	}
	return int(e.dist), true
}

// Line returns the proof's main line from root: the winner's proving
// moves and the loser's longest defences, as far as the table holds them.
func (s *Solver) Line(root board.Position, winner board.Side) []board.Move {
	var line []board.Move
	p := root
	for len(line) < MaxDepth {
		var m board.Move
		var ok bool
		if p.Side() == winner {
			m, _, ok = s.provenChild(&p, true)
		} else {
			m, _, ok = s.provenChild(&p, false)
		}
		if !ok || !p.Play(m) {
			break
		}
		line = append(line, m)
	}
	return line
}

// BestTry returns, at p where attacker is to move, the move to the child
// whose win for attacker the table holds as nearest to proven: a proven
// child first (the shortest proof), else the smallest proof number of
// those neither proven nor disproven (the first generated of equals),
// with that number (0 when proven). It is where a search that has not
// proven p would go on; false when the table holds no such child of p.
func (s *Solver) BestTry(p *board.Position, attacker board.Side) (board.Move, uint32, bool) {
	if !sameRules(p.Variant(), s.v) || p.Side() != attacker {
		return board.NoMove, 0, false
	}
	best, bestPN, bestDist, found := board.NoMove, uint32(0), 0, false
	for m, c := range children(p) {
		pn, dist := uint32(0), 0
		if d, ok := s.provenAt(c, attacker); ok {
			dist = d
		} else if e, ok := s.tt.find(c.Key() ^ salts[attacker]); ok && e.pn != 0 && e.dn != 0 {
			pn = e.pn
		} else {
			continue // not in the table, disproven, or proven only at a lower clock
		}
		if !found || pn < bestPN || (pn == 0 && bestPN == 0 && dist < bestDist) {
			best, bestPN, bestDist, found = m, pn, dist, true
		}
	}
	return best, bestPN, found
}

// Numbers returns the table's proof and disproof numbers of attacker's
// win at p (0 and Infinity for a proven win, Infinity and 0 for a
// disproven one), and false when the table does not hold p. A proof held
// only at lower clocks than p's, or a disproof only at higher ones, does
// not count as final at p: its numbers are reported as open (1, 1).
func (s *Solver) Numbers(p *board.Position, attacker board.Side) (pn, dn uint32, ok bool) {
	if !sameRules(p.Variant(), s.v) {
		return 0, 0, false
	}
	if p.SeedsOf(p.Side()) == 0 {
		if p.Side() == attacker {
			return Infinity, 0, true
		}
		return 0, Infinity, true
	}
	e, ok := s.tt.find(p.Key() ^ salts[attacker])
	if !ok {
		return 0, 0, false
	}
	switch {
	case e.pn == 0 && s.limit > 0 && int32(p.Clock()) > e.clock,
		e.dn == 0 && int32(p.Clock()) < e.clock:
		return 1, 1, true
	}
	return e.pn, e.dn, true
}
