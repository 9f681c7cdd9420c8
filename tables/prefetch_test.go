package tables

import (
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestPrefetch prefetches positions in and out of the tables (more seeds
// than the top layer, both halves of a fixed set, the last entry of a
// layer) and checks that a prefetch reads nothing out of range
// and changes no probe.
func TestPrefetch(t *testing.T) {
	for _, rs := range []int{0, 2} { // capturer (one half) and south (two)
		tb, v := buildSet(t, ruleSets[rs].rules, 8)
		rng := rand.New(rand.NewPCG(3, uint64(rs)))
		// Every seed in the first hole of the side to move's row is the
		// last board of the layer in rank order, for either side.
		var southLast, northLast [Holes]uint8
		southLast[0], northLast[Row] = 8, 8
		boards := [][Holes]uint8{southLast, northLast}
		for range 2000 {
			boards = append(boards, randomBoard(rng, 8+4*rng.IntN(3)))
		}
		for _, c := range boards {
			for _, s := range []board.Side{board.South, board.North} {
				p := position(t, v, &c, s)
				before, in := tb.Probe(&p)
				tb.Prefetch(&p)
				after, inAfter := tb.Probe(&p)
				if before != after || in != inAfter {
					t.Fatalf("%s: probe %+v %v before the prefetch, %+v %v after", p, before, in, after, inAfter)
				}
				if want := p.OnBoard() == 8; in != want {
					t.Fatalf("%s: in the tables %v, want %v", p, in, want)
				}
			}
		}
	}
}

// TestLastRank checks that the board with every seed in the first cell
// ranks last, as TestPrefetch assumes.
func TestLastRank(t *testing.T) {
	var c cells
	c[0] = 8
	if got, want := rank(&c), Positions(8)-1; got != want {
		t.Fatalf("rank of the board with 8 seeds in cell 0 = %d, want %d", got, want)
	}
}
