package gui

import (
	"math"
	"testing"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/review/marks"
	"github.com/sower-engine/sower/board"
)

// TestMoveAccuracy checks the accuracy of a move against lichess's
// formula: 100 for the engine's own move or no loss, about 50 for a drop
// of 15 points (Katro's blunder threshold, Hoyito III's 6 seeds), and the
// mean of each side's moves.
func TestMoveAccuracy(t *testing.T) {
	for _, c := range []struct {
		f    board.Family
		pr   record.MoveReview
		want float64
	}{
		{board.Katro, record.MoveReview{Mark: marks.Best, Loss: 0.3}, 100},
		{board.Katro, record.MoveReview{Mark: marks.Good, Loss: 0}, 100},
		{board.Katro, record.MoveReview{Mark: marks.Blunder, Loss: 0.15}, 51.5},
		{board.Katro, record.MoveReview{Mark: marks.Blunder, Loss: 1}, 0},
		{board.Hoyito, record.MoveReview{Mark: marks.Blunder, Loss: 6}, 51.5},
	} {
		if got := moveAccuracy(c.f, c.pr); math.Abs(got-c.want) > 0.1 {
			t.Errorf("%v %+v: accuracy %.2f, want %.1f", c.f, c.pr, got, c.want)
		}
	}
	v, _ := board.New(board.NameKatro4x4)
	ms, _ := v.ParseMoves("a1 a4 b1")
	acc := accuracies(board.Katro, v.Start(), ms, []record.MoveReview{{Mark: marks.Best}, {Mark: marks.Blunder, Loss: 1}, {Mark: marks.Blunder, Loss: 0.15}})
	if acc[0] == nil || acc[1] == nil || math.Abs(*acc[0]-(100+moveAccuracy(board.Katro, record.MoveReview{Loss: 0.15}))/2) > 1e-9 || *acc[1] != 0 {
		t.Errorf("accuracies %v %v", acc[0], acc[1])
	}
	if acc := accuracies(board.Katro, v.Start(), ms, nil); acc[0] != nil || acc[1] != nil {
		t.Errorf("no review: accuracies %v", acc)
	}
}

// TestAverageLosses checks each side's average loss: the mean of its
// moves' losses in the page's unit (points of win chance in Katro, seeds
// in Hoyito III), the engine's own move counting none.
func TestAverageLosses(t *testing.T) {
	v, _ := board.New(board.NameKatro4x4)
	ms, _ := v.ParseMoves("a1 a4 b1 b4")
	plies := []record.MoveReview{{Mark: marks.Best, Loss: 0.02}, {Mark: marks.Blunder, Loss: 0.5}, {Mark: marks.Mistake, Loss: 0.12}, {Mark: marks.Good, Loss: 0.01}}
	avg := averageLosses(board.Katro, v.Start(), ms, plies)
	if avg[0] == nil || avg[1] == nil || math.Abs(*avg[0]-6) > 1e-9 || math.Abs(*avg[1]-25.5) > 1e-9 {
		t.Errorf("Katro average losses %v %v, want 6 (0 and 12 points) and 25.5 (50 and 1)", avg[0], avg[1])
	}
	h, _ := board.New(board.NameHoyito3)
	hs, _ := h.ParseMoves("a1")
	avg = averageLosses(board.Hoyito, h.Start(), hs, []record.MoveReview{{Mark: marks.Mistake, Loss: 5}})
	if avg[0] == nil || *avg[0] != 5 || avg[1] != nil {
		t.Errorf("Hoyito III average losses %v %v, want 5 seeds for South, none for North", avg[0], avg[1])
	}
}
