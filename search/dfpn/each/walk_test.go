package each

import (
	"context"
	"slices"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// TestWalk walks katro-4x4 positions with small budgets: at each step
// every move but the one walked loses, the next position is the one after
// that move and the opponent's try, the next level solves that position's
// moves, and each move's position asks first for the opponent's win,
// whatever First says. The walk stops for a reason, at the step limit at
// the latest.
func TestWalk(t *testing.T) {
	for _, c := range []struct {
		moves  string
		budget uint64
		walk   int
	}{
		{"a1 a4", 3000, 5},
		{"a1 a4", 3000, 1},
		{"d1 b4", 10000, 5},
	} {
		g := game(t, "katro-4x4", "", c.moves)
		at := g // the game whose moves are being solved
		var levels []Level
		var solved []board.Move // the moves answered at the current level
		cfg := Config{MaxNodes: c.budget, Walk: c.walk,
			First: func(p *board.Position) board.Side { return p.Side().Other() },
			Progress: func(m board.Move, pr dfpn.Progress) {
				if len(solved) == 0 || solved[len(solved)-1] != m {
					if p := at.Position(); pr.Attacker != p.Side().Other() {
						t.Errorf("%v: after %s the first question is %s's win, want the opponent's", c, m, pr.Attacker)
					}
					solved = append(solved, m)
				}
			},
			Walked: func(l Level) {
				p := at.Position()
				if !slices.Equal(solved, p.LegalMoves()) {
					t.Errorf("%v: the level solved %s, want %s", c, board.FormatMoves(solved), board.FormatMoves(p.LegalMoves()))
				}
				want := append(slices.Clone(at.Moves()), l.Step.Move, l.Step.Try)
				if tl := l.Tally; tl.Lost != tl.Moves-1 || !slices.Equal(tl.Open, []board.Move{l.Step.Move}) || !slices.Equal(l.Step.Next.Moves(), want) {
					t.Errorf("%v: a step %s %s from %+v to %s", c, l.Step.Move, l.Step.Try, tl, board.FormatMoves(l.Step.Next.Moves()))
				}
				levels = append(levels, l)
				at, solved = l.Step.Next, nil
			}}
		res, err := Run(context.Background(), solver(t), g, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(levels) == 0 || len(levels) > c.walk || res.Stop == NoStop || (res.Stop == Limit) != (len(levels) == c.walk) {
			t.Errorf("%v: %d steps, then stop %d", c, len(levels), res.Stop)
		}
		for i := 1; i < len(levels); i++ {
			if levels[i].Nodes <= levels[i-1].Nodes {
				t.Errorf("%v: the nodes so far fall from %d to %d", c, levels[i-1].Nodes, levels[i].Nodes)
			}
		}
		if res.Nodes <= levels[len(levels)-1].Nodes {
			t.Errorf("%v: %d nodes in all, %d before the last level", c, res.Nodes, levels[len(levels)-1].Nodes)
		}
	}
}

// TestWalkStops: the reasons a walk stops at a position, from its tally
// and the table.
func TestWalkStops(t *testing.T) {
	g := game(t, "katro-4x4", "", "")
	a1, b1, c1, d1 := board.HoleMove(0, 0), board.HoleMove(0, 1), board.HoleMove(0, 2), board.HoleMove(0, 3)
	none := board.NoMove
	for _, c := range []struct {
		name  string
		tally Tally
		want  Stop
	}{
		{"a move wins", Tally{Mover: board.South, Moves: 4, Winner: b1, Open: []board.Move{a1}}, Solved},
		{"every move loses", Tally{Mover: board.South, Moves: 4, Winner: none, Lost: 4}, Solved},
		{"a draw", Tally{Mover: board.South, Moves: 4, Winner: none, Lost: 2, Drawn: []board.Move{a1}, Open: []board.Move{b1}}, Draws},
		{"two open", Tally{Mover: board.South, Moves: 4, Winner: none, Lost: 2, Open: []board.Move{c1, d1}}, Splits},
		{"nothing in the table", Tally{Mover: board.South, Moves: 4, Winner: none, Lost: 3, Open: []board.Move{d1}}, NoTry},
	} {
		st, stop, err := walk(solver(t), g, &c.tally)
		if err != nil || stop != c.want || (stop == NoTry && st.Move != d1) {
			t.Errorf("%s: stop %d, step %+v, %v; want stop %d", c.name, stop, st, err, c.want)
		}
	}
}
