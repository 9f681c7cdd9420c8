package eval_test

import (
	"fmt"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
)

// The breakdown lists every term for both sides, its weight and its share
// of the score of the side to move; here for the hand-made evaluation.
func ExampleEvaluator_Breakdown() {
	v, _ := board.New(board.NameHoyito3)
	p, _ := v.ParsePosition("8,1,1,1,7,7/0,8,2,7,2,0 N 0 4 0")
	e := eval.NewWithWeights(v, eval.DefaultWeights(v.Family()))
	total := 0
	for _, t := range e.Breakdown(&p) {
		fmt.Printf("%-8s S %2d N %2d weight %3d score %4d\n", t.Name, t.South, t.North, t.Weight, t.Score)
		total += t.Score
	}
	fmt.Println(total == e.Evaluate(&p))
	// Output:
	// captured S  0 N  4 weight 100 score  400
	// row      S 19 N 25 weight   8 score   48
	// threes   S  0 N  0 weight  30 score    0
	// moves    S  4 N  6 weight   4 score    8
	// true
}

// The learned evaluation with the hand-made weights scores as the
// hand-made evaluation; the built-in weights add the tables, threats,
// tempo and phase.
func ExampleNewLearned() {
	v, _ := board.New(board.NameKatro)
	p, _ := v.ParsePosition("4,1,5,0,1,5/1,0,7,3,0,9/0,4,7,3,2,0/0,2,2,1,1,1/0,1,1,3,1,1/1,1,1,1,1,1 N 0")
	hand := eval.NewWithWeights(v, eval.DefaultWeights(v.Family()))
	hp := eval.HandParams(v.Family())
	fmt.Println(hand.Evaluate(&p) == eval.NewLearned(v, &hp).Evaluate(&p))
	// South holds 20 of the 72 seeds: the phase is 64 × 20 / 36.
	var a eval.Active
	hand.Features(&p, &a)
	fmt.Println("phase", a.Phase, "of", eval.PhaseMax)
	// Output:
	// true
	// phase 35 of 64
}
