package search

import (
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/sower-engine/sower/board"
)

// Bound says how a stored score relates to the true score.
type Bound uint8

// Bounds.
const (
	BoundNone  Bound = 0 // empty entry
	BoundUpper Bound = 1 // the true score is at most Score (fail low)
	BoundLower Bound = 2 // the true score is at least Score (fail high)
	BoundExact Bound = 3
)

// Entry is one transposition-table entry, unpacked.
type Entry struct {
	Move  board.Move
	Depth int   // 0-255
	Bound Bound // BoundNone for an empty entry
	Gen   uint8 // 0-63: the search that wrote it
	Score Score // relative to the node (see toTT)
	Eval  Score // static evaluation, or 0
	// Proven says that no leaf under the entry was scored by the
	// evaluation: its score (within its bound) is a proven game result.
	Proven bool
}

// An entry is two words: the full 64-bit key, and the data word
//
//	bits  0-15  score, int16 two's complement (decisive scores relative to the node)
//	bits 16-23  best move (board.Move; 0 = none)
//	bits 24-31  depth in plies, 0-255
//	bits 32-33  bound: 0 none (empty), 1 upper, 2 lower, 3 exact
//	bits 34-39  generation, 0-63, the search that stored the entry
//	bits 40-55  static evaluation, int16 two's complement
//	bit  56     proven: no leaf below was scored by the evaluation
//	bits 57-63  zero
//
// Four entries make a 64-byte bucket, one cache line.
//
// Threads share the table without locks: each word is read and written
// atomically, and the first word holds the key XOR the data word, so a
// torn entry — one thread's key word with another's data word — fails the
// key check and is a miss (the XOR trick of Hyatt and Mann). The move of
// a verified entry is still only a hint: the search plays it only when it
// is among the legal moves it generated.
type entry struct {
	check uint64 // key ^ data
	data  uint64
}

// load returns the entry's data word if it holds key, and 0 otherwise.
func (e *entry) load(key uint64) uint64 {
	d := atomic.LoadUint64(&e.data)
	if d == 0 || atomic.LoadUint64(&e.check)^d != key {
		return 0
	}
	return d
}

// loadAny returns the entry's key and data words, the key as the check
// makes it (wrong for a torn entry, which then matches no search key).
func (e *entry) loadAny() (key, data uint64) {
	d := atomic.LoadUint64(&e.data)
	return atomic.LoadUint64(&e.check) ^ d, d
}

func (e *entry) store(key, data uint64) {
	atomic.StoreUint64(&e.data, data)
	atomic.StoreUint64(&e.check, key^data)
}

const (
	bucketSize = 4
	entryBytes = 16
	genMask    = 63
)

type bucket [bucketSize]entry

func pack(e Entry) uint64 {
	return uint64(uint16(int16(e.Score))) |
		uint64(e.Move)<<16 |
		uint64(uint8(e.Depth))<<24 |
		uint64(e.Bound&3)<<32 |
		uint64(e.Gen&genMask)<<34 |
		uint64(uint16(int16(e.Eval)))<<40 |
		uint64(b2u(e.Proven))<<56
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

func unpack(d uint64) Entry {
	return Entry{
		Score:  Score(int16(uint16(d))),
		Move:   board.Move(d >> 16),
		Depth:  int(uint8(d >> 24)),
		Bound:  Bound(d >> 32 & 3),
		Gen:    uint8(d >> 34 & genMask),
		Eval:   Score(int16(uint16(d >> 40))),
		Proven: d>>56&1 != 0,
	}
}

// Table is the transposition table: a power-of-two number of 64-byte
// buckets, each holding four entries. A key's bucket is chosen by its top
// bits; the entry keeps the whole key to verify a hit. Replacement keeps,
// within a bucket, the entries that are deeper and of the current
// generation. A Table is used by one search at a time.
type Table struct {
	buckets []bucket
	shift   uint
	gen     uint8
}

// Hash table sizes in MiB.
const (
	MinHashMiB     = 1
	MaxHashMiB     = 65536
	DefaultHashMiB = 16
)

// NewTable allocates a table of at most mib MiB (rounded down to a power of
// two number of buckets). It refuses a size the machine cannot hold now
// (see HashLimitMiB) with an error.
func NewTable(mib int) (*Table, error) {
	if mib < MinHashMiB || mib > MaxHashMiB {
		return nil, fmt.Errorf("hash size %d MiB: want %d to %d", mib, MinHashMiB, MaxHashMiB)
	}
	log := bucketsLog(mib)
	if avail, ok := AvailableMiB(); ok {
		if err := CheckHashMemory(mib, avail); err != nil {
			return nil, err
		}
	}
	b, err := allocBuckets(1 << log)
	if err != nil {
		return nil, fmt.Errorf("hash size %d MiB: %w", mib, err)
	}
	return &Table{buckets: b, shift: uint(64 - log)}, nil
}

// bucketsLog returns the log2 of the buckets of a table of at most mib MiB.
func bucketsLog(mib int) int {
	n := uint64(mib) << 20 / (bucketSize * entryBytes)
	return 63 - bits.LeadingZeros64(n)
}

// SizeMiB returns the table's size in MiB.
func (t *Table) SizeMiB() int { return len(t.buckets) * bucketSize * entryBytes >> 20 }

// Clear empties the table.
func (t *Table) Clear() {
	clear(t.buckets)
	t.gen = 0
}

// NewSearch starts a new generation: entries of older searches are
// replaced first.
func (t *Table) NewSearch() { t.gen = (t.gen + 1) & genMask }

func (t *Table) bucket(key uint64) *bucket { return &t.buckets[key>>t.shift] }

// Probe returns the entry stored for key, if any.
func (t *Table) Probe(key uint64) (Entry, bool) {
	b := t.bucket(key)
	for i := range b {
		if d := b[i].load(key); d != 0 {
			return unpack(d), true
		}
	}
	return Entry{}, false
}

// Store records a search result for key. An entry for the same key is
// overwritten unless it is deeper and the new result is not exact; a new
// key replaces the bucket's least valuable entry, judged by depth less
// eight plies per generation of age.
func (t *Table) Store(key uint64, m board.Move, depth int, bound Bound, score, eval Score, proven bool) {
	b := t.bucket(key)
	victim := &b[0]
	var victimData uint64
	worst := 1 << 30
	for i := range b {
		e := &b[i]
		k, d := e.loadAny()
		if d == 0 || k == key {
			victim, victimData = e, d
			break
		}
		old := unpack(d)
		age := int((t.gen - old.Gen) & genMask)
		if v := old.Depth - 8*age; v < worst {
			worst, victim, victimData = v, e, d
		}
	}
	if victimData != 0 && victimData == victim.load(key) {
		old := unpack(victimData)
		if m == board.NoMove {
			m = old.Move
		}
		if bound != BoundExact && old.Gen == t.gen && old.Depth > depth+2 {
			return
		}
	}
	depth = max(0, min(depth, 255))
	victim.store(key, pack(Entry{Move: m, Depth: depth, Bound: bound, Gen: t.gen, Score: score, Eval: eval, Proven: proven}))
}

// Hashfull returns how full the table is in per mille, counting the
// entries of the current generation among the first thousand.
func (t *Table) Hashfull() int {
	n, seen := 0, 0
	for i := 0; i < len(t.buckets) && seen < 1000; i++ {
		for j := range t.buckets[i] {
			if _, d := t.buckets[i][j].loadAny(); d != 0 && unpack(d).Gen == t.gen {
				n++
			}
			seen++
		}
	}
	return n * 1000 / max(seen, 1)
}
