package match

import (
	"context"
	"testing"

	"github.com/sower-engine/sower/board"
)

// The greedy player takes the move with the best seed balance, and
// breaks ties at random. In the first Katro 4x4 position (from board's
// rule tests) only b1 captures (4 seeds); in the second no move captures,
// and greedy plays both a1 and d1 over a range of seeds.
func TestGreedy(t *testing.T) {
	v := variant(t, board.NameKatro4x4)
	for _, tc := range []struct {
		pos   string
		gains map[string]int // every legal move's gain in seeds
		want  []string       // the moves greedy plays over 20 seeds
	}{
		{"18,0,0,0/0,2,0,0/1,0,0,0/1,1,9,0 S 0", map[string]int{"a1": 0, "b1": 4, "c1": 0}, []string{"b1"}},
		{"0,0,0,3/1,0,0,0/0,0,0,1/26,0,0,1 S 0", map[string]int{"a1": 0, "d1": 0}, []string{"a1", "d1"}},
	} {
		p, err := v.ParsePosition(tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		legal := p.LegalMoves()
		if len(legal) != len(tc.gains) {
			t.Fatalf("%s: legal moves %s, want those of %v", tc.pos, board.FormatMoves(legal), tc.gains)
		}
		for _, m := range legal {
			c, _ := p.After(m)
			if d, ok := tc.gains[m.String()]; !ok || c.Balance(board.South)-p.Balance(board.South) != d {
				t.Fatalf("%s: %s gains %d seeds, want %d", tc.pos, m, c.Balance(board.South)-p.Balance(board.South), d)
			}
		}
		played := map[string]bool{}
		for seed := range uint64(20) {
			played[newGreedy(seed).move(context.Background(), board.NewGame(p)).String()] = true
		}
		if len(played) != len(tc.want) {
			t.Errorf("%s: greedy plays %v over 20 seeds, want %v", tc.pos, played, tc.want)
		}
		for _, m := range tc.want {
			if !played[m] {
				t.Errorf("%s: greedy plays %v over 20 seeds, want %v", tc.pos, played, tc.want)
			}
		}
	}
}

// The random player plays legal moves, and more than one of them.
func TestRandomPlaysLegalMoves(t *testing.T) {
	v := variant(t, board.NameKatro)
	g := board.NewGame(v.Start())
	p := g.Position()
	seen := map[string]bool{}
	r := newRandom(1)
	for range 200 {
		m := r.move(context.Background(), g)
		if _, err := p.After(m); err != nil {
			t.Fatalf("random plays %s: %v", m, err)
		}
		seen[m.String()] = true
	}
	if len(seen) < 2 {
		t.Errorf("random played only %v in 200 draws", seen)
	}
}

// Random openings are distinct, not over, and as many as asked when there
// are enough; the same seed gives the same openings.
func TestRandomOpenings(t *testing.T) {
	v := variant(t, board.NameHoyito3)
	a := randomOpenings(v, 30, 4, 9)
	b := randomOpenings(v, 30, 4, 9)
	if len(a) != 30 {
		t.Fatalf("%d openings, want 30", len(a))
	}
	seen := map[string]bool{}
	for i, p := range a {
		if p.String() != b[i].String() {
			t.Errorf("opening %d differs between two runs: %s, %s", i, p, b[i])
		}
		if seen[p.String()] {
			t.Errorf("opening %d repeats %s", i, p)
		}
		seen[p.String()] = true
		if p.Status(nil).Over() {
			t.Errorf("opening %d is over: %s", i, p)
		}
	}
}
