package review

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
	"github.com/sower-engine/sower/search"
)

// blunderGame is a katro-6x3 game in which South's ninth ply, a1, throws
// away a proven win: South to move after the first eight plies wins with
// b1 or c1 and loses after a1, to North's a6 (checked with the solver in
// TestKnownBlunder).
const blunderGame = "a1 a6 a1 c6 c1 b6 a1 a6 a1 a6"

// game plays moves in variant name.
func game(t *testing.T, name, moves string) *board.Game {
	t.Helper()
	v, err := board.New(name)
	if err != nil {
		t.Fatal(err)
	}
	g := board.NewGame(v.Start())
	ms, err := v.ParseMoves(moves)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.PlayAll(ms); err != nil {
		t.Fatal(err)
	}
	return g
}

// reviewGame reviews g at depth with one thread.
func reviewGame(t *testing.T, g *board.Game, lim search.Limits) *Result {
	t.Helper()
	eng, err := search.NewEngine(16)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Review(context.Background(), g, Config{Engine: eng, Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete() {
		t.Fatalf("%d of %d plies reviewed", len(res.Plies), len(g.Moves()))
	}
	return res
}

// solved returns the proven result of p for its side to move: 1 a win,
// 0 a draw, -1 a loss, by the solver (MTD(f), not the review's search).
func solved(t *testing.T, p board.Position, history []uint64) int {
	t.Helper()
	res, err := search.Solve(context.Background(), p, search.SolveConfig{History: history, HashMiB: 16}, nil)
	if err != nil || res.Lo != res.Hi {
		t.Fatalf("solve %s: bounds %d %d, %v", p.String(), res.Lo, res.Hi, err)
	}
	return res.Lo
}

// TestKnownBlunder reviews a game with a known blunder: the ply that
// throws away a proven win is a blunder, with a better move that the
// solver proves keeps the win, and its line.
func TestKnownBlunder(t *testing.T) {
	g := game(t, board.NameKatro6x3, blunderGame)
	// The solver's word on the blunder: after a1, North (to move) wins;
	// after b1 and after c1, North loses.
	after := func(m string) int {
		g := game(t, board.NameKatro6x3, "a1 a6 a1 c6 c1 b6 a1 a6 "+m)
		return solved(t, g.Position(), g.History())
	}
	if after("a1") != 1 || after("b1") != -1 || after("c1") != -1 {
		t.Fatalf("the position is not what the test needs: a1 %d, b1 %d, c1 %d", after("a1"), after("b1"), after("c1"))
	}
	res := reviewGame(t, g, search.Limits{Depth: 24})
	ply := res.Plies[8]
	if ply.Mark != Blunder || (ply.Best != "b1" && ply.Best != "c1") || len(ply.Line) == 0 || ply.Line[0] != ply.Best {
		t.Fatalf("ply 9 (a1): %+v, want a blunder with b1 or c1 and its line", ply)
	}
	// After a1 North mates: the score after it is a proven North win.
	if ply.Mate == nil || *ply.Mate >= 0 || !ply.Proven || ply.Loss != 1 {
		t.Errorf("ply 9: score after %v (mate %v), proven %v, loss %v: want a proven North win and a loss of 1", ply.CP, ply.Mate, ply.Proven, ply.Loss)
	}
	if last := res.Plies[9]; last.Mark != Best || last.CP != nil || last.Mate != nil || !last.Proven {
		t.Errorf("ply 10 (the mate): %+v, want best, proven, no score", last)
	}
	c := res.Counts()
	if c[board.South][Blunder] < 1 || sum(c[board.South])+sum(c[board.North]) != len(g.Moves()) {
		t.Errorf("counts %v", c)
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, x := range m {
		n += x
	}
	return n
}

// TestMarksOnRealGames reviews short games of random and greedy play in
// both families and checks the marks against the review's own scores,
// recomputed here: the loss of every ply whose scores before and after are
// estimates is the drop of the mover's value between them (the win/draw/
// loss model's expected score in Katro, the margin in Hoyito III); a move
// that lost nothing is best or good; every other mark is the thresholds'
// (or worse, for a proven result given up), with a better move.
func TestMarksOnRealGames(t *testing.T) {
	for _, name := range []string{board.NameKatro4x4, board.NameHoyito3} {
		v, _ := board.New(name)
		rng := rand.New(rand.NewPCG(5, 9))
		g := board.NewGame(v.Start())
		for g.Ply() < 16 && !g.Status().Over() {
			p := g.Position()
			ms := p.LegalMoves()
			if len(ms) == 0 {
				ms = []board.Move{board.Pass}
			}
			if err := g.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		res := reviewGame(t, g, search.Limits{Depth: 6})
		f := v.Family()
		th := ThresholdsFor(f)
		p := g.Start()
		checked, marks := 0, map[string]int{}
		for i, pr := range res.Plies {
			m := g.Moves()[i]
			marks[pr.Mark]++
			mover := p.Side()
			p, _ = p.After(m)
			switch {
			case pr.Mark == Best && pr.Best != "":
				t.Errorf("%s ply %d: best with a better move %s", name, i+1, pr.Best)
			case pr.Mark != Best && pr.Mark != Good && (pr.Best == "" || pr.Best == m.String() || len(pr.Line) == 0):
				t.Errorf("%s ply %d (%s): %s without a better move: %+v", name, i+1, m, pr.Mark, pr)
			case pr.Mark == Good && pr.Loss >= th.Inaccuracy:
				t.Errorf("%s ply %d: good with a loss of %v", name, i+1, pr.Loss)
			}
			if pr.Mark != Best && pr.Mark != Good && pr.Mark != th.Mark(pr.Loss) && !pr.Proven && (i == 0 || !res.Plies[i-1].Proven) {
				t.Errorf("%s ply %d: %s with a loss of %v", name, i+1, pr.Mark, pr.Loss)
			}
			if pr.Mark == Best && pr.Loss != 0 {
				t.Errorf("%s ply %d: best with a loss of %v", name, i+1, pr.Loss)
			}
			if i == 0 || pr.Mark == Best || pr.CP == nil || res.Plies[i-1].CP == nil || pr.Proven || res.Plies[i-1].Proven {
				continue
			}
			want := max(0, southValue(f, *res.Plies[i-1].CP, mover)-southValue(f, *pr.CP, mover))
			if math.Abs(want-pr.Loss) > 0.0015 {
				t.Errorf("%s ply %d: loss %v, the scores before (%d) and after (%d) give %v", name, i+1, pr.Loss, *res.Plies[i-1].CP, *pr.CP, want)
			}
			checked++
		}
		t.Logf("%s: %d plies, marks %v, %d losses recomputed", name, len(res.Plies), marks, checked)
		if checked < 4 || marks[Best] == len(res.Plies) {
			t.Errorf("%s: %d losses recomputed, marks %v: the game tests too little", name, checked, marks)
		}
		if !slices.Contains(Marks(), res.Plies[0].Mark) {
			t.Errorf("%s: mark %q", name, res.Plies[0].Mark)
		}
	}
}

// southValue is the value to side s of a score cp from South's view,
// computed from the model's formula: Katro the expected score W + D/2
// (per mille, rounded as the protocol's forecast is), Hoyito III seeds.
func southValue(f board.Family, cp int, s board.Side) float64 {
	if s == board.North {
		cp = -cp
	}
	if f == board.Hoyito {
		return float64(cp) / 100
	}
	w := eval.BuiltinWDL(f).PerMille(cp)
	return (float64(w.Win) + float64(w.Draw)/2) / 1000
}

// TestReviewStopped checks that a cancelled review returns the plies
// reviewed before it stopped, and the context's error.
func TestReviewStopped(t *testing.T) {
	g := game(t, board.NameKatro6x3, blunderGame)
	eng, _ := search.NewEngine(16)
	ctx, cancel := context.WithCancel(context.Background())
	res, err := Review(ctx, g, Config{Engine: eng, Limits: search.Limits{Depth: 8}, Progress: func(p Progress) {
		if p.Done == 4 {
			cancel()
		}
	}})
	if err != context.Canceled || len(res.Plies) != 3 || res.Complete() {
		t.Fatalf("err %v, %d plies", err, len(res.Plies))
	}
}
