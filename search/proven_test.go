// Tests that the search solves the small Katro boards: from the start of
// katro-4x4 and katro-6x3 it proves the result within a node budget, and
// an independent memoised prover (reference_test.go) confirms the winner
// and the exact distance to the win.

package search

import (
	"context"
	"testing"

	"github.com/sower-engine/sower/board"
)

func TestSmallBoardsProven(t *testing.T) {
	if raceEnabled {
		t.Skip("one thread's result, some tenfold slower under the race detector: checked without it")
	}
	const budget = 5_000_000
	for _, name := range []string{board.NameKatro4x4, board.NameKatro6x3} {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && name == board.NameKatro4x4 {
				t.Skip("slow in -short mode")
			}
			v, err := board.New(name)
			if err != nil {
				t.Fatal(err)
			}
			e, err := NewEngine(16)
			if err != nil {
				t.Fatal(err)
			}
			start := v.Start()
			res, err := e.Search(context.Background(), start, nil, Limits{Nodes: budget}, nil)
			if err != nil {
				t.Fatal(err)
			}
			sc := res.Info.Score
			if !sc.Decisive() {
				t.Fatalf("not proven within %d nodes: %s after %d nodes", budget, sc.UCI(board.Katro), res.Info.Nodes)
			}
			plies := sc.MatePlies()
			t.Logf("%s: %s (%d plies), %s, %d nodes", name, sc.UCI(board.Katro), plies, res.Move, res.Info.Nodes)
			if plies+start.Clock() >= v.Rules().NoCaptureLimit {
				t.Fatalf("a win in %d plies reaches the no-capture limit: the prover cannot check it", plies)
			}

			// The prover must agree on the winner and the distance: the
			// side that wins does so within plies plies and not within
			// plies-2 (the winner moves every other ply).
			pr := newKatroProver()
			if sc > 0 {
				if !pr.wins(t, start, plies) {
					t.Errorf("the prover finds no win for the side to move within %d plies", plies)
				}
				if pr.wins(t, start, plies-2) {
					t.Errorf("the prover finds a win within %d plies already", plies-2)
				}
				// The engine's move is a winning move of the same length.
				if !pr.lost(t, after(t, start, res.Move), plies-1) {
					t.Errorf("after the engine's %s the opponent has not lost within %d plies", res.Move, plies-1)
				}
			} else {
				if !pr.lost(t, start, plies) {
					t.Errorf("the prover finds no forced loss for the side to move within %d plies", plies)
				}
				if pr.lost(t, start, plies-2) {
					t.Errorf("the prover finds a loss within %d plies already", plies-2)
				}
			}

			// A second search with other limits and a table of another size
			// proves the same result.
			e2, err := NewEngine(1)
			if err != nil {
				t.Fatal(err)
			}
			res2, err := e2.Search(context.Background(), start, nil, Limits{Depth: plies + 4, Nodes: 2 * budget}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res2.Info.Score != sc {
				t.Errorf("a second search reports %s, the first %s", res2.Info.Score.UCI(board.Katro), sc.UCI(board.Katro))
			}
		})
	}
}
