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
	done    bool     // a final result that cannot change during this node's search
	busy    uint16   // other threads searching the child (several threads only)
	cached  estimate // what the thread's estimate cache held for it
	result
}

// frame is the children of the node at one ply.
type frame struct {
	kids [board.MaxMoves]child
	n    int
	// cur is 1 + the index of the child being searched, or 0 while the
	// node is not searching one (for the progress report).
	cur int
}

// noRep is the rep field of a result that rests on no repetition.
const noRep int32 = 1 << 30

// mid searches the node pos at ply (attacker to move or not) until its
// proof number reaches thpn or its disproof number thdn, stores what it
// found and returns it.
func (w *worker) mid(pos *board.Position, key uint64, ply int, thpn, thdn uint32) result {
	w.nodes++
	if w.nodes&(1<<8-1) == 0 {
		w.poll()
	}
	if ply >= len(w.frames) {
		// Too deep to follow: a failure for the attacker that no other
		// path may reuse.
		return result{pn: inf, dn: 0, rep: -1}
	}
	f := &w.frames[ply]
	attack := pos.Side() == w.attacker
	if !w.expand(pos, f, ply) {
		return w.terminal(key, attack)
	}
	if w.limit > 0 && pos.Clock() >= w.limit {
		r := result{pn: inf, dn: 0, clock: int32(pos.Clock()), rep: noRep}
		w.tt.store(key, r, 1)
		return r
	}
	w.path[w.base+ply] = key
	w.onPath.add(key)
	defer w.onPath.remove(key)
	work := w.nodes
	var r result
	w.look(f, ply)
	if w.parallel {
		w.tt.enter(key, w.combine(f, attack, pos.Clock(), ply))
		defer w.tt.leave(key)
	}
	for {
		if w.parallel {
			w.refresh(f)
		}
		r = w.combine(f, attack, pos.Clock(), ply)
		if r.pn >= thpn || r.dn >= thdn || w.stop {
			break
		}
		best, second := w.pick(f, attack, thpn, thdn)
		c := &f.kids[best]
		var cpn, cdn uint32
		if attack {
			// The node's proof number is its best child's: the child
			// may use up to the second best's (widened by 1+ε); its
			// disproof number adds to the node's.
			cpn = min(thpn, grow(second))
			cdn = sumThreshold(thdn, r.dn, c.dn)
		} else {
			cdn = min(thdn, grow(second))
			cpn = sumThreshold(thpn, r.pn, c.pn)
		}
		f.cur = best + 1
		cr := w.mid(&c.pos, c.key, ply+1, cpn, cdn)
		f = &w.frames[ply]
		f.cur = 0
		c.result = cr
		c.done = cr.pn == 0 || cr.dn == 0
	}
	// A node a stopped search leaves keeps the entry it had, except the
	// main thread's root: its numbers are the search's answer
	// (ProveWithin's Bounds), which a later question about it reads
	// (Numbers: a campaign choosing the move to ask next).
	if !w.stop || r.pn == 0 || r.dn == 0 || (ply == 0 && !w.helper) {
		w.tt.store(key, r, w.nodes-work)
	}
	return r
}

// expand lists the node's legal moves in f, reporting false when there is
// none (the side to move has lost).
func (w *worker) expand(pos *board.Position, f *frame, ply int) bool {
	var l board.MoveList
	pos.GenerateMoves(&l)
	f.n, f.cur = 0, 0
	for _, m := range l.Slice() {
		c := &f.kids[f.n]
		c.pos = *pos
		if !c.pos.Play(m) {
			continue
		}
		c.move = m
		c.key = c.pos.Key() ^ w.salt
		c.capture = c.pos.Clock() == 0
		c.done = false
		f.n++
	}
	return f.n > 0
}

// terminal stores and returns the result of a node whose side to move has
// no legal move: a win for the other side whatever the clock.
func (w *worker) terminal(key uint64, attack bool) result {
	r := result{pn: 0, dn: inf, clock: clockAny, rep: noRep}
	if attack {
		r = result{pn: inf, dn: 0, clock: 0, rep: noRep}
	}
	w.tt.store(key, r, 1)
	return r
}

// look gives the children their numbers when the node is expanded: final
// when the game or the line decides them, from the table when it knows
// them, else first estimates. From then on the node keeps its children's
// numbers as their searches return them.
func (w *worker) look(f *frame, ply int) {
	// The children's entries are read from memory at once, not one
	// find after another (table.touch).
	for i := 0; i < f.n; i++ {
		c := &f.kids[i]
		w.tt.touch(c.key)
		c.cached = w.cache.get(c.key)
	}
	for i := 0; i < f.n; i++ {
		c := &f.kids[i]
		if c.pos.SeedsOf(c.pos.Side()) == 0 {
			c.result = w.lostBy(c.pos.Side())
			c.done = true
			continue
		}
		if at, ok := w.repeated(c.key, ply); ok {
			c.result = result{pn: inf, dn: 0, clock: 0, rep: at}
			c.done = true
			continue
		}
		if w.fromTable(c) {
			continue
		}
		cacheable := w.limit == 0 || c.pos.Clock() < w.limit
		if cacheable && c.cached.pn != 0 {
			c.result = result{pn: c.cached.pn, dn: c.cached.dn}
			continue
		}
		c.result = w.lookahead(&c.pos)
		switch {
		case c.pn == 0 || c.dn == 0:
			// Decided at once by the first estimate (a win in one ply): kept
			// in the table as the child's own search would keep it.
			c.done = true
			w.tt.store(c.key, c.result, 1)
		case cacheable:
			w.cache.putNumbers(c.key, c.pn, c.dn)
		}
	}
}

// refresh reads the unfinished children's numbers from the table again,
// with several threads: another thread may have moved them since.
func (w *worker) refresh(f *frame) {
	for i := 0; i < f.n; i++ {
		if c := &f.kids[i]; !c.done {
			w.fromTable(c)
		}
	}
}

// fromTable gives child c the table's result when the table has one it may
// use, reporting whether it had.
func (w *worker) fromTable(c *child) bool {
	c.busy = 0
	e, ok := w.tt.find(c.key)
	if !ok {
		return false
	}
	r, ok := w.usable(&e, c.pos.Clock())
	if ok {
		c.result, c.busy = r, e.busy
		c.done = r.pn == 0 || r.dn == 0
	}
	return ok
}

// lostBy is the result of a position whose side to move, loser, has no
// seeds.
func (w *worker) lostBy(loser board.Side) result {
	if loser == w.attacker {
		return result{pn: inf, dn: 0, clock: 0, rep: noRep}
	}
	return result{pn: 0, dn: inf, clock: clockAny, rep: noRep}
}

// usable returns an entry's result if it may be used at this clock (and
// path: a path-dependent disproof is not).
func (w *worker) usable(e *entry, clock int) (result, bool) {
	r := result{pn: e.pn, dn: e.dn, clock: e.clock, dist: e.dist, move: e.move, rep: noRep}
	switch {
	case e.pn == 0:
		return r, w.limit == 0 || int32(clock) <= e.clock
	case e.dn == 0:
		return r, e.flags&flagRepeat == 0 && (w.limit == 0 || int32(clock) >= e.clock)
	}
	return r, true
}

// combine computes the node's numbers from its children's.
func (w *worker) combine(f *frame, attack bool, clock, ply int) result {
	if attack {
		return w.orNode(f, clock, ply)
	}
	return w.andNode(f, clock, ply)
}

// orNode combines the children of a node where the attacker moves: proven
// by one proven child, disproven when every child is.
func (w *worker) orNode(f *frame, clock, ply int) result {
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
			r.clock = max(r.clock, w.disproofNeeds(c))
		}
	}
	if best != nil {
		return w.proven(best.dist+1, best.move, w.proofAllows(best))
	}
	if r.pn == inf {
		return w.disproven(r, clock, ply)
	}
	r.clock, r.rep = 0, noRep
	return r
}

// andNode combines the children of a node where the defender moves: proven
// when every child is, disproven by one disproven child.
func (w *worker) andNode(f *frame, clock, ply int) result {
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
			r.clock = min(r.clock, w.proofAllows(c))
			dist = max(dist, c.dist+1)
		}
	}
	if refute != nil {
		return w.disproven(result{pn: inf, dn: 0, rep: refute.rep, clock: w.disproofNeeds(refute)}, clock, ply)
	}
	if r.pn == 0 {
		return w.proven(dist, board.NoMove, r.clock)
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
func (w *worker) proofAllows(c *child) int32 {
	if w.limit == 0 || c.capture || c.clock >= clockAny {
		return clockAny
	}
	return c.clock - 1
}

// disproofNeeds is the smallest clock of the parent at which child c's
// disproof holds.
func (w *worker) disproofNeeds(c *child) int32 {
	if w.limit == 0 || c.capture {
		return 0
	}
	return max(0, c.clock-1)
}

// proven returns a proof result; clock bounds the parent's clock (the node
// itself is a draw at the limit).
func (w *worker) proven(dist uint16, m board.Move, clock int32) result {
	if w.limit > 0 {
		clock = min(clock, int32(w.limit-1))
	}
	return result{pn: 0, dn: inf, dist: dist, move: m, clock: clock, rep: noRep}
}

// disproven finishes a disproof of the node at ply: its repetition mark
// counts only when the repeated position lies above it.
func (w *worker) disproven(r result, clock, ply int) result {
	r.pn, r.dn = inf, 0
	if r.rep >= int32(ply) {
		r.rep = noRep
	}
	r.clock = max(0, min(r.clock, int32(clock)))
	return r
}
