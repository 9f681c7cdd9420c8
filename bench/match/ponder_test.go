package match

import (
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestPonderHit checks when the arbiter sends ponderhit: only when the
// expected reply is the one move played since the ponder began. In
// Hoyito III "a1 c2" is North's capture with an extra turn, so after
// "a1" the opponent plays two moves in a row; a ponder begun after "a1"
// on "c2" is hit by "c2" alone, not by a later move of the same name.
func TestPonderHit(t *testing.T) {
	v := variant(t, board.NameHoyito3)
	game := func(moves string) *board.Game {
		t.Helper()
		ms, err := v.ParseMoves(moves)
		if err != nil {
			t.Fatal(err)
		}
		g := board.NewGame(v.Start())
		if err := g.PlayAll(ms); err != nil {
			t.Fatal(err)
		}
		return g
	}
	p := game("a1 c2").Position()
	if p.Side() != board.North {
		t.Fatalf("after a1 c2: %v to move, want North's extra turn", p.Side())
	}
	second := p.LegalMoves()[0]
	for _, tc := range []struct {
		name  string
		pd    ponder
		moves string
		want  bool
	}{
		{"no ponder", ponder{}, "a1 c2", false},
		{"the expected reply", ponder{move: "c2", ply: 1}, "a1 c2", true},
		{"another reply", ponder{move: "d2", ply: 1}, "a1 c2", false},
		{"not yet answered", ponder{move: "c2", ply: 1}, "a1", false},
		{"two moves since, the last named as expected", ponder{move: second.String(), ply: 1}, "a1 c2 " + second.String(), false},
		{"two moves since, the first expected", ponder{move: "c2", ply: 1}, "a1 c2 " + second.String(), false},
	} {
		if got := tc.pd.hit(game(tc.moves)); got != tc.want {
			t.Errorf("%s: ponder %+v after %q: hit %v, want %v", tc.name, tc.pd, tc.moves, got, tc.want)
		}
	}
}
