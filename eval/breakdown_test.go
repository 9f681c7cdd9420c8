package eval

import (
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestBreakdownMultipliesOut checks that every line of the learned
// evaluation's breakdown but the hole values multiplies out: its score is
// its exact weight times the side to move's value minus the opponent's,
// truncated toward zero, computed here from the middle-game and end-game
// weights directly; and that the truncated weight, which the eval command
// once showed, does not (4 × 94.5 is 378, not 4 × 94 = 376).
func TestBreakdownMultipliesOut(t *testing.T) {
	truncatedWrong := 0
	for _, name := range []string{board.NameKatro, board.NameHoyito3} {
		v, _ := board.New(name)
		w := BuiltinParams(v)
		e := NewLearned(v, &w)
		for _, p := range randomPositions(v, 20, 11) {
			var a Active
			e.Features(&p, &a)
			lines := e.Breakdown(&p)
			if last := lines[len(lines)-1]; last.Name != HoleValuesTerm {
				t.Fatalf("%s: last line %q, want %q", name, last.Name, HoleValuesTerm)
			}
			for i, tv := range lines[:len(lines)-1] {
				me, opp := tv.South, tv.North
				if p.Side() == board.North {
					me, opp = opp, me
				}
				d := me - opp
				num := int64(w.MG[i])*int64(a.Phase) + int64(w.EG[i])*int64(PhaseMax-a.Phase)
				if tv.ExactWeight*PhaseMax != float64(num) {
					t.Fatalf("%s %s %s: exact weight %v, want %d/64", name, p.String(), tv.Name, tv.ExactWeight, num)
				}
				if want := int(num * int64(d) / PhaseMax); tv.Score != want || int(tv.ExactWeight*float64(d)) != want {
					t.Fatalf("%s %s %s: score %d, exact weight %v × %d, want %d", name, p.String(), tv.Name, tv.Score, tv.ExactWeight, d, want)
				}
				if tv.Weight*d != tv.Score {
					truncatedWrong++
				}
			}
		}
	}
	if truncatedWrong == 0 {
		t.Error("the truncated weights multiply out on every line: the positions test nothing")
	}
}
