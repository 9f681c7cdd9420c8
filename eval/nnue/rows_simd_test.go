//go:build goexperiment.simd && amd64

package nnue

import (
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestSIMDEqualsPlain checks the vector loops against the plain ones on
// random rows, wrapping int16 sums included, and on accumulators of every
// sign and size.
func TestSIMDEqualsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	row := func() *[Hidden]int16 {
		var r [Hidden]int16
		for i := range r {
			r[i] = int16(rng.Uint32())
		}
		return &r
	}
	for range 1000 {
		acc, w, o := row(), row(), row()
		for _, c := range []struct {
			name       string
			vec, plain func(a *[Hidden]int16)
		}{
			{"add", func(a *[Hidden]int16) { addRow(a, w) }, func(a *[Hidden]int16) { addRowPlain(a, w) }},
			{"sub", func(a *[Hidden]int16) { subRow(a, w) }, func(a *[Hidden]int16) { subRowPlain(a, w) }},
			{"subadd", func(a *[Hidden]int16) { subAddRow(a, o, w) }, func(a *[Hidden]int16) { subAddRowPlain(a, o, w) }},
		} {
			x, y := *acc, *acc
			c.vec(&x)
			c.plain(&y)
			if x != y {
				t.Fatalf("%s: the vector loop differs from the plain one", c.name)
			}
		}
	}
	for _, f := range []board.Family{board.Katro, board.Hoyito} {
		name := board.NameKatro
		if f == board.Hoyito {
			name = board.NameHoyito3
		}
		m := model(t, name, 4)
		for range 1000 {
			us, them := row(), row()
			if got, want := m.propagate(us, them), m.propagatePlain(us, them); got != want {
				t.Fatalf("%s: vector layers %d, plain %d", name, got, want)
			}
			if got, want := m.propagate(us, them), m.net.propagate(us, them); got != want {
				t.Fatalf("%s: vector layers %d, definition %d", name, got, want)
			}
		}
	}
}
