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
