package review_test

import (
	"context"
	"fmt"

	"github.com/sower-engine/sower/bench/review"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search"
)

// A katro-6x3 game in which South's ninth ply throws away a proven win.
func ExampleReview() {
	v, _ := board.New(board.NameKatro6x3)
	g := board.NewGame(v.Start())
	ms, _ := v.ParseMoves("a1 a6 a1 c6 c1 b6 a1 a6 a1 a6")
	g.PlayAll(ms)
	eng, _ := search.NewEngine(16)
	res, _ := review.Review(context.Background(), g, review.Config{Engine: eng, Limits: search.Limits{Depth: 24}})
	ply := res.Plies[8]
	fmt.Printf("ply 9, %s: %s, lost %v; better %s\n", ms[8], ply.Mark, ply.Loss, ply.Best)
	fmt.Println(review.ThresholdsFor(board.Katro), review.ThresholdsFor(board.Hoyito))
	// Output:
	// ply 9, a1: blunder, lost 1; better b1
	// {0.05 0.1 0.15} {2 4 8}
}
