package nnue

import (
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

// BenchmarkUpdate brings an accumulator along random games, a move at a
// time, under each policy: the cost of following a move, relay sowing
// included. The changed-holes metric is the mean number of holes whose
// bucket a move changed.
func BenchmarkUpdate(b *testing.B) {
	for _, name := range []string{board.NameKatro, board.NameHoyito3} {
		m := model(b, name, 1)
		rng := rand.New(rand.NewPCG(5, 5))
		var ps []board.Position
		for len(ps) < 2000 {
			ps = append(ps, randomGame(m.v, rng, 300)...)
		}
		for _, pc := range []struct {
			name string
			pol  Policy
		}{{"auto", Auto}, {"incremental", Incremental}, {"refresh", Refresh}} {
			b.Run(name+"/"+pc.name, func(b *testing.B) {
				b.ReportAllocs()
				var a Accumulator
				changed, i := 0, 0
				for b.Loop() {
					changed += m.UpdateWith(&a, &ps[i], pc.pol)
					if i++; i == len(ps) {
						i = 0
					}
				}
				b.ReportMetric(float64(changed)/float64(b.N), "changed-holes")
			})
		}
	}
}

// BenchmarkEvaluate measures the layers after the accumulator: the
// model's (with GOEXPERIMENT=simd, vectors), the plain loop's (transposed
// weights, zero inputs skipped) and the definition's.
func BenchmarkEvaluate(b *testing.B) {
	m := model(b, board.NameKatro, 1)
	p := m.v.Start()
	var a Accumulator
	m.Refresh(&a, &p)
	us, them := &a.v[board.South], &a.v[board.North]
	zero := 0
	for _, x := range append(us[:], them[:]...) {
		if x <= 0 {
			zero++
		}
	}
	for _, c := range []struct {
		name string
		f    func(us, them *[Hidden]int16) int
	}{{"model", m.propagate}, {"plain", m.propagatePlain}, {"definition", m.net.propagate}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			s := 0
			for b.Loop() {
				s += c.f(us, them)
			}
			b.ReportMetric(float64(zero), "zero-inputs")
		})
	}
}
