package search

import (
	"context"
	"testing"

	"github.com/sower-engine/sower/board"
)

// BenchmarkSearch searches the start position of each game to a fixed
// depth with a fresh table; nodes/s is the search speed:
//
//	go test -run '^$' -bench Search ./search/
func BenchmarkSearch(b *testing.B) {
	for _, c := range []struct {
		game  string
		depth int
	}{{board.NameKatro, 10}, {board.NameKatro4x6, 12}, {board.NameHoyito3, 14}} {
		v, _ := board.New(c.game)
		b.Run(c.game, func(b *testing.B) {
			e, _ := NewEngine(16)
			var nodes uint64
			b.ReportAllocs()
			for b.Loop() {
				e.ClearHash()
				res, _ := e.Search(context.Background(), v.Start(), nil, Limits{Depth: c.depth}, nil)
				nodes += res.Info.Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
