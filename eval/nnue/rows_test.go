package nnue

import (
	"math/rand/v2"
	"testing"
)

// TestRowsEqualLoops checks the plain row operations, four lanes to a
// word, against int16 loops lane by lane on random rows (most sums wrap)
// and on rows at the edges of the int16 range.
func TestRowsEqualLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 26))
	edges := []int16{0, 1, -1, 2, -2, 0x7fff, -0x8000, 0x7ffe, -0x7fff, 0x4000, -0x4000}
	row := func(edge bool) [Hidden]int16 {
		var r [Hidden]int16
		for i := range r {
			if edge {
				r[i] = edges[rng.IntN(len(edges))]
			} else {
				r[i] = int16(rng.Uint32())
			}
		}
		return r
	}
	for i := range 4000 {
		edge := i%2 == 1
		acc, w, o := row(edge), row(edge), row(edge)
		for _, c := range []struct {
			name string
			fast func(a *[Hidden]int16)
			lane func(a, w, o int16) int16
		}{
			{"add", func(a *[Hidden]int16) { addRowPlain(a, &w) }, func(a, w, _ int16) int16 { return a + w }},
			{"sub", func(a *[Hidden]int16) { subRowPlain(a, &w) }, func(a, w, _ int16) int16 { return a - w }},
			{"subadd", func(a *[Hidden]int16) { subAddRowPlain(a, &o, &w) }, func(a, w, o int16) int16 { return a - o + w }},
		} {
			got := acc
			c.fast(&got)
			for k := range got {
				if want := c.lane(acc[k], w[k], o[k]); got[k] != want {
					t.Fatalf("%s lane %d: %d and %d (old %d) gave %d, want %d", c.name, k, acc[k], w[k], o[k], got[k], want)
				}
			}
		}
	}
}
