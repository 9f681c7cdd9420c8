package dfpn

// estimateBits is the log2 of the entries of each thread's cache of first
// estimates: 2^20 entries of 16 bytes, 16 MiB a thread.
const estimateBits = 20

// noEst marks an estimate entry without the evaluation.
const noEst int32 = -1 << 31

// estimate is one entry of a thread's estimate cache (16 bytes):
//
//	check the key's high 32 bits (the low bits chose the entry)
//	pn    the first proof number of the position (0: not computed)
//	dn    the first disproof number
//	ev    the evaluation from the attacker's point of view, its sign bit
//	      flipped, so that a zero entry holds none (noEst)
//
// A zeroed entry is empty whatever key it is asked for.
type estimate struct {
	check  uint32
	pn, dn uint32
	ev     uint32
}

// est returns the entry's evaluation, noEst if it has none.
func (e estimate) est() int32 { return int32(e.ev ^ 1<<31) }

// estimates remembers the first estimates and evaluations of positions a
// thread has met, so that a node expanded again (df-pn expands a node
// each time its search comes back to it) does not play its unsearched
// children's moves again (the lookahead) or evaluate them again (to
// break ties). It is a direct-mapped cache owned by one thread: no locks,
// no sharing. Both values are functions of the position and the attacker
// alone (the key is salted by the attacker), so the cache changes no
// number, only the time: a search is node for node the same with it.
// Only unfinished estimates are kept; a position the first estimate
// decides goes to the table, as before. Positions at the no-capture limit
// are not cached: their estimate depends on the clock, which the key does
// not cover.
type estimates struct {
	e []estimate
}

// slot returns key's entry.
func (c *estimates) slot(key uint64) *estimate {
	return &c.e[key&(1<<estimateBits-1)]
}

// get returns key's entry, or an empty one (pn 0, no evaluation) when the
// cache holds another position there or is off (not allocated).
func (c *estimates) get(key uint64) estimate {
	if c.e == nil {
		return estimate{}
	}
	if e := *c.slot(key); e.check == uint32(key>>32) {
		return e
	}
	return estimate{}
}

// putNumbers records key's first numbers, keeping its evaluation if the
// entry holds it.
func (c *estimates) putNumbers(key uint64, pn, dn uint32) {
	if e := c.claim(key); e != nil {
		e.pn, e.dn = pn, dn
	}
}

// putEval records key's evaluation, keeping its first numbers if the entry
// holds them.
func (c *estimates) putEval(key uint64, est int32) {
	if e := c.claim(key); e != nil {
		e.ev = uint32(est) ^ 1<<31
	}
}

// claim returns key's entry to write, emptied first if it held another
// position, or nil when the cache is off.
func (c *estimates) claim(key uint64) *estimate {
	if c.e == nil {
		return nil
	}
	e := c.slot(key)
	if e.check != uint32(key>>32) {
		*e = estimate{check: uint32(key >> 32)}
	}
	return e
}

// clear empties the cache (allocating it the first time).
func (c *estimates) clear() {
	if c.e == nil {
		c.e = make([]estimate, 1<<estimateBits)
		return
	}
	clear(c.e)
}
