package dfpn

import "github.com/sower-engine/sower/board"

// Proof and disproof numbers. inf marks a proven or disproven node; sums
// saturate at maxPN so that an unproven node never looks final.
const (
	inf   uint32 = 1 << 30
	maxPN uint32 = inf - 1
)

// noClock is the clock bound of a result that holds at every clock.
const (
	clockAny    int32 = 1 << 30
	clockNone   int32 = -1 << 30
	bucketWays        = 4
	entryBytes        = 32
	flagRepeat  uint8 = 1 // a disproof that rests on a position above the node
	flagPresent uint8 = 2
)

// entry is one transposition-table entry (32 bytes):
//
//	key   the position's key, salted by the attacker
//	pn    proof number (0: proven)
//	dn    disproof number (0: disproven)
//	work  nodes searched below the entry, saturating: the replacement
//	      policy keeps the costliest
//	clock for a proven entry the largest clock at which the proof holds; for
//	      a disproven one the smallest
//	dist  for a proven entry, the plies to the win along the proof
//	move  for a proven entry where the attacker moves, the move that proves it
//	flags flagPresent, flagRepeat
type entry struct {
	key   uint64
	pn    uint32
	dn    uint32
	work  uint32
	clock int32
	dist  uint16
	move  board.Move
	flags uint8
}

// table is a transposition table of buckets of bucketWays entries.
type table struct {
	e    []entry
	mask uint64 // bucket index mask
	used int    // entries in use
}

// newTable makes a table of at most mib MiB (a power of two of buckets).
func newTable(mib int) *table {
	n := uint64(mib) << 20 / (entryBytes * bucketWays)
	b := uint64(1)
	for b*2 <= n {
		b *= 2
	}
	return &table{e: make([]entry, b*bucketWays), mask: b - 1}
}

// bucket returns the first index of key's bucket.
func (t *table) bucket(key uint64) int {
	return int((key^key>>29)&t.mask) * bucketWays
}

// find returns key's entry, or nil.
func (t *table) find(key uint64) *entry {
	i := t.bucket(key)
	for j := i; j < i+bucketWays; j++ {
		if e := &t.e[j]; e.flags&flagPresent != 0 && e.key == key {
			return e
		}
	}
	return nil
}

// slot returns the entry to write key into: its own, an empty one, or the
// one the replacement policy gives up (final results are kept before
// unfinished ones, then the costliest).
func (t *table) slot(key uint64) *entry {
	i := t.bucket(key)
	var victim *entry
	var vscore uint64
	for j := i; j < i+bucketWays; j++ {
		e := &t.e[j]
		if e.flags&flagPresent == 0 {
			t.used++
			return e
		}
		if e.key == key {
			return e
		}
		s := uint64(e.work)
		if e.pn == 0 || e.dn == 0 {
			s |= 1 << 32
		}
		if victim == nil || s < vscore {
			victim, vscore = e, s
		}
	}
	return victim
}

// fill returns the share of the table in use.
func (t *table) fill() float64 { return float64(t.used) / float64(len(t.e)) }

// clear empties the table.
func (t *table) clear() {
	clear(t.e)
	t.used = 0
}

// Infinity is the proof or disproof number of a proven or disproven node
// in Progress reports.
const Infinity = inf
