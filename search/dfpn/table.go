package dfpn

import (
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/sower-engine/sower/board"
)

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

// stripes is the number of locks that guard the table's buckets (a power
// of two): bucket b is guarded by lock b mod stripes, so threads block
// each other only on the same stripe, and never hold two locks.
const stripes = 1 << 12

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
//	busy  the threads searching below the entry now (several threads only)
type entry struct {
	key   uint64
	pn    uint32
	dn    uint32
	work  uint32
	clock int32
	dist  uint16
	move  board.Move
	flags uint8
	busy  uint16
}

// table is a transposition table of buckets of bucketWays entries, safe for
// concurrent use: every access to a bucket holds its stripe's lock.
type table struct {
	e       []entry
	buckets uint64
	used    atomic.Int64
	locks   [stripes]sync.Mutex
}

// newTable makes a table of at most mib MiB, as many buckets as fit (not
// only a power of two: a campaign's table may take most of a memory
// budget of 12 GiB, not 8), its memory advised for huge pages if huge.
func newTable(mib int, huge bool) *table {
	n := max(uint64(mib)<<20/(entryBytes*bucketWays), 1)
	t := &table{e: make([]entry, n*bucketWays), buckets: n}
	if huge {
		adviseHuge(t.e)
	}
	return t
}

// bucket returns key's bucket number: the high word of the product of
// its key and the number of buckets (Lemire's fast range reduction: the
// key's high bits choose, as uniformly as the keys are random).
func (t *table) bucket(key uint64) uint64 {
	hi, _ := bits.Mul64(key, t.buckets)
	return hi
}

// lock locks key's bucket and returns its first index and the lock to
// release.
func (t *table) lock(key uint64) (int, *sync.Mutex) {
	b := t.bucket(key)
	m := &t.locks[b&(stripes-1)]
	m.Lock()
	return int(b) * bucketWays, m
}

// find returns a copy of key's entry, or false.
func (t *table) find(key uint64) (entry, bool) {
	i, m := t.lock(key)
	defer m.Unlock()
	if e := t.at(i, key); e != nil {
		return *e, true
	}
	return entry{}, false
}

// touch reads key's bucket, both of its cache lines, without its lock, so
// that the memory reads of several buckets are under way at once before
// find reads them one by one (each find's lock would otherwise wait for
// the read before it). It reads the entries' keys atomically, and reset
// writes them so, so that the read does not race with another thread's
// write; what it reads is not used. (Measured on amd64, where an atomic
// load is a plain one.)
func (t *table) touch(key uint64) {
	i := t.bucket(key) * bucketWays
	atomic.LoadUint64(&t.e[i].key)
	atomic.LoadUint64(&t.e[i+bucketWays/2].key)
}

// reset makes e a blank entry of key. The key is written atomically, as
// touch reads it without the bucket's lock; every other access to an
// entry holds the lock (or comes before the threads start).
func (e *entry) reset(key uint64) {
	e.pn, e.dn, e.work, e.clock, e.dist, e.move, e.busy = 0, 0, 0, 0, 0, 0, 0
	e.flags = flagPresent
	atomic.StoreUint64(&e.key, key)
}

// at returns key's entry in the bucket from i, or nil; the caller holds
// the bucket's lock.
func (t *table) at(i int, key uint64) *entry {
	for j := i; j < i+bucketWays; j++ {
		if e := &t.e[j]; e.flags&flagPresent != 0 && e.key == key {
			return e
		}
	}
	return nil
}

// slot returns the entry to write key into: its own, an empty one, or the
// one the replacement policy gives up: the cheapest to find again, by the
// work below it (entries that threads are searching are kept first; of two
// with equal work a final result is kept before an unfinished one). Work
// decides rather than finality: a full table fills with proven leaves of
// one node each, and keeping those before unfinished entries with millions
// of nodes below them (the policy before) lost the numbers of the root's
// children in long proofs. The caller holds the bucket's lock; a new entry
// is returned blank with its key.
func (t *table) slot(i int, key uint64) *entry {
	var victim *entry
	var vscore uint64
	for j := i; j < i+bucketWays; j++ {
		e := &t.e[j]
		if e.flags&flagPresent == 0 {
			t.used.Add(1)
			e.reset(key)
			return e
		}
		if e.key == key {
			return e
		}
		s := uint64(e.work) << 1
		if e.pn == 0 || e.dn == 0 {
			s |= 1
		}
		if e.busy > 0 {
			s |= 1 << 33
		}
		if victim == nil || s < vscore {
			victim, vscore = e, s
		}
	}
	victim.reset(key)
	return victim
}

// store writes a node's result and adds work to its entry's.
func (t *table) store(key uint64, r result, work uint64) {
	i, m := t.lock(key)
	defer m.Unlock()
	e := t.slot(i, key)
	e.pn, e.dn, e.clock, e.dist, e.move = r.pn, r.dn, r.clock, r.dist, r.move
	e.flags = flagPresent
	if r.dn == 0 && r.rep != noRep {
		e.flags |= flagRepeat
	}
	e.work = uint32(min(uint64(e.work)+work, 1<<32-1))
}

// put writes a loaded entry where the replacement policy puts it.
func (t *table) put(l entry) {
	i, m := t.lock(l.key)
	defer m.Unlock()
	e := t.slot(i, l.key) // its key written by reset
	e.pn, e.dn, e.work, e.clock, e.dist, e.move, e.flags, e.busy = l.pn, l.dn, l.work, l.clock, l.dist, l.move, l.flags, l.busy
}

// enter marks key's node as searched by one more thread; a node not in the
// table enters it with the numbers r it is searched with, unless they are
// final: a proof or disproof enters only by store, with its distance,
// clock and repetition flag. (Entered with its numbers alone, a node its
// children decide at once read to the other threads as a proof of no
// plies that holds at clock 0, or as a disproof that rests on no
// repetition even when it rests on one: a two-thread search once proved
// a katro-4x4 position in 1 ply whose shortest win is 3.)
func (t *table) enter(key uint64, r result) {
	i, m := t.lock(key)
	defer m.Unlock()
	e := t.at(i, key)
	if e == nil {
		if r.pn == 0 || r.dn == 0 {
			return
		}
		e = t.slot(i, key)
		e.pn, e.dn = r.pn, r.dn
	}
	e.busy++
}

// leave undoes enter (unless the entry was replaced meanwhile).
func (t *table) leave(key uint64) {
	i, m := t.lock(key)
	defer m.Unlock()
	if e := t.at(i, key); e != nil && e.busy > 0 {
		e.busy--
	}
}

// fill returns the share of the table in use.
func (t *table) fill() float64 { return float64(t.used.Load()) / float64(len(t.e)) }

// collect empties every entry that keep refuses and returns the number of
// entries left; no search may run meanwhile.
func (t *table) collect() int {
	n := 0
	for i := range t.e {
		switch e := &t.e[i]; {
		case e.flags&flagPresent == 0:
		case keep(e):
			e.busy = 0
			n++
		default:
			*e = entry{}
		}
	}
	t.used.Store(int64(n))
	return n
}

// clear empties the table; no search may run meanwhile.
func (t *table) clear() {
	clear(t.e)
	t.used.Store(0)
}

// Infinity is the proof or disproof number of a proven or disproven node
// in Progress reports.
const Infinity = inf
