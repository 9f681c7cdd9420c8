// Tests that a search allocates nothing per node: the allocations of a
// search do not grow with its node budget. A search may allocate a constant
// amount when it starts and a copy of the principal variation for each
// progress report; what is left after the reports must be the same for a
// small and a large budget.

package search

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

// maxSearchAllocs bounds the allocations of a search apart from its
// reports; helper threads add maxHelperAllocs each (their context and
// goroutine).
const (
	maxSearchAllocs = 4
	maxHelperAllocs = 4
)

func TestAllocsPerNode(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation: allocations are counted without it")
	}
	for _, threads := range []int{1, 2} {
		t.Run(fmt.Sprintf("threads %d", threads), func(t *testing.T) { testAllocsPerNode(t, threads) })
	}
}

func testAllocsPerNode(t *testing.T, threads int) {
	budgets := []uint64{10_000, 200_000}
	runs := 3
	if testing.Short() {
		budgets, runs = []uint64{5_000, 50_000}, 1
	}
	// The small boards are solved within these budgets: their searches
	// end early. The last case probes (and prefetches) the 8-seed tables
	// from a 16-seed position.
	type allocCase struct {
		game string
		e    *Engine
		p    board.Position
	}
	var cases []allocCase
	for _, game := range []string{board.NameKatro, board.NameKatro4x6, board.NameHoyito3} {
		cases = append(cases, allocCase{game, newSteadyEngine(t), startPosition(t, game)})
	}
	for _, game := range []string{board.NameKatro, board.NameHoyito3} {
		cases = append(cases, allocCase{game + " with a network", netEngine(t, game), startPosition(t, game)})
	}
	te, _, v := tablesEngine(t)
	te.quietPeriod = time.Duration(math.MaxInt64)
	tp, err := v.ParsePosition("0,2,1,0,3,1/2,0,1,3,1,2 S 20 12 0")
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, allocCase{"hoyito3 with tables", te, tp})
	for _, c := range cases {
		game, p, e := c.game, c.p, c.e
		if err := e.SetThreads(threads); err != nil {
			t.Fatal(err)
		}
		limit := float64(maxSearchAllocs + maxHelperAllocs*(threads-1))
		// AllocsPerRun rounds its average down: one allocation either
		// way is allowed. With
		// helpers the main search's course, and so its few allocations
		// at the end (a one-move PV, a report without a line), vary too:
		// four are allowed. An allocation per node would make thousands.
		slack := 1.0
		if threads > 1 {
			slack = 4
		}
		var extra []float64
		for _, n := range budgets {
			reports, calls := 0, 0
			report := func(Info) {
				if calls > 1 { // not the warm-up run
					reports++
				}
			}
			var nodes, tbHits uint64
			allocs := testing.AllocsPerRun(runs, func() {
				calls++
				e.ClearHash()
				res, err := e.Search(context.Background(), p, nil, Limits{Nodes: n}, report)
				if err != nil {
					t.Fatal(err)
				}
				nodes, tbHits = res.Info.Nodes, res.Info.TBHits
			})
			if nodes < n {
				t.Fatalf("%s: the search ended after %d nodes, before its budget of %d", game, nodes, n)
			}
			if (e == te) != (tbHits > 0) {
				t.Fatalf("%s: %d table hits", game, tbHits)
			}
			// AllocsPerRun also makes one warm-up run, not counted.
			perSearch := float64(reports) / float64(runs)
			extra = append(extra, allocs-perSearch)
			t.Logf("%s, %d nodes: %.0f allocations, %.0f reports", game, n, allocs, perSearch)
		}
		for i, x := range extra {
			if x > limit+slack {
				t.Errorf("%s, %d nodes: %.1f allocations besides the reports, want at most %.0f", game, budgets[i], x, limit)
			}
		}
		if d := extra[1] - extra[0]; d > slack || d < -slack {
			t.Errorf("%s: %.1f allocations besides the reports for %d nodes, %.1f for %d", game, extra[0], budgets[0], extra[1], budgets[1])
		}
	}
}
