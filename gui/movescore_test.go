package gui

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
	"github.com/sower-engine/sower/search"
)

// ForcedWins are Katro positions with a forced win that the solver
// proves at once: katro-4x4, South to move wins with its 5th move, and
// North to move wins with its 4th.
var ForcedWins = []string{"0,6,0,1/8,1,8,5/0,0,0,0/0,0,1,2 S 0", "9,2,0,2/8,1,3,0/1,1,1,1/1,1,1,0 N 0"}

// SolvedMate is the solver's forced result of p, from South's view, in
// the page's count: the winner's moves to the end of the game, its
// winning move included (positive when South wins); false when the game
// is over or p is not a proven win within 20 plies. Solve proves a win
// at the depth d of the game's end (or one ply later, where the loser
// has no move left to play); the winner moves last, so it makes (d+1)/2
// of those plies when it is to move, d/2 when it is not, either way.
func SolvedMate(t testing.TB, p *board.Position) (int, bool) {
	t.Helper()
	if p.Status(nil).Over() {
		return 0, false
	}
	r, err := search.Solve(context.Background(), *p, search.SolveConfig{HashMiB: 16, MaxDepth: 20}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Lo != r.Hi || r.Lo == 0 {
		return 0, false
	}
	n := r.Depth / 2
	if r.Lo > 0 {
		n = (r.Depth + 1) / 2
	}
	if (r.Lo > 0) != (p.Side() == board.South) {
		n = -n
	}
	return n, true
}

// TestMoveEvalCountsAsTheSolver plays out positions with a forced win,
// each side as fast or as slowly as the solver says it can: the mover's
// own count before its move (the protocol's mate, from the solver)
// becomes, on the ply, the count the solver gives the position after
// the move, or the game over.
func TestMoveEvalCountsAsTheSolver(t *testing.T) {
	v, err := board.New(board.NameKatro4x4)
	if err != nil {
		t.Fatal(err)
	}
	for _, fen := range ForcedWins {
		p, err := v.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		south, ok := SolvedMate(t, &p)
		for ok {
			mover := p.Side()
			mate := south // the mover's view, as the engine reports it
			if mover == board.North {
				mate = -south
			}
			var in client.Info
			in.Parse(fmt.Sprintf("info depth 9 score mate %d", mate))
			got := moveEval(in, mover)
			// The winner's fastest move, the loser's slowest.
			winner := 1
			if south < 0 {
				winner = -1
			}
			var best board.Position
			var want *evalMsg
			for _, m := range p.LegalMoves() {
				q := p
				q.Play(m)
				if st := q.Status(nil); st.Over() {
					if w, _ := st.Result.Winner(); (w == board.South) == (winner > 0) {
						best, want = q, &evalMsg{Mate: &winner, Lost: true}
						break
					}
					continue
				}
				n, proven := SolvedMate(t, &q)
				if !proven || n*winner <= 0 {
					continue
				}
				if want == nil || (mate > 0) == (abs(n) < abs(*want.Mate)) {
					best, want = q, &evalMsg{Mate: &n}
				}
			}
			b, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			if string(b) != string(w) {
				t.Errorf("%s, then %s: the ply shows %s, the solver gives %s", p.String(), best.String(), b, w)
			}
			p = best
			south, ok = SolvedMate(t, &p)
		}
	}
}

func abs(n int) int { return max(n, -n) }

// TestMoveEval: a mover's win is one move nearer once its move is
// played, its loss as near; other scores as southEval.
func TestMoveEval(t *testing.T) {
	for _, c := range []struct {
		line  string
		mover board.Side
		want  string
	}{
		{"info depth 9 score mate 3", board.South, `{"mate":2}`},
		{"info depth 9 score mate 3", board.North, `{"mate":-2}`},
		{"info depth 9 score mate 1", board.North, `{"mate":-1,"lost":true}`},
		{"info depth 9 score mate -2", board.South, `{"mate":-2}`},
		{"info depth 9 score mate -2", board.North, `{"mate":2}`},
		{"info depth 5 score cp 35", board.North, `{"cp":-35}`},
	} {
		var in client.Info
		in.Parse(c.line)
		b, _ := json.Marshal(moveEval(in, c.mover))
		if string(b) != c.want {
			t.Errorf("%q by %v: %s, want %s", c.line, c.mover, b, c.want)
		}
	}
}
