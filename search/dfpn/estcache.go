package dfpn

// estimateBits is the log2 of the entries of each thread's cache of first
// estimates: 2^20 entries of 12 bytes, 12 MiB a thread.
const estimateBits = 20

// estimate is one entry of a thread's estimate cache (12 bytes):
//
//	check the key's high 32 bits (the low bits chose the entry)
//	pn    the first proof number of the position (0: not computed)
//	dn    the first disproof number
//
// A zeroed entry is empty whatever key it is asked for.
type estimate struct {
	check  uint32
	pn, dn uint32
}

// estimates remembers the first estimates of positions a thread has met,
// so that a node expanded again (df-pn expands a node each time its
// search comes back to it) does not play its unsearched children's moves
// again (the lookahead). It is a direct-mapped cache owned by one thread:
// no locks, no sharing. The estimates are functions of the position and
// the attacker alone (the key is salted by the attacker), so the cache
// changes no number, only the time: a search is node for node the same with it.
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

// get returns key's entry, or an empty one (pn 0) when the cache holds
// another position there or is off (not allocated).
func (c *estimates) get(key uint64) estimate {
	if c.e == nil {
		return estimate{}
	}
	if e := *c.slot(key); e.check == uint32(key>>32) {
		return e
	}
	return estimate{}
}

// putNumbers records key's first numbers.
func (c *estimates) putNumbers(key uint64, pn, dn uint32) {
	if c.e != nil {
		*c.slot(key) = estimate{check: uint32(key >> 32), pn: pn, dn: dn}
	}
}

// clear empties the cache (allocating it the first time).
func (c *estimates) clear() {
	if c.e == nil {
		c.e = make([]estimate, 1<<estimateBits)
		return
	}
	clear(c.e)
}
