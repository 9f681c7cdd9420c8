package tables

import (
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestRankOrder walks every board of small layers with next and checks that
// the ranks are 0, 1, 2, … and that unrank inverts rank.
func TestRankOrder(t *testing.T) {
	for _, n := range []int{0, 1, 4, 8, 12} {
		c := unrank(0, n)
		var r uint64
		for {
			if got := rank(&c); got != r {
				t.Fatalf("%d seeds: board %v has rank %d, want %d", n, c, got, r)
			}
			if u := unrank(r, n); u != c {
				t.Fatalf("%d seeds: unrank(%d) = %v, want %v", n, r, u, c)
			}
			if c.total() != n {
				t.Fatalf("board %v holds %d seeds, want %d", c, c.total(), n)
			}
			r++
			if !next(&c) {
				break
			}
		}
		if r != Positions(n) {
			t.Fatalf("%d seeds: %d boards, want C(%d, 11) = %d", n, r, n+11, Positions(n))
		}
	}
}

// TestRankLarge checks the ranks of random boards of the largest layers.
func TestRankLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{20, 24, 36, 48} {
		for i := 0; i < 1000; i++ {
			r := rng.Uint64N(Positions(n))
			c := unrank(r, n)
			if got := rank(&c); got != r || c.total() != n {
				t.Fatalf("%d seeds: unrank(%d) = %v ranks %d", n, r, c, got)
			}
		}
	}
	if Positions(20) != 84672315 || Positions(24) != 417225900 {
		t.Fatalf("Positions(20) = %d, Positions(24) = %d", Positions(20), Positions(24))
	}
}

// TestSowAgreesWithBoard plays every move of random positions with both
// sowing codes, for both CaptureSide options and both sides to move.
func TestSowAgreesWithBoard(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, cs := range []board.CaptureSide{board.CaptureAny, board.CaptureOpponent} {
		v, err := board.NewWithRules(board.NameHoyito3, board.Rules{CaptureSide: cs, NoCaptureLimit: 200})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 20000; i++ {
			n := 8 + 4*rng.IntN(6)
			abs := randomBoard(rng, n)
			side := board.Side(rng.IntN(2))
			p := position(t, v, &abs, side)
			var c cells
			for k := range c {
				c[k] = abs[(k+Row*int(side))%Holes]
			}
			for h := 0; h < Row; h++ {
				if c[h] == 0 {
					continue
				}
				m := board.HoleMove(int(side), h)
				if side == board.North {
					m = board.HoleMove(1, Row-1-h)
				}
				q := p
				legal := q.Play(m)
				d := c
				out := sow(&d, h, cs == board.CaptureAny)
				if legal != (out != endless) {
					t.Fatalf("%s %s: board legal %v, tables outcome %d", p, m, legal, out)
				}
				if !legal {
					continue
				}
				if (q.Side() == side) != (out == capture) {
					t.Fatalf("%s %s: board capture %v, tables outcome %d", p, m, q.Side() == side, out)
				}
				if out == quiet {
					d = d.rotate()
				}
				qc := keyOf(&q).c
				var want cells
				for k := range want {
					want[k] = qc[(k+Row*int(q.Side()))%Holes]
				}
				if q.OnBoard() > 0 && d != want {
					t.Fatalf("%s %s: board gives %v, tables %v", p, m, want, d)
				}
			}
		}
	}
}
