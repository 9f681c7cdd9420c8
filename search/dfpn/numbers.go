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

// initial scores a child never searched, of evaluation est (from the
// attacker's point of view, when the estimate needs it): by default one
// move to prove where its side to move needs one, as many as its moves
// where every move must be answered.
func (w *worker) initial(p *board.Position, est int32) result {
	switch w.init {
	case InitEval, InitEvalMobility:
		return w.evalInitial(p, est, w.init == InitEvalMobility)
	case InitUniform:
		return result{pn: 1, dn: 1}
	case InitLookahead, InitLookaheadSum:
		return w.lookahead(p)
	case InitSeeds, InitSeedsMobility:
		a, d := p.SeedsOf(w.attacker), p.SeedsOf(w.attacker.Other())
		pn, dn := seedNumbers(a, d, w.total)
		if w.init == InitSeedsMobility {
			return w.timesMoves(p, pn, dn)
		}
		return result{pn: pn, dn: dn}
	}
	var l board.MoveList
	p.GenerateMoves(&l)
	n := uint32(max(l.N, 1))
	if p.Side() == w.attacker {
		return result{pn: 1, dn: n}
	}
	return result{pn: n, dn: 1}
}

// timesMoves multiplies the number that needs every move answered (the
// disproof number where the attacker moves, else the proof number) by
// p's moves: the mobility part of the first estimates.
func (w *worker) timesMoves(p *board.Position, pn, dn uint32) result {
	var l board.MoveList
	p.GenerateMoves(&l)
	n := uint32(max(l.N, 1))
	if p.Side() == w.attacker {
		return result{pn: pn, dn: min(maxPN, dn*n)}
	}
	return result{pn: min(maxPN, pn*n), dn: dn}
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
// numbers; children of equal numbers by their evaluations (TiesEval,
// prefer), else the first.
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
		case n < n1 || (w.ties && n == n1 && w.prefer(c, &f.kids[best], attack)):
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

// seedNumbers estimates proof and disproof numbers from the attacker's a
// and the defender's d seeds of total: the proof is harder the fewer seeds
// the attacker has, by a factor of two for every eighth of the seeds.
func seedNumbers(a, d, total int) (pn, dn uint32) {
	x := 16 * (d - a) / max(total, 1) // -16 … 16
	switch {
	case x > 0:
		return 1 << uint(min(x, 16)/2), 1
	case x < 0:
		return 1, 1 << uint(min(-x, 16)/2)
	}
	return 1, 1
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

// lookahead is InitLookahead's and InitLookaheadSum's estimate of p: its
// side to move's moves are played; the number that needs every move
// answered is the count of the legal ones (InitLookaheadSum: the sum over
// them of the mover's moves after each, at least 1 each), the other the
// fewest candidate moves the opponent is left with. A move that leaves
// the opponent no seed wins at once: the result is then final, as the
// search of p would find it (a proof of one ply, or a disproof that rests
// on no repetition and holds at every clock). At the no-capture limit,
// where p itself would be a draw, and when p has no legal move, it gives
// plain estimates and leaves p to its search.
func (w *worker) lookahead(p *board.Position) result {
	if w.limit > 0 && p.Clock() >= w.limit {
		return result{pn: 1, dn: 1}
	}
	var l board.MoveList
	p.GenerateMoves(&l)
	mover := p.Side()
	opp := mover.Other()
	legal, fewest, sum := uint32(0), uint32(maxPN), uint32(0)
	for _, m := range l.Slice() {
		c := *p
		if !c.Play(m) {
			continue
		}
		legal++
		if c.SeedsOf(opp) == 0 {
			if mover == w.attacker {
				return w.proven(1, m, clockAny)
			}
			return result{pn: inf, dn: 0, clock: 0, rep: noRep}
		}
		fewest = min(fewest, moves(&c, opp))
		sum += max(moves(&c, mover), 1)
	}
	if w.init == InitLookaheadSum {
		legal = sum
	}
	if sum == 0 {
		return result{pn: 1, dn: 1}
	}
	fewest = max(fewest, 1)
	if mover == w.attacker {
		return result{pn: fewest, dn: legal}
	}
	return result{pn: legal, dn: fewest}
}
