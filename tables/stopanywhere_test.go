package tables

import (
	"flag"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

var stopSeeds = flag.Int("stopseeds", 8, "TestStopAnywhere: the largest layer to solve, 8 or 12 (12 takes about a minute)")

// TestStopAnywhere measures how much the stop-anywhere bounds of the brute
// force (bounds that hold wherever the repetition and no-capture rules end
// the cycling) add to the tables' bounds; the two kinds of bound both hold
// for a position reached with a fresh clock and no history, so their
// intervals must meet. TestStopAnywhereHolds checks the bounds against
// real games.
//
//	go test ./tables -run StopAnywhere -v -args -stopseeds 12
func TestStopAnywhere(t *testing.T) {
	if *stopSeeds != 8 && *stopSeeds != 12 {
		t.Fatalf("-stopseeds %d: want 8 or 12", *stopSeeds)
	}
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	var lower map[bkey]bval
	for n := 8; n <= *stopSeeds; n += 4 {
		layer := bruteLayer(t, v, n, lower, true)
		var states, exact, exactBoth, tighter, gap, gapBoth, bad int
		for k, b := range layer {
			lo, hi := max(b.lo, b.sl), min(b.hi, b.sh)
			if lo > hi {
				if bad++; bad <= 5 {
					p := position(t, v, &k.c, k.side)
					t.Errorf("%s: the tables' bounds [%d, %d] and the stop-anywhere bounds [%d, %d] do not meet",
						p, b.lo, b.hi, b.sl, b.sh)
				}
			}
			states++
			if b.lo == b.hi {
				exact++
			}
			if lo == hi {
				exactBoth++
			}
			if lo > b.lo || hi < b.hi {
				tighter++
			}
			gap += b.hi - b.lo
			gapBoth += hi - lo
		}
		t.Logf("%d seeds, %d states: exact %d (%.2f%%), with the stop-anywhere bounds %d (%.2f%%); "+
			"%d intervals narrower; mean width %.2f -> %.2f",
			n, states, exact, 100*float64(exact)/float64(states), exactBoth, 100*float64(exactBoth)/float64(states),
			tighter, float64(gap)/float64(states), float64(gapBoth)/float64(states))
		lower = layer
	}
}

// TestStopAnywhereHolds plays out random 8-seed positions exhaustively
// under a no-capture limit of a few plies, following repetition and the
// limit as the rules do, and checks that the value lies within the
// stop-anywhere bounds, and within each of the tables' bounds whose
// distance the limit leaves time for.
func TestStopAnywhereHolds(t *testing.T) {
	const limit = 6
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	r := v.Rules()
	r.NoCaptureLimit = limit
	short, err := v.WithRules(r)
	if err != nil {
		t.Fatal(err)
	}
	layer := bruteLayer(t, v, 8, nil, true)
	rng := rand.New(rand.NewPCG(8, limit))
	stopped, boundsUsed, tight := 0, 0, 0
	for range 200 {
		c := randomBoard(rng, 8)
		side := board.Side(rng.IntN(2))
		b := layer[bkey{c: c, side: side}]
		p := position(t, short, &c, side)
		me := p.Side()
		val := historyValue(p, nil) - (p.Captured(me) - p.Captured(me.Other()))
		if val < b.sl || val > b.sh {
			t.Errorf("%s: value %d with a no-capture limit of %d, outside the stop-anywhere bounds [%d, %d]",
				p, val, limit, b.sl, b.sh)
		}
		if b.dlo <= limit && val < b.lo || b.dhi <= limit && val > b.hi {
			t.Errorf("%s: value %d with a no-capture limit of %d, outside the tables' bounds [%d, %d] (distances %d, %d)",
				p, val, limit, b.lo, b.hi, b.dlo, b.dhi)
		}
		if val == b.sl || val == b.sh {
			tight++
		}
		if val > b.lo && val < b.hi {
			stopped++ // decided by the limit or repetition, inside the bounds
		}
		if b.dlo <= limit || b.dhi <= limit {
			boundsUsed++
		}
	}
	t.Logf("200 positions: %d values strictly inside the tables' bounds, %d with a table bound in reach, %d on a stop-anywhere bound",
		stopped, boundsUsed, tight)
	if stopped == 0 || boundsUsed == 0 {
		t.Errorf("the sample tests too little: %d values strictly inside the tables' bounds, %d with a bound in reach", stopped, boundsUsed)
	}
}

// historyValue returns the final margin for p's side to move with best
// play, by an exhaustive search that ends the game exactly as the rules
// do, repetition (against hist, the keys of the positions before p since
// the game began) and the no-capture limit included.
func historyValue(p board.Position, hist []uint64) int {
	me := p.Side()
	if st := p.Status(hist); st.Over() {
		return st.Seeds[me] - st.Seeds[me.Other()]
	}
	hist = append(hist, p.Key())
	best := math.MinInt
	for _, m := range p.LegalMoves() {
		c := p
		c.Play(m)
		val := historyValue(c, hist)
		if c.Side() != me {
			val = -val
		}
		best = max(best, val)
	}
	return best
}
