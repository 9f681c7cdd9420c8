package each

import (
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// Step is a walk's step: the one move left open, and the opponent's best
// try after it.
type Step struct {
	Move, Try board.Move
	// PN is the try's proof number in the table (0: proven).
	PN uint32
	// Next is the game after Move and Try.
	Next *board.Game
}

// Stop says why a walk stopped.
type Stop uint8

// The reasons.
const (
	// NoStop: the walk did not stop: none was asked, or the search was
	// interrupted.
	NoStop Stop = iota
	// Solved: the position is solved.
	Solved
	// Draws: a move draws, so the opponent cannot win there.
	Draws
	// Splits: two or more moves are open.
	Splits
	// NoTry: the table holds no open try of the opponent's after the
	// open move (Step.Move): every reply is absent or disproven.
	NoTry
	// GameOver: the try ends the game (Step.Move, Try and Next).
	GameOver
	// Limit: Config.Walk steps were taken.
	Limit
)

// walk returns the step down the line a proof still waits on from game's
// position, whose moves' tally is t: when every move of the side to move
// but one is proven to lose, the opponent's win after that one move is
// what is left to prove, and the opponent's best try there
// (dfpn.Solver.BestTry: the nearest to proven in the table) leads to the
// next position of the same side to move. It returns the step and NoStop,
// or why the walk stops there. The opponent's question must have
// been asked first at each move's position, so that the table holds its
// numbers.
func walk(s *dfpn.Solver, game *board.Game, t *Tally) (Step, Stop, error) {
	switch {
	case t.Outcome() != dfpn.Unknown:
		return Step{}, Solved, nil
	case len(t.Drawn) > 0:
		return Step{}, Draws, nil
	case len(t.Open) > 1:
		return Step{}, Splits, nil
	}
	st := Step{Move: t.Open[0]}
	child, err := after(game, st.Move)
	if err != nil {
		return st, NoStop, err
	}
	q := child.Position()
	var ok bool
	if st.Try, st.PN, ok = s.BestTry(&q, t.Mover.Other()); !ok {
		return st, NoTry, nil
	}
	if st.Next, err = after(game, st.Move, st.Try); err != nil {
		return st, NoStop, err
	}
	if next := st.Next.Status(); next.Over() {
		return st, GameOver, nil
	}
	return st, NoStop, nil
}
