package dfpn

import (
	"time"

	"github.com/sower-engine/sower/board"
)

// Answer is one question's end, as Decide reads it: the attacker's win
// proven (Bounds.PN 0, with its plies and, where the attacker moves at
// the root and it is known, the proving Move), disproven (Bounds.DN 0;
// Bounds.OnPath when the disproof holds only for the history given, and
// so proves nothing of the root), or neither (the question's budget ran
// out); and the nodes it searched.
type Answer struct {
	Bounds
	Move  board.Move
	Nodes uint64
}

// Decide decides root as SolveFirst does, one question at a time, each
// answered by ask, on this machine or elsewhere: first's win, then, if
// that is disproven without resting on the history, the other side's;
// both disproven is a draw. A question left open ends with Unknown and
// OutOfNodes. An error from ask ends it with that error and what was
// searched so far.
func Decide(root board.Position, first board.Side, ask func(attacker board.Side) (Answer, error)) (Result, error) {
	start := time.Now()
	var res Result
	for _, attacker := range [2]board.Side{first, first.Other()} {
		a, err := ask(attacker)
		res.Nodes += a.Nodes
		res.Time = time.Since(start)
		switch {
		case err != nil:
			return res, err
		case a.PN != 0 && a.DN != 0:
			res.OutOfNodes = true
			return res, nil
		case a.PN == 0:
			res.Winner, res.Plies, res.Move = attacker, a.Plies, a.Move
			res.Outcome = Win
			if attacker != root.Side() {
				res.Outcome, res.Move = Loss, board.NoMove
			}
			return res, nil
		case a.OnPath:
			return res, nil
		}
	}
	res.Outcome = Draw
	return res, nil
}
