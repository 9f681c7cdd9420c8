package gui

import (
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// moveEval is the score a move's ply shows, from South's view: the
// score of the position after the move, made of the mover's search of
// the position before it (in). A Katro forced result counts the
// winner's moves to the end of the game, its winning move included, as
// the protocol's "mate N" does from the position searched: the mover's
// win in N moves is a win in N-1 once its move is played (in none, the
// game over, when N is 1), and the mover's loss in N stays a loss in N
// (its move was its longest defence). Every score on the page then
// counts from the position it is shown with, as a review's do.
func moveEval(in client.Info, mover board.Side) *evalMsg {
	e := southEval(in, mover)
	if e == nil || !in.IsMate || in.Mate <= 0 {
		return e
	}
	step := 1
	if *e.Mate < 0 {
		step = -1
	}
	n := *e.Mate - step
	if n == 0 {
		// The move ends the game: the side to move has lost.
		n, e.Lost = step, true
	}
	e.Mate = &n
	return e
}
