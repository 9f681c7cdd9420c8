package tables

import (
	"math/rand/v2"
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
