// Tests of the transposition table: the packing of an entry into its data
// word (every field, signs and extremes included), Probe and Store with the
// replacement policy, Hashfull, NewTable's sizes and limits, Clear, and a
// benchmark of a probe.

package search

import (
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

func TestPackRoundTrip(t *testing.T) {
	moves := []board.Move{board.NoMove, board.HoleMove(0, 0), board.HoleMove(5, 5), board.HoleMove(2, 3), board.Pass}
	scores := []Score{0, 1, -1, 255, -256, 32767, -32768, Mate, -Mate, KatroWin(7), -KatroWin(7),
		HoyitoEnd(6, 3), HoyitoEnd(-48, 0), toTT(KatroWin(5), 20), toTT(-KatroWin(9), 40)}
	depths := []int{0, 1, 2, 127, 128, 254, 255}
	bounds := []Bound{BoundNone, BoundUpper, BoundLower, BoundExact}
	gens := []uint8{0, 1, 31, 32, 62, 63}
	n := 0
	for _, m := range moves {
		for _, s := range scores {
			for _, d := range depths {
				for _, b := range bounds {
					for _, g := range gens {
						// The evaluation runs over the scores in the other
						// order so that every sign combination occurs.
						ev := scores[(n*7+3)%len(scores)]
						e := Entry{Move: m, Depth: d, Bound: b, Gen: g, Score: s, Eval: ev}
						d := pack(e)
						if d>>56 != 0 {
							t.Fatalf("pack(%+v) = %#x: bits 56-63 are not zero", e, d)
						}
						if got := unpack(d); got != e {
							t.Fatalf("unpack(pack(%+v)) = %+v", e, got)
						}
						n++
					}
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d combinations tried", n)
	}
}

// Each field lands in the bits the layout comment documents.
func TestPackLayout(t *testing.T) {
	tests := []struct {
		name string
		e    Entry
		want uint64
	}{
		{"score -1", Entry{Score: -1}, 0xffff},
		{"score 1", Entry{Score: 1}, 1},
		{"move", Entry{Move: board.Pass}, 0xff << 16},
		{"depth 255", Entry{Depth: 255}, 0xff << 24},
		{"bound exact", Entry{Bound: BoundExact}, 3 << 32},
		{"bound lower", Entry{Bound: BoundLower}, 2 << 32},
		{"generation 63", Entry{Gen: 63}, 63 << 34},
		{"eval -1", Entry{Eval: -1}, 0xffff << 40},
		{"eval -32768", Entry{Eval: -32768}, 0x8000 << 40},
	}
	for _, tc := range tests {
		if got := pack(tc.e); got != tc.want {
			t.Errorf("%s: pack = %#x, want %#x", tc.name, got, tc.want)
		}
	}
}

// Generations are six bits: the 64th new search comes back to generation 0.
func TestGenerationWraps(t *testing.T) {
	if got := unpack(pack(Entry{Gen: 64, Bound: BoundExact})).Gen; got != 0 {
		t.Errorf("generation 64 packs as %d, want 0", got)
	}
	if got := unpack(pack(Entry{Gen: 65, Bound: BoundExact})).Gen; got != 1 {
		t.Errorf("generation 65 packs as %d, want 1", got)
	}
	tt := newTestTable(t)
	for i := 1; i <= 64; i++ {
		tt.NewSearch()
		if want := uint8(i % 64); tt.gen != want {
			t.Fatalf("after %d new searches the generation is %d, want %d", i, tt.gen, want)
		}
	}
	// An entry of generation 63 seen from generation 0 is one search old:
	// it is replaced before a current entry of the same depth.
	tt.Clear()
	for range 63 {
		tt.NewSearch()
	}
	keys := bucketKeys(tt, 0, 5)
	tt.Store(keys[0], board.HoleMove(0, 1), 6, BoundExact, 1, 0, false) // generation 63
	tt.NewSearch()                                                      // generation 0
	for _, k := range keys[1:4] {
		tt.Store(k, board.HoleMove(0, 1), 6, BoundExact, 1, 0, false)
	}
	tt.Store(keys[4], board.HoleMove(0, 2), 6, BoundExact, 1, 0, false)
	if _, ok := tt.Probe(keys[0]); ok {
		t.Error("the entry of generation 63 survived a store in generation 0")
	}
	for _, k := range keys[1:] {
		if _, ok := tt.Probe(k); !ok {
			t.Errorf("key %#x of the current generation was replaced", k)
		}
	}
}

// newTestTable returns a 1 MiB table.
func newTestTable(t testing.TB) *Table {
	t.Helper()
	tt, err := NewTable(1)
	if err != nil {
		t.Fatal(err)
	}
	return tt
}

// bucketKeys returns n distinct keys of tt's bucket b: the bucket is chosen
// by a key's top bits.
func bucketKeys(tt *Table, b, n int) []uint64 {
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = uint64(b)<<tt.shift | uint64(i+1)*0x1234567
	}
	return keys
}

func TestProbeStore(t *testing.T) {
	m1, m2 := board.HoleMove(0, 1), board.HoleMove(1, 4)
	type store struct {
		newSearch bool // start a new search before this store
		move      board.Move
		depth     int
		bound     Bound
		score     Score
	}
	tests := []struct {
		name   string
		stores []store
		want   Entry // Gen is checked too
	}{
		{"one store", []store{{false, m1, 5, BoundExact, -300}},
			Entry{Move: m1, Depth: 5, Bound: BoundExact, Gen: 1, Score: -300, Eval: 17}},
		{"same key overwritten by a deeper result", []store{{false, m1, 5, BoundExact, 10}, {false, m2, 6, BoundLower, 20}},
			Entry{Move: m2, Depth: 6, Bound: BoundLower, Gen: 1, Score: 20, Eval: 17}},
		{"same key overwritten by a shallower exact result", []store{{false, m1, 12, BoundLower, 10}, {false, m2, 3, BoundExact, -20}},
			Entry{Move: m2, Depth: 3, Bound: BoundExact, Gen: 1, Score: -20, Eval: 17}},
		{"a much shallower bound keeps the deeper entry", []store{{false, m1, 12, BoundExact, 10}, {false, m2, 3, BoundUpper, -20}},
			Entry{Move: m1, Depth: 12, Bound: BoundExact, Gen: 1, Score: 10, Eval: 17}},
		{"a shallower lower bound keeps the deeper entry", []store{{false, m1, 12, BoundUpper, 10}, {false, m2, 2, BoundLower, 99}},
			Entry{Move: m1, Depth: 12, Bound: BoundUpper, Gen: 1, Score: 10, Eval: 17}},
		{"an old generation's deeper entry is overwritten", []store{{false, m1, 12, BoundExact, 10}, {true, m2, 3, BoundUpper, -20}},
			Entry{Move: m2, Depth: 3, Bound: BoundUpper, Gen: 2, Score: -20, Eval: 17}},
		{"the move is kept when the new result has none", []store{{false, m1, 5, BoundExact, 10}, {false, board.NoMove, 6, BoundUpper, -5}},
			Entry{Move: m1, Depth: 6, Bound: BoundUpper, Gen: 1, Score: -5, Eval: 17}},
		{"the move is kept across generations", []store{{false, m1, 5, BoundExact, 10}, {true, board.NoMove, 1, BoundUpper, -5}},
			Entry{Move: m1, Depth: 1, Bound: BoundUpper, Gen: 2, Score: -5, Eval: 17}},
		{"depth above 255 is clamped", []store{{false, m1, 300, BoundExact, 1}},
			Entry{Move: m1, Depth: 255, Bound: BoundExact, Gen: 1, Score: 1, Eval: 17}},
		{"negative depth is clamped", []store{{false, m1, -3, BoundLower, 1}},
			Entry{Move: m1, Depth: 0, Bound: BoundLower, Gen: 1, Score: 1, Eval: 17}},
		{"decisive scores", []store{{false, m1, 9, BoundExact, toTT(-KatroWin(11), 4)}},
			Entry{Move: m1, Depth: 9, Bound: BoundExact, Gen: 1, Score: toTT(-KatroWin(11), 4), Eval: 17}},
	}
	for _, tc := range tests {
		tt := newTestTable(t)
		tt.NewSearch()
		key := uint64(0xdeadbeef12345678)
		if _, ok := tt.Probe(key); ok {
			t.Fatalf("%s: an empty table has an entry", tc.name)
		}
		for _, s := range tc.stores {
			if s.newSearch {
				tt.NewSearch()
			}
			tt.Store(key, s.move, s.depth, s.bound, s.score, 17, false)
		}
		got, ok := tt.Probe(key)
		if !ok {
			t.Errorf("%s: no entry", tc.name)
			continue
		}
		if got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
		if _, ok := tt.Probe(key ^ 1); ok {
			t.Errorf("%s: a different key of the same bucket hits", tc.name)
		}
	}
}

// Replacement within a full bucket: the victim has the least depth less
// eight plies per generation of age, so deeper and current entries stay.
func TestReplacement(t *testing.T) {
	tt := newTestTable(t)
	tt.NewSearch()
	k := bucketKeys(tt, 7, 8)
	store := func(key uint64, depth int) {
		tt.Store(key, board.HoleMove(0, 0), depth, BoundExact, Score(depth), 0, false)
	}
	present := func(want map[uint64]bool, when string) {
		t.Helper()
		for key, w := range want {
			if _, ok := tt.Probe(key); ok != w {
				t.Errorf("%s: key %d present = %v, want %v", when, indexOf(k, key), ok, w)
			}
		}
	}
	store(k[0], 10)
	store(k[1], 3)
	store(k[2], 7)
	store(k[3], 9)
	present(map[uint64]bool{k[0]: true, k[1]: true, k[2]: true, k[3]: true}, "a filled bucket")

	store(k[4], 5) // the shallowest, k[1] at depth 3, goes
	present(map[uint64]bool{k[0]: true, k[1]: false, k[2]: true, k[3]: true, k[4]: true}, "same generation")

	tt.NewSearch()
	store(k[5], 1) // every old entry is worth depth-8; k[4] (5-8) is the least
	present(map[uint64]bool{k[0]: true, k[2]: true, k[3]: true, k[4]: false, k[5]: true}, "one generation later")

	store(k[6], 1) // old k[2] (7-8 = -1) goes before the current k[5] at depth 1
	present(map[uint64]bool{k[0]: true, k[2]: false, k[3]: true, k[5]: true, k[6]: true}, "current entries kept")

	tt.NewSearch()
	tt.NewSearch()
	for _, key := range []uint64{k[3], k[5], k[6]} {
		store(key, 1) // the same keys, rewritten in the current search
	}
	store(k[7], 0) // k[0] at depth 10 is now three searches old: 10-24
	present(map[uint64]bool{k[0]: false, k[3]: true, k[5]: true, k[6]: true, k[7]: true}, "deep but old")
}

func indexOf(keys []uint64, k uint64) int {
	for i, x := range keys {
		if x == k {
			return i
		}
	}
	return -1
}

func TestHashfull(t *testing.T) {
	tt := newTestTable(t)
	if got := tt.Hashfull(); got != 0 {
		t.Errorf("empty table: hashfull %d, want 0", got)
	}
	tt.NewSearch()
	fill := func(buckets int) {
		for b := range buckets {
			for _, k := range bucketKeys(tt, b, bucketSize) {
				tt.Store(k, board.HoleMove(0, 0), 4, BoundExact, 0, 0, false)
			}
		}
	}
	// Hashfull samples the first thousand entries: 250 buckets of four.
	fill(125)
	if got := tt.Hashfull(); got != 500 {
		t.Errorf("half the sample filled: hashfull %d, want 500", got)
	}
	fill(250)
	if got := tt.Hashfull(); got != 1000 {
		t.Errorf("the sample filled: hashfull %d, want 1000", got)
	}
	tt.NewSearch()
	if got := tt.Hashfull(); got != 0 {
		t.Errorf("entries of the previous search: hashfull %d, want 0", got)
	}
	fill(25)
	if got := tt.Hashfull(); got != 100 {
		t.Errorf("a tenth rewritten in the new search: hashfull %d, want 100", got)
	}
	tt.Clear()
	if got := tt.Hashfull(); got != 0 {
		t.Errorf("cleared: hashfull %d, want 0", got)
	}
}

func TestNewTable(t *testing.T) {
	tests := []struct {
		mib, want int // want 0: an error
	}{
		{MinHashMiB - 1, 0}, {-5, 0}, {MaxHashMiB + 1, 0},
		{1, 1}, {2, 2}, {3, 2}, {16, 16}, {17, 16}, {5, 4}, {DefaultHashMiB, DefaultHashMiB},
	}
	for _, tc := range tests {
		tt, err := NewTable(tc.mib)
		if tc.want == 0 {
			if err == nil {
				t.Errorf("NewTable(%d): no error", tc.mib)
			}
			continue
		}
		if err != nil {
			t.Errorf("NewTable(%d): %v", tc.mib, err)
			continue
		}
		n := len(tt.buckets)
		if n&(n-1) != 0 {
			t.Errorf("NewTable(%d): %d buckets, not a power of two", tc.mib, n)
		}
		if got := tt.SizeMiB(); got != tc.want {
			t.Errorf("NewTable(%d).SizeMiB() = %d, want %d", tc.mib, got, tc.want)
		}
		if bytes := n * bucketSize * entryBytes; bytes != tc.want<<20 {
			t.Errorf("NewTable(%d): %d bytes, want %d", tc.mib, bytes, tc.want<<20)
		}
		// The bucket index is the key's top bits: every bucket is reachable
		// and no key falls outside.
		if got := tt.bucket(^uint64(0)); got != &tt.buckets[n-1] {
			t.Errorf("NewTable(%d): the largest key does not map to the last bucket", tc.mib)
		}
	}
	if _, err := NewEngine(0); err == nil {
		t.Error("NewEngine(0): no error")
	}
	e, err := NewEngine(3)
	if err != nil {
		t.Fatal(err)
	}
	if e.HashMiB() != 2 {
		t.Errorf("NewEngine(3).HashMiB() = %d, want 2", e.HashMiB())
	}
	if err := e.SetHash(MaxHashMiB + 1); err == nil {
		t.Error("SetHash beyond the maximum: no error")
	}
	if err := e.SetHash(8); err != nil || e.HashMiB() != 8 {
		t.Errorf("SetHash(8): %v, size %d", err, e.HashMiB())
	}
}

func TestClear(t *testing.T) {
	tt := newTestTable(t)
	rng := rand.New(rand.NewPCG(1, 2))
	keys := make([]uint64, 2000)
	for i := range keys {
		keys[i] = rng.Uint64()
		tt.NewSearch()
		tt.Store(keys[i], board.HoleMove(0, 0), 3, BoundLower, 5, 0, false)
	}
	hits := 0
	for _, k := range keys {
		if _, ok := tt.Probe(k); ok {
			hits++
		}
	}
	if hits < len(keys)*9/10 {
		t.Fatalf("only %d of %d stored keys found before Clear", hits, len(keys))
	}
	tt.Clear()
	if tt.gen != 0 {
		t.Errorf("Clear left generation %d", tt.gen)
	}
	for _, k := range keys {
		if e, ok := tt.Probe(k); ok {
			t.Fatalf("key %#x found after Clear: %+v", k, e)
		}
	}
}

// BenchmarkTTProbe probes a 16 MiB table, half full, with keys of which
// half were stored.
func BenchmarkTTProbe(b *testing.B) {
	tt, err := NewTable(DefaultHashMiB)
	if err != nil {
		b.Fatal(err)
	}
	tt.NewSearch()
	rng := rand.New(rand.NewPCG(3, 4))
	entries := len(tt.buckets) * bucketSize
	keys := make([]uint64, 1<<16)
	for i := range entries / 2 {
		k := rng.Uint64()
		tt.Store(k, board.HoleMove(0, 0), i&31, BoundExact, Score(i&1023), 0, false)
		if i < len(keys)/2 {
			keys[2*i] = k
		}
	}
	for i := 1; i < len(keys); i += 2 {
		keys[i] = rng.Uint64()
	}
	b.ReportAllocs()
	hits, i := 0, 0
	for b.Loop() {
		if _, ok := tt.Probe(keys[i&(len(keys)-1)]); ok {
			hits++
		}
		i++
	}
	b.ReportMetric(float64(hits)/float64(i), "hits/probe")
}

// FuzzPackRoundTrip packs entries made of arbitrary field values, masked to
// their documented widths, and unpacks them.
func FuzzPackRoundTrip(f *testing.F) {
	f.Add(uint8(0), uint8(0), uint8(0), uint8(0), int16(0), int16(0))
	f.Add(uint8(0xff), uint8(255), uint8(3), uint8(63), int16(-32768), int16(32767))
	f.Add(uint8(0x2b), uint8(7), uint8(1), uint8(64), int16(-1), int16(-30990))
	f.Fuzz(func(t *testing.T, m, depth, bound, gen uint8, score, ev int16) {
		e := Entry{Move: board.Move(m), Depth: int(depth), Bound: Bound(bound & 3), Gen: gen & genMask, Score: Score(score), Eval: Score(ev)}
		d := pack(e)
		if got := unpack(d); got != e {
			t.Fatalf("unpack(pack(%+v)) = %+v", e, got)
		}
		if d>>56 != 0 {
			t.Fatalf("pack(%+v) = %#x: bits 56-63 are not zero", e, d)
		}
	})
}

func TestHashMemory(t *testing.T) {
	for _, tc := range []struct {
		meminfo string
		avail   int
		ok      bool
	}{
		{"MemTotal:       24576000 kB\nMemFree:         1000 kB\nMemAvailable:   20480000 kB\n", 20000, true},
		{"MemAvailable: 1024 kB\n", 1, true},
		{"MemTotal: 1 kB\n", 0, false},
		{"MemAvailable: lots kB\n", 0, false},
		{"", 0, false},
	} {
		avail, ok := parseMemAvailable([]byte(tc.meminfo))
		if avail != tc.avail || ok != tc.ok {
			t.Errorf("%q: %d, %v; want %d, %v", tc.meminfo, avail, ok, tc.avail, tc.ok)
		}
	}
	for _, tc := range []struct {
		mib, avail int
		fits       bool
	}{
		{16, 1000, true}, {16, 80, false}, {16, 92, true}, {16384, 20000, true}, {32768, 20000, false}, {30000, 20000, true}, {1, 0, false},
	} {
		if err := CheckHashMemory(tc.mib, tc.avail); (err == nil) != tc.fits {
			t.Errorf("CheckHashMemory(%d, %d) = %v, want fits %v", tc.mib, tc.avail, err, tc.fits)
		}
	}
	// This machine cannot spare the largest table: the size is refused
	// with an error, not a crash, where the available memory is known.
	if avail, ok := AvailableMiB(); ok && HashLimitMiB(avail) < MaxHashMiB {
		if _, err := NewTable(MaxHashMiB); err == nil {
			t.Errorf("NewTable(%d) with %d MiB available: no error", MaxHashMiB, avail)
		}
	}
	if _, err := allocBuckets(1 << 62); err == nil {
		t.Error("allocBuckets(2^62): no error")
	}
}
