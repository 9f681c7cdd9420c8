package tables

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/sower-engine/sower/board"
)

// BenchmarkProbe probes random 8- and 12-seed positions of built tables
// (mapped files, in memory after the first touch).
func BenchmarkProbe(b *testing.B) {
	tb, v := buildSet(b, board.DefaultRules(), 12)
	rng := rand.New(rand.NewPCG(7, 8))
	ps := make([]board.Position, 4096)
	for i := range ps {
		c := randomBoard(rng, 8+4*rng.IntN(2))
		ps[i] = position(b, v, &c, board.Side(rng.IntN(2)))
	}
	b.ReportAllocs()
	b.ResetTimer()
	sum := 0
	for i := 0; i < b.N; i++ {
		e, _ := tb.Probe(&ps[i&4095])
		sum += e.Lo
	}
	_ = sum
}

// BenchmarkBuild12 builds the default tables up to 12 seeds.
func BenchmarkBuild12(b *testing.B) {
	opts := OptionsFor(board.DefaultRules())
	for i := 0; i < b.N; i++ {
		if err := Build(context.Background(), BuildConfig{Dir: b.TempDir(), Options: opts, Seeds: 12}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProbeDir probes random positions of the largest layer of the
// default tables in the directory named by SOWER_TABLES (skipped when it is
// not set): a probe from memory on a table much larger than the caches.
func BenchmarkProbeDir(b *testing.B) {
	dir := os.Getenv("SOWER_TABLES")
	if dir == "" {
		b.Skip("SOWER_TABLES is not set")
	}
	tb, err := Open(dir, board.DefaultRules())
	if err != nil {
		b.Fatal(err)
	}
	defer tb.Close()
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	ps := make([]board.Position, 1<<16)
	for i := range ps {
		c := randomBoard(rng, tb.Top())
		ps[i] = position(b, v, &c, board.Side(rng.IntN(2)))
	}
	for i := range ps { // touch every page once: from memory, not from disk
		tb.Probe(&ps[i])
	}
	b.ReportAllocs()
	b.ResetTimer()
	sum := 0
	for i := 0; i < b.N; i++ {
		e, _ := tb.Probe(&ps[i&(1<<16-1)])
		sum += e.Lo
	}
	_ = sum
}

// BenchmarkMemoryChase measures the machine's floor for a probe from
// memory: a chain of dependent random reads through 320 MiB (the size of
// the 20-seed layer), each read's address given by the one before, as a
// probe's is by its position. No layout of the entries can make a probe of
// a table this large much faster than one step of this chain.
func BenchmarkMemoryChase(b *testing.B) {
	const n = 80 << 20 // 80 Mi four-byte words
	next := make([]uint32, n)
	perm := rand.New(rand.NewPCG(11, 12)).Perm(n)
	for i := range n {
		next[perm[i]] = uint32(perm[(i+1)%n])
	}
	x := next[0]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x = next[x]
	}
	if x == n { // never true; keeps the chain from being optimized away
		b.Log(x)
	}
}
