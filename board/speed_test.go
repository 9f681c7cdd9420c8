package board_test

import (
	"testing"

	"github.com/sower-engine/sower/board"
)

// BenchmarkPerftCompare runs the same perft with the package and with the
// plain reference implementation, for the speed ratio the rules core
// promises (at least 15 times faster):
//
//	go test -run '^$' -bench PerftCompare ./board/
func BenchmarkPerftCompare(b *testing.B) {
	for _, c := range []struct {
		game  string
		depth int
	}{{board.NameKatro, 6}, {board.NameHoyito3, 6}} {
		v, _ := board.New(c.game)
		p := v.Start()
		ref := RefStart(c.game, RefRules{})
		var nodes uint64
		b.Run(c.game+"/package", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				nodes = p.Perft(c.depth)
			}
			b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
		})
		b.Run(c.game+"/reference", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				nodes = RefPerft(ref, c.depth)
			}
			b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
		})
	}
}
