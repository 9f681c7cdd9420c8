// Tests that a search allocates nothing per node: the allocations of a
// search do not grow with its node budget. A search may allocate a constant
// amount when it starts and a copy of the principal variation for each
// progress report; what is left after the reports must be the same for a
// small and a large budget.

package search

import (
	"context"
	"testing"

	"github.com/sower-engine/sower/board"
)

// maxSearchAllocs bounds the allocations of a search apart from its
// reports.
const maxSearchAllocs = 4

func TestAllocsPerNode(t *testing.T) {
	budgets := []uint64{10_000, 200_000}
	runs := 3
	if testing.Short() {
		budgets, runs = []uint64{5_000, 50_000}, 1
	}
	// The small boards are solved within these budgets: their searches
	// end early.
	for _, game := range []string{board.NameKatro, board.NameKatro4x6, board.NameHoyito3} {
		p := startPosition(t, game)
		e := newEngine(t)
		var extra []float64
		for _, n := range budgets {
			reports := 0
			report := func(Info) { reports++ }
			var nodes uint64
			allocs := testing.AllocsPerRun(runs, func() {
				e.ClearHash()
				res, err := e.Search(context.Background(), p, nil, Limits{Nodes: n}, report)
				if err != nil {
					t.Fatal(err)
				}
				nodes = res.Info.Nodes
			})
			if nodes < n {
				t.Fatalf("%s: the search ended after %d nodes, before its budget of %d", game, nodes, n)
			}
			// AllocsPerRun also makes one warm-up run.
			perSearch := float64(reports) / float64(runs+1)
			extra = append(extra, allocs-perSearch)
			t.Logf("%s, %d nodes: %.0f allocations, %.0f reports", game, n, allocs, perSearch)
		}
		for i, x := range extra {
			if x > maxSearchAllocs {
				t.Errorf("%s, %d nodes: %.1f allocations besides the reports, want at most %d", game, budgets[i], x, maxSearchAllocs)
			}
		}
		if extra[0] != extra[1] {
			t.Errorf("%s: %.1f allocations besides the reports for %d nodes, %.1f for %d", game, extra[0], budgets[0], extra[1], budgets[1])
		}
	}
}
