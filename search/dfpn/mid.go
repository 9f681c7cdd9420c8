package dfpn

import "github.com/sower-engine/sower/board"

// result is what a search of a node found: its numbers, and for a final
// result the facts the table keeps.
type result struct {
	pn, dn uint32
	clock  int32 // proven: largest clock it holds at; disproven: smallest
	rep    int32 // disproven: the lowest ply of a repeated position it rests on
	dist   uint16
	move   board.Move
}

// child is one move of a node being searched, with what is known of it.
type child struct {
	pos     board.Position
	key     uint64
	move    board.Move
	capture bool
	done    bool // a final result that cannot change during this node's search
	result
}

// frame is the children of the node at one ply.
type frame struct {
	kids [board.MaxMoves]child
	n    int
}

// noRep is the rep field of a result that rests on no repetition.
const noRep int32 = 1 << 30

// mid searches the node pos at ply (attacker to move or not) until its
// proof number reaches thpn or its disproof number thdn, stores what it
// found and returns it.
func (s *Solver) mid(pos *board.Position, key uint64, ply int, thpn, thdn uint32) result {
	s.nodes++
	if s.nodes&(1<<8-1) == 0 {
		s.poll()
	}
	if ply >= len(s.frames) {
		// Too deep to follow: a failure for the attacker that no other
		// path may reuse.
		return result{pn: inf, dn: 0, rep: -1}
	}
	f := &s.frames[ply]
	attack := pos.Side() == s.attacker
	if !s.expand(pos, f, ply) {
		return s.terminal(key, attack)
	}
	if s.limit > 0 && pos.Clock() >= s.limit {
		r := result{pn: inf, dn: 0, clock: int32(pos.Clock()), rep: noRep}
		s.store(key, r, 1)
		return r
	}
	s.path[s.base+ply] = key
	s.onPath.add(key)
	defer s.onPath.remove(key)
	work := s.nodes
	var r result
	s.look(f, ply)
	for {
		r = s.combine(f, attack, pos.Clock(), ply)
		if r.pn >= thpn || r.dn >= thdn || s.stop {
			break
		}
		best, second := s.pick(f, attack)
		c := &f.kids[best]
		var cpn, cdn uint32
		if attack {
			// The node's proof number is its best child's: the child
			// may use up to the second best's (widened by 1+ε); its
			// disproof number adds to the node's.
			cpn = min(thpn, grow(second))
			cdn = satsub(thdn, r.dn, c.dn)
		} else {
			cdn = min(thdn, grow(second))
			cpn = satsub(thpn, r.pn, c.pn)
		}
		cr := s.mid(&c.pos, c.key, ply+1, cpn, cdn)
		c.result = cr
		c.done = cr.pn == 0 || cr.dn == 0
		f = &s.frames[ply]
	}
	if !s.stop || r.pn == 0 || r.dn == 0 {
		s.store(key, r, s.nodes-work)
	}
	return r
}

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

// expand lists the node's legal moves in f, reporting false when there is
// none (the side to move has lost).
func (s *Solver) expand(pos *board.Position, f *frame, ply int) bool {
	var l board.MoveList
	pos.GenerateMoves(&l)
	f.n = 0
	for _, m := range l.Slice() {
		c := &f.kids[f.n]
		c.pos = *pos
		if !c.pos.Play(m) {
			continue
		}
		c.move = m
		c.key = c.pos.Key() ^ s.salt
		c.capture = c.pos.Clock() == 0
		c.done = false
		f.n++
	}
	return f.n > 0
}

// terminal stores and returns the result of a node whose side to move has
// no legal move: a win for the other side whatever the clock.
func (s *Solver) terminal(key uint64, attack bool) result {
	r := result{pn: 0, dn: inf, clock: clockAny, rep: noRep}
	if attack {
		r = result{pn: inf, dn: 0, clock: 0, rep: noRep}
	}
	s.store(key, r, 1)
	return r
}

// look gives the children their numbers when the node is expanded: final
// when the game or the line decides them, from the table when it knows
// them, else first estimates. From then on the node keeps its children's
// numbers as their searches return them.
func (s *Solver) look(f *frame, ply int) {
	for i := 0; i < f.n; i++ {
		c := &f.kids[i]
		if c.pos.SeedsOf(c.pos.Side()) == 0 {
			c.result = s.lostBy(c.pos.Side())
			c.done = true
			continue
		}
		if at, ok := s.repeated(c.key, ply); ok {
			c.result = result{pn: inf, dn: 0, clock: 0, rep: at}
			c.done = true
			continue
		}
		if e := s.tt.find(c.key); e != nil {
			if r, ok := s.usable(e, c.pos.Clock()); ok {
				c.result = r
				c.done = r.pn == 0 || r.dn == 0
				continue
			}
		}
		c.result = s.initial(&c.pos)
	}
}

// lostBy is the result of a position whose side to move, loser, has no
// seeds.
func (s *Solver) lostBy(loser board.Side) result {
	if loser == s.attacker {
		return result{pn: inf, dn: 0, clock: 0, rep: noRep}
	}
	return result{pn: 0, dn: inf, clock: clockAny, rep: noRep}
}

// usable returns an entry's result if it may be used at this clock (and
// path: a path-dependent disproof is not).
func (s *Solver) usable(e *entry, clock int) (result, bool) {
	r := result{pn: e.pn, dn: e.dn, clock: e.clock, dist: e.dist, move: e.move, rep: noRep}
	switch {
	case e.pn == 0:
		return r, s.limit == 0 || int32(clock) <= e.clock
	case e.dn == 0:
		return r, e.flags&flagRepeat == 0 && (s.limit == 0 || int32(clock) >= e.clock)
	}
	return r, true
}

// initial scores a child never searched: one move to prove where its side
// to move needs one, as many as its moves where every move must be
// answered.
func (s *Solver) initial(p *board.Position) result {
	switch s.init {
	case InitUniform:
		return result{pn: 1, dn: 1}
	case InitSeeds, InitSeedsMobility:
		a, d := p.SeedsOf(s.attacker), p.SeedsOf(s.attacker.Other())
		pn, dn := seedNumbers(a, d, s.total)
		if s.init == InitSeedsMobility {
			var l board.MoveList
			p.GenerateMoves(&l)
			n := uint32(max(l.N, 1))
			if p.Side() == s.attacker {
				dn = min(maxPN, dn*n)
			} else {
				pn = min(maxPN, pn*n)
			}
		}
		return result{pn: pn, dn: dn}
	}
	var l board.MoveList
	p.GenerateMoves(&l)
	n := uint32(max(l.N, 1))
	if p.Side() == s.attacker {
		return result{pn: 1, dn: n}
	}
	return result{pn: n, dn: 1}
}

// combine computes the node's numbers from its children's.
func (s *Solver) combine(f *frame, attack bool, clock, ply int) result {
	if attack {
		return s.orNode(f, clock, ply)
	}
	return s.andNode(f, clock, ply)
}

// orNode combines the children of a node where the attacker moves: proven
// by one proven child, disproven when every child is.
func (s *Solver) orNode(f *frame, clock, ply int) result {
	r := result{pn: inf, dn: 0, rep: noRep, clock: clockNone}
	var best *child
	for i := 0; i < f.n; i++ {
		c := &f.kids[i]
		r.pn = min(r.pn, c.pn)
		r.dn = satadd(r.dn, c.dn)
		if c.pn == 0 && (best == nil || c.dist < best.dist) {
			best = c
		}
		if c.pn == inf {
			r.rep = min(r.rep, c.rep)
			r.clock = max(r.clock, s.disproofNeeds(c))
		}
	}
	if best != nil {
		return s.proven(best.dist+1, best.move, s.proofAllows(best))
	}
	if r.pn == inf {
		return s.disproven(r, clock, ply)
	}
	r.clock, r.rep = 0, noRep
	return r
}

// andNode combines the children of a node where the defender moves: proven
// when every child is, disproven by one disproven child.
func (s *Solver) andNode(f *frame, clock, ply int) result {
	r := result{pn: 0, dn: inf, clock: clockAny}
	var refute *child
	var dist uint16
	for i := 0; i < f.n; i++ {
		c := &f.kids[i]
		r.pn = satadd(r.pn, c.pn)
		r.dn = min(r.dn, c.dn)
		if c.dn == 0 && (refute == nil || better(c, refute)) {
			refute = c
		}
		if c.pn == 0 {
			r.clock = min(r.clock, s.proofAllows(c))
			dist = max(dist, c.dist+1)
		}
	}
	if refute != nil {
		return s.disproven(result{pn: inf, dn: 0, rep: refute.rep, clock: s.disproofNeeds(refute)}, clock, ply)
	}
	if r.pn == 0 {
		return s.proven(dist, board.NoMove, r.clock)
	}
	r.clock = 0
	return r
}

// better reports whether disproven child a is a better refutation than b:
// one that rests on no repetition, then one that holds at more clocks.
func better(a, b *child) bool {
	if a.rep != b.rep {
		return a.rep > b.rep
	}
	return a.clock < b.clock
}

// proofAllows is the largest clock of the parent at which child c's proof
// holds.
func (s *Solver) proofAllows(c *child) int32 {
	if s.limit == 0 || c.capture || c.clock >= clockAny {
		return clockAny
	}
	return c.clock - 1
}

// disproofNeeds is the smallest clock of the parent at which child c's
// disproof holds.
func (s *Solver) disproofNeeds(c *child) int32 {
	if s.limit == 0 || c.capture {
		return 0
	}
	return max(0, c.clock-1)
}

// proven returns a proof result; clock bounds the parent's clock (the node
// itself is a draw at the limit).
func (s *Solver) proven(dist uint16, m board.Move, clock int32) result {
	if s.limit > 0 {
		clock = min(clock, int32(s.limit-1))
	}
	return result{pn: 0, dn: inf, dist: dist, move: m, clock: clock, rep: noRep}
}

// disproven finishes a disproof of the node at ply: its repetition mark
// counts only when the repeated position lies above it.
func (s *Solver) disproven(r result, clock, ply int) result {
	r.pn, r.dn = inf, 0
	if r.rep >= int32(ply) {
		r.rep = noRep
	}
	r.clock = max(0, min(r.clock, int32(clock)))
	return r
}

// pick returns the child to search (the smallest number the node's proof
// number follows: disproof numbers where the attacker moves) and the
// second smallest such number.
func (s *Solver) pick(f *frame, attack bool) (int, uint32) {
	best, n1, n2 := -1, inf+1, inf+1
	for i := 0; i < f.n; i++ {
		c := &f.kids[i]
		n := c.dn
		if attack {
			n = c.pn
		}
		if c.done {
			continue
		}
		switch {
		case n < n1:
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

// store writes a node's result to the table.
func (s *Solver) store(key uint64, r result, work uint64) {
	e := s.tt.slot(key)
	if e.key != key || e.flags&flagPresent == 0 {
		*e = entry{key: key, flags: flagPresent}
	}
	e.pn, e.dn, e.clock, e.dist, e.move = r.pn, r.dn, r.clock, r.dist, r.move
	e.flags = flagPresent
	if r.dn == 0 && r.rep != noRep {
		e.flags |= flagRepeat
	}
	e.work = uint32(min(uint64(e.work)+work, 1<<32-1))
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
