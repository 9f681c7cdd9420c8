package campaign

import (
	"context"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestStuckLine searches katro-4x6 after f1 (North wins, a hard proof)
// briefly (300,000 nodes; 60,000 under -short, which the race detector
// runs), and checks the line stuckLine gives: every position on it
// carries the root's proof number, and it ends where the number is no
// longer carried by one child (a position of South with several open
// replies, or of North whose best try has another number).
func TestStuckLine(t *testing.T) {
	g, s := afterMove(t, "f1", 64)
	root := g.Position()
	budget := uint64(300_000)
	if testing.Short() {
		budget = 60_000
	}
	if _, _, err := s.ProveWithin(context.Background(), root, g.History(), board.North, budget, nil); err != nil {
		t.Fatal(err)
	}
	c := &campaign{cfg: Config{Winner: board.North}, s: s}
	line := c.stuckLine(root)
	if len(line) == 0 {
		t.Fatalf("no line: want at least North's best try")
	}
	open := func(p board.Position) []board.Move {
		var out []board.Move
		for _, m := range p.LegalMoves() {
			q := p
			q.Play(m)
			if pn, _, ok := s.Numbers(&q, board.North); !ok || pn != 0 {
				out = append(out, m)
			}
		}
		return out
	}
	p := root
	for _, m := range line {
		if p.Side() == board.North {
			if best, _, _ := s.BestTry(&p, board.North); best != m {
				t.Fatalf("%s: %s, want the best try %s", p.String(), m, best)
			}
		} else if o := open(p); len(o) != 1 || o[0] != m {
			t.Fatalf("%s: %s, want the one open reply of %v", p.String(), m, o)
		}
		p.Play(m)
	}
	if p.Side() != board.South || len(open(p)) < 2 {
		t.Errorf("the line ends at %s with open replies %v: want South to move with several", p.String(), open(p))
	}
	t.Logf("line %s (%d plies)", board.FormatMoves(line), len(line))
}
