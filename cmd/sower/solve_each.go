package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// eachTally is what the positions after the root's moves, solved one by
// one, prove of the root, whose side to move is mover.
type eachTally struct {
	mover  board.Side
	winner board.Move // the first move to a position the mover wins, if any
	lost   int        // moves to positions the opponent wins
	drawn  []board.Move
	open   []board.Move // not proven, or not searched
}

// verdict returns the line that says what the tally proves of the root,
// of moves legal moves, the search interrupted or not. A win found before
// Ctrl-C still proves the root; the moves not searched are left without
// their values.
func (t *eachTally) verdict(moves int, interrupted bool) string {
	v := t.proves(moves)
	if !interrupted {
		return v
	}
	if rest, ok := strings.CutPrefix(v, "not solved: "); ok {
		return "interrupted: " + rest
	}
	return v + "; interrupted before every move's value"
}

// proves returns what the tally proves of the root.
func (t *eachTally) proves(moves int) string {
	switch {
	case t.winner != board.NoMove:
		return fmt.Sprintf("solved: a win for the side to move (%s wins by %s)", t.mover, t.winner)
	case t.lost == moves:
		return fmt.Sprintf("solved: a loss for the side to move (every move of %s loses)", t.mover)
	case len(t.open) == 0:
		return fmt.Sprintf("solved: a draw (no move of %s wins; %s draw)", t.mover, board.FormatMoves(t.drawn))
	}
	return fmt.Sprintf("not solved: %d of %d moves lose, open: %s", t.lost, moves, board.FormatMoves(t.open))
}

// solveEach solves the position after each of the root's legal moves in
// turn (all of them, for each move's value, even once one wins), on s's
// one table (so that what one proves serves the next), each question
// limited to --each-nodes nodes, and says what they prove of the root: a
// win for the side to move if one of them is its win (the first such
// move is named), a loss if every one is the opponent's. Ctrl-C stops at
// the move being searched; --save keeps the table either way.
func (c *cli) solveEach(ctx context.Context, s *dfpn.Solver, game *board.Game, o solveFlags) error {
	root := game.Position()
	moves := root.LegalMoves()
	s.SetMaxNodes(o.eachNodes)
	tally := eachTally{mover: root.Side(), winner: board.NoMove}
	start := time.Now()
	var total uint64
	interrupted := false
	for i, m := range moves {
		child := board.NewGame(game.Start())
		if err := child.PlayAll(append(slices.Clone(game.Moves()), m)); err != nil {
			return err // a legal move of a position reached by legal moves
		}
		q := child.Position()
		first, err := o.firstAt(&q)
		if err != nil {
			return err
		}
		res, err := s.SolveFirst(ctx, q, child.History(), first, c.dfpnProgress(m.String()+": "))
		total += res.Nodes
		effort := fmt.Sprintf("%d nodes, %d ms", res.Nodes, res.Time.Milliseconds())
		if errors.Is(err, context.Canceled) {
			fmt.Fprintf(c.stdout, "%s: interrupted, %s\n", m, effort)
			tally.open = append(tally.open, moves[i:]...)
			interrupted = true
			break
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "%s: %s, %s\n", m, eachResult(res), effort)
		switch {
		case res.Outcome == dfpn.Draw:
			tally.drawn = append(tally.drawn, m)
		case res.Outcome != dfpn.Win && res.Outcome != dfpn.Loss:
			tally.open = append(tally.open, m)
		case res.Winner == tally.mover:
			if tally.winner == board.NoMove {
				tally.winner = m
			}
		default:
			tally.lost++
		}
	}
	if o.save != "" {
		if err := c.saveTable(s, o.save); err != nil {
			return err
		}
	}
	effort := fmt.Sprintf("%d nodes, %d ms", total, time.Since(start).Milliseconds())
	fmt.Fprintf(c.stdout, "%s, %s\n", tally.verdict(len(moves), interrupted), effort)
	if !interrupted {
		return nil
	}
	if o.save != "" {
		return interruptedf("after %d nodes: the table is saved to %s (--resume %s goes on)", total, o.save, o.save)
	}
	return interruptedf("after %d nodes", total)
}

// checkEach refuses --each at a finished position, before the table is
// made or read.
func checkEach(game *board.Game) error {
	if st := game.Status(); st.Over() {
		p := game.Position()
		return fmt.Errorf("--each: the game is over at %s (%s): no move to solve", p.String(), st.Reason)
	}
	return nil
}

// eachResult describes the result of one move's position.
func eachResult(res dfpn.Result) string {
	switch res.Outcome {
	case dfpn.Win, dfpn.Loss:
		return fmt.Sprintf("%s wins in at most %d plies", res.Winner, res.Plies)
	case dfpn.Draw:
		return "a draw (neither side can force a win)"
	}
	if res.OutOfNodes {
		return "not proven within --each-nodes"
	}
	return "not proven: the disproofs rest on the game's history or the depth bound"
}
