package tables

import (
	"flag"
	"testing"

	"github.com/sower-engine/sower/board"
)

var stopSeeds = flag.Int("stopseeds", 8, "TestStopAnywhere: the largest layer to solve (8 or 12; 12 takes about a minute)")

// TestStopAnywhere measures how much the stop-anywhere bounds of the brute
// force (bounds that hold wherever the repetition and no-capture rules end
// the cycling) add to the tables' bounds, and checks that the two kinds of
// bound agree: both hold for a position reached with a fresh clock and no
// history, so their intervals must meet, and the row margin kept by a stop
// at the position itself lies inside the stop-anywhere interval.
//
//	go test ./tables -run StopAnywhere -v -args -stopseeds 12
func TestStopAnywhere(t *testing.T) {
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	var lower map[bkey]bval
	for n := 8; n <= *stopSeeds; n += 4 {
		layer := bruteLayer(t, v, n, lower)
		var states, exact, exactBoth, tighter, gap, gapBoth, bad int
		for k, b := range layer {
			p := position(t, v, &k.c, k.side)
			if stop := rowMargin(&p); !k.passed && (b.sl > stop || b.sh < stop) {
				if bad++; bad <= 5 {
					t.Errorf("%s: row margin %d outside the stop-anywhere bounds [%d, %d]", p, stop, b.sl, b.sh)
				}
			}
			lo, hi := max(b.lo, b.sl), min(b.hi, b.sh)
			if lo > hi {
				if bad++; bad <= 5 {
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
