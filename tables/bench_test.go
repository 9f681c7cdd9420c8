package tables

import (
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
	for i := 0; i < b.N; i++ {
		buildSet(b, board.DefaultRules(), 12)
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
