package bench

import (
	"context"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search"
)

// BenchmarkSpeed compares, on the bench positions of each variant, the
// search's nodes per second with perft's positions made per second (every
// move made, interior and leaf, to depth 5): the search should run at a
// third of the perft rate or better. The search's rate is taken from its
// own clock, so clearing the table between positions is not counted.
//
//	go test -run '^$' -bench Speed ./bench/
func BenchmarkSpeed(b *testing.B) {
	for _, name := range board.Names() {
		var ps []board.Position
		for _, c := range Positions() {
			if c.Game != name {
				continue
			}
			v, _ := board.New(c.Game)
			p, err := v.ParsePosition(c.FEN)
			if err != nil {
				b.Fatal(err)
			}
			ps = append(ps, p)
		}
		b.Run(name+"/perft", func(b *testing.B) {
			b.ReportAllocs()
			var made uint64
			for b.Loop() {
				for _, p := range ps {
					for d := 1; d <= 5; d++ {
						made += p.Perft(d)
					}
				}
			}
			b.ReportMetric(float64(made)/b.Elapsed().Seconds(), "positions/s")
		})
		b.Run(name+"/search", func(b *testing.B) {
			e, err := search.NewEngine(search.DefaultHashMiB)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var nodes uint64
			var spent time.Duration
			for b.Loop() {
				for _, p := range ps {
					e.ClearHash()
					res, _ := e.Search(context.Background(), p, nil, search.Limits{Nodes: 200000}, nil)
					nodes += res.Info.Nodes
					spent += res.Info.Time
				}
			}
			b.ReportMetric(float64(nodes)/spent.Seconds(), "nodes/s")
		})
	}
}
