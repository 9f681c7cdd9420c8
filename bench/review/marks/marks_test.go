package marks

import (
	"testing"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
)

func TestMove(t *testing.T) {
	k := ThresholdsFor(board.Katro)
	cases := []struct {
		name          string
		loss          float64
		before, after Outcome
		want          string
	}{
		{"nothing lost", 0, Unproven, Unproven, Good},
		{"just under an inaccuracy", 0.049, Unproven, Unproven, Good},
		{"an inaccuracy", 0.05, Unproven, Unproven, Inaccuracy},
		{"a mistake", 0.1, Unproven, Unproven, Mistake},
		{"a blunder", 0.2, Unproven, Unproven, Blunder},
		{"a proven win thrown into a proven loss", 0, ProvenWin, ProvenLoss, Blunder},
		{"a proven win into a proven draw", 0.01, ProvenWin, ProvenDraw, Blunder},
		{"a proven draw into a proven loss", 0, ProvenDraw, ProvenLoss, Blunder},
		{"a proven win given up for an estimate", 0, ProvenWin, Unproven, Mistake},
		{"a proven win given up, and a blunder by the figures", 0.3, ProvenWin, Unproven, Blunder},
		{"a proven win kept", 0, ProvenWin, ProvenWin, Good},
	}
	for _, c := range cases {
		if got := Move(k, c.loss, c.before, c.after); got != c.want {
			t.Errorf("%s: Move(%v, %v, %v) = %s, want %s", c.name, c.loss, c.before, c.after, got, c.want)
		}
	}
}

func TestJudge(t *testing.T) {
	f := board.Katro
	th := ThresholdsFor(f)
	// South to move with a proven win; after South's move North to move
	// with a proven win for North.
	before := View{Side: board.South, Value: 1, Outcome: ProvenWin, Move: "b1", Line: []string{"b1", "a6"}}
	after := View{Side: board.North, Value: 1, Outcome: ProvenWin, Depth: 9}
	r := Judge(f, th, &before, &after, "a1")
	if r.Mark != Blunder || r.Loss != 1 || r.Best != "b1" || len(r.Line) != 2 || r.Depth != 9 {
		t.Errorf("a1 after a proven win: %+v, want a blunder losing 1 with better b1 b1 a6", r)
	}
	if r := Judge(f, th, &before, &after, "b1"); r.Mark != Best || r.Loss != 0 || r.Best != "" {
		t.Errorf("the engine's own move: %+v, want best, nothing lost", r)
	}
	// Hoyito III: values are margins in seeds for the side to move.
	h := ThresholdsFor(board.Hoyito)
	hb := View{Side: board.North, Value: 3, Move: "c2"}
	ha := View{Side: board.South, Value: 2.5}
	if r := Judge(board.Hoyito, h, &hb, &ha, "a2"); r.Mark != Mistake || r.Loss != 5.5 || r.Best != "c2" {
		t.Errorf("a Hoyito III move from +3 to -2.5: %+v, want a mistake losing 5.5", r)
	}
}

func TestCounts(t *testing.T) {
	v, err := board.New(board.NameKatro6x3)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := v.ParseMoves("a1 a6 a1")
	if err != nil {
		t.Fatal(err)
	}
	plies := []record.MoveReview{{Mark: Best}, {Mark: Blunder}, {Mark: Best}}
	c := Counts(v.Start(), ms, plies)
	if c[board.South][Best] != 2 || c[board.North][Blunder] != 1 || c[board.North][Best] != 0 {
		t.Errorf("Counts = %v", c)
	}
}
