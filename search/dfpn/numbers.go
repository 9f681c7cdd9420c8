package dfpn

import "github.com/sower-engine/sower/board"

// grow is the threshold 1+ε gives a child from its best sibling's number:
// max(n+1, n·(1+1/4)).
func grow(n uint32) uint32 {
	if n >= maxPN {
		return maxPN
	}
	return min(maxPN, max(n+1, n+n/4))
}

// satsub returns th - sum + own, clamped to [1, maxPN]: a child's
// threshold for the number that sums.
func satsub(th, sum, own uint32) uint32 {
	v := int64(th) - int64(sum) + int64(own)
	if v > int64(maxPN) {
		return maxPN
	}
	if v < 1 {
		return 1
	}
	return uint32(v)
}

// sumThreshold is a child's threshold for the number its parent sums (the
// proof number where the defender moves, the disproof number where the
// attacker does): what leaves the parent's threshold th for the child,
// given the parent's number sum and the child's own.
func sumThreshold(th, sum, own uint32) uint32 { return satsub(th, sum, own) }

// pick returns the child to search (the smallest number the node's proof
// number follows: proof numbers where the attacker moves, disproof numbers
// where the defender does) and the second smallest such number. With
// several threads a child that other threads are searching counts as
// costlier (Kaneko's virtual proof numbers: its number times one more than
// its threads), so that the threads spread over the tree; unless that
// picks a child whose own number is already past the node's threshold
// (thpn where the attacker moves, thdn where the defender does), which
// would return at once: then the plain numbers choose.
func (w *worker) pick(f *frame, attack bool, thpn, thdn uint32) (int, uint32) {
	if !w.parallel {
		return w.pickBy(f, attack, false)
	}
	best, second := w.pickBy(f, attack, true)
	c := &f.kids[best]
	if (attack && c.pn >= thpn) || (!attack && c.dn >= thdn) {
		return w.pickBy(f, attack, false)
	}
	return best, second
}

// pickBy is pick by the children's numbers, or with virtual their virtual
// numbers; children of equal numbers by the seeds their moves leave the
// attacker (prefer).
func (w *worker) pickBy(f *frame, attack, virtual bool) (int, uint32) {
	best, n1, n2 := -1, inf+1, inf+1
	for i := 0; i < f.n; i++ {
		c := &f.kids[i]
		if c.done {
			continue
		}
		n := c.dn
		if attack {
			n = c.pn
		}
		if virtual && c.busy > 0 {
			n = min(maxPN, n+uint32(c.busy)*max(n, 1))
		}
		switch {
		case n < n1 || (n == n1 && w.prefer(c, &f.kids[best], attack)):
			best, n1, n2 = i, n, n1
		case n < n2:
			n2 = n
		}
	}
	return best, min(n2, maxPN)
}

// satadd adds proof numbers, saturating below inf unless one is inf.
func satadd(a, b uint32) uint32 {
	if a >= inf || b >= inf {
		return inf
	}
	return min(a+b, maxPN)
}

// moves returns the candidate moves of side s at p: the non-empty holes of
// its back row.
func moves(p *board.Position, s board.Side) uint32 {
	d := p.BackDepth(s)
	if d < 0 {
		return 0
	}
	return uint32(p.NonEmpty(s, d))
}

// lookahead is the first estimate of p, a position never searched: its
// side to move's moves are played (a lookahead of one ply, with no node
// of its own). The number that needs every move answered is the sum over
// the legal moves of the mover's own moves after each (at least 1 each:
// an estimate of the opponent's positions' own fewest replies, as the
// side not to move keeps its moves unless a capture takes them); the
// other is the fewest candidate moves the opponent is left with after
// one of them. A move that leaves the opponent no seed wins at once: the result is then
// final, as the search of p would find it (a proof of one ply, or a
// disproof that rests on no repetition and holds at every clock). At the
// no-capture limit, where p itself would be a draw, and when p has no
// legal move, it gives 1 and 1 and leaves p to its search.
func (w *worker) lookahead(p *board.Position) result {
	if w.limit > 0 && p.Clock() >= w.limit {
		return result{pn: 1, dn: 1}
	}
	var l board.MoveList
	p.GenerateMoves(&l)
	mover := p.Side()
	opp := mover.Other()
	fewest, sum := uint32(maxPN), uint32(0)
	for _, m := range l.Slice() {
		c := *p
		if !c.Play(m) {
			continue
		}
		if c.SeedsOf(opp) == 0 {
			if mover == w.attacker {
				return w.proven(1, m, clockAny)
			}
			return result{pn: inf, dn: 0, clock: 0, rep: noRep}
		}
		fewest = min(fewest, moves(&c, opp))
		sum += max(moves(&c, mover), 1)
	}
	if sum == 0 {
		return result{pn: 1, dn: 1}
	}
	fewest = max(fewest, 1)
	if mover == w.attacker {
		return result{pn: fewest, dn: sum}
	}
	return result{pn: sum, dn: fewest}
}
