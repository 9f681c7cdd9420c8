package tables

import (
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

// ruleSets are the option sets the tests build, with a name.
var ruleSets = []struct {
	name  string
	rules board.Rules
}{
	{"default", board.DefaultRules()},
	{"opponent", board.Rules{CaptureSide: board.CaptureOpponent, NoCaptureLimit: 200}},
	{"last-four-south", board.Rules{LastFour: board.LastFourSouth, NoCaptureLimit: 200}},
	{"last-four-north-opponent", board.Rules{CaptureSide: board.CaptureOpponent, LastFour: board.LastFourNorth, NoCaptureLimit: 200}},
}

// agree compares the tables with the brute-force values of the positions
// given.
func agree(t *testing.T, tb *Tables, v *board.Variant, want map[bkey]bval, boards [][Holes]uint8, sides []board.Side) {
	t.Helper()
	bad := 0
	for i, c := range boards {
		p := position(t, v, &c, sides[i])
		e, ok := tb.Probe(&p)
		if !ok {
			t.Fatalf("%s: not in the tables", p)
		}
		w, ok := want[bkey{c: c, side: sides[i]}]
		if !ok {
			t.Fatalf("%s: not solved by the brute force", p)
		}
		if got := (bval{e.Lo, e.Hi, e.DistLo, e.DistHi, w.sl, w.sh}); got != w {
			if bad++; bad <= 5 {
				t.Errorf("%s: tables say lo %d hi %d distances %d %d; brute force %d %d distances %d %d",
					p, got.lo, got.hi, got.dlo, got.dhi, w.lo, w.hi, w.dlo, w.dhi)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d positions disagree", bad, len(boards))
	}
}

// TestTablesAgreeWithBruteForce builds every option set up to 12 seeds and
// compares every position of the 8-seed layer (both sides to move) and
// random positions of the 12-seed layer with the independent solver.
func TestTablesAgreeWithBruteForce(t *testing.T) {
	t.Parallel() // the package's three longest tests, side by side
	for _, rs := range ruleSets {
		t.Run(rs.name, func(t *testing.T) {
			// The 12-seed brute force solves most of the layer (under a
			// minute): the default set in a full run, none with
			// -short.
			top := 12
			if testing.Short() || rs.name != "default" {
				top = 8
			}
			tb, v := buildSet(t, rs.rules, top)
			b8 := bruteLayer(t, v, 8, nil, false)
			all := allBoards(8)
			for _, s := range []board.Side{board.South, board.North} {
				sides := make([]board.Side, len(all))
				for i := range sides {
					sides[i] = s
				}
				agree(t, tb, v, b8, all, sides)
			}
			if top < 12 {
				return
			}
			rng := rand.New(rand.NewPCG(12, uint64(len(rs.name))))
			const samples = 3000
			boards := make([][Holes]uint8, samples)
			sides := make([]board.Side, samples)
			starts := make([]board.Position, samples)
			for i := range boards {
				boards[i] = randomBoard(rng, 12)
				sides[i] = board.Side(rng.IntN(2))
				starts[i] = position(t, v, &boards[i], sides[i])
			}
			b12 := brute(t, starts, b8, false)
			t.Logf("12 seeds: %d sampled positions, %d solved by the brute force", samples, len(b12))
			agree(t, tb, v, b12, boards, sides)
		})
	}
}

// randomBoard returns a uniformly random board with n seeds.
func randomBoard(rng *rand.Rand, n int) [Holes]uint8 {
	c := unrank(rng.Uint64N(Positions(n)), n)
	return c
}

// TestMovesSatisfyTheRecursion checks each entry against its moves, made
// by the board package: Lo and Hi are the best of the moves' bounds, the
// distances are one more than the best move's, and a move keeps the value.
func TestMovesSatisfyTheRecursion(t *testing.T) {
	tb, v := buildSet(t, board.DefaultRules(), 12)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 3000; i++ {
		n := 8 + 4*rng.IntN(2)
		c := randomBoard(rng, n)
		p := position(t, v, &c, board.Side(rng.IntN(2)))
		e, ms, err := tb.Moves(&p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		lo, hi, keeps := -n, -n, 0
		dlo := 1000
		for _, m := range ms {
			lo, hi = max(lo, m.Entry.Lo), max(hi, m.Entry.Hi)
			if m.Keeps {
				keeps++
			}
		}
		for _, m := range ms {
			if m.Entry.Lo == lo && lo > -n {
				dlo = min(dlo, m.Entry.DistLo)
			}
		}
		if lo == -n {
			dlo = 0
		}
		if lo != e.Lo || hi != e.Hi || dlo != e.DistLo || keeps == 0 {
			t.Fatalf("%s: entry %+v; moves give lo %d hi %d distance %d, %d keep it: %+v", p, e, lo, hi, dlo, keeps, ms)
		}
	}
}
