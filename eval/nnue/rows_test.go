package nnue

import (
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
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

// TestPlainLayersEqualDefinition checks propagatePlain against the
// network's definition on accumulators of every sign and size (most of
// them outside the clipping range), both families.
func TestPlainLayersEqualDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 3))
	edges := []int16{0, 1, -1, QA - 1, QA, QA + 1, 0x7fff, -0x8000}
	for _, name := range []string{board.NameKatro, board.NameHoyito3} {
		m := model(t, name, 5)
		for i := range 3000 {
			var us, them [Hidden]int16
			for k := range Hidden {
				switch i % 3 {
				case 0:
					us[k], them[k] = int16(rng.Uint32()), int16(rng.Uint32())
				case 1:
					us[k], them[k] = int16(rng.IntN(600)-300), int16(rng.IntN(600)-300)
				default:
					us[k], them[k] = edges[rng.IntN(len(edges))], edges[rng.IntN(len(edges))]
				}
			}
			if got, want := m.propagatePlain(&us, &them), m.net.propagate(&us, &them); got != want {
				t.Fatalf("%s: plain layers %d, definition %d (us %v, them %v)", name, got, want, us, them)
			}
		}
	}
}

// TestPositive checks the positive-value mask against a comparison per
// value.
func TestPositive(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for range 2000 {
		var a [Hidden]int16
		for k := range a {
			a[k] = []int16{0, 1, -1, 0x7fff, -0x8000, int16(rng.Uint32())}[rng.IntN(6)]
		}
		got := positive(&a)
		for k, x := range a {
			if want := x > 0; (got>>k&1 == 1) != want {
				t.Fatalf("value %d (%d): bit %d, want positive %v", k, x, got>>k&1, want)
			}
		}
	}
}
