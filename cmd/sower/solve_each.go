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
	// interrupted reports that Ctrl-C stopped the moves' searches.
	interrupted bool
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
// move is named), a loss if every one is the opponent's. With --walk N it
// then goes down the line that is left, up to N times (see walkStep).
// Ctrl-C stops at the move being searched; --save keeps the table either
// way.
func (c *cli) solveEach(ctx context.Context, s *dfpn.Solver, game *board.Game, o solveFlags) error {
	if o.walk > 0 {
		root := game.Position()
		if err := o.walkFirst(root.Side()); err != nil {
			return err
		}
		o.first = "mover"
	}
	s.SetMaxNodes(o.eachNodes)
	start := time.Now()
	var total uint64
	var verdicts []string // printed after the table is saved
	interrupted := false
	for level := 0; ; level++ {
		tally, moves, nodes, err := c.eachLevel(ctx, s, game, o)
		total += nodes
		if err != nil {
			return err
		}
		interrupted = tally.interrupted
		verdicts = append(verdicts, tally.verdict(moves, interrupted))
		if interrupted || o.walk == 0 {
			break
		}
		if level == o.walk {
			verdicts = append(verdicts, fmt.Sprintf("walk: stops: --walk %d reached", o.walk))
			break
		}
		next, why := walkStep(s, game, &tally, moves)
		if next == nil {
			verdicts = append(verdicts, "walk: stops: "+why)
			break
		}
		fmt.Fprintf(c.stdout, "%s, %d nodes, %d ms\nwalk: %s\n", verdicts[len(verdicts)-1], total, time.Since(start).Milliseconds(), why)
		verdicts = verdicts[:0]
		game = next
	}
	if o.save != "" {
		if err := c.saveTable(s, o.save); err != nil {
			return err
		}
	}
	// The last verdict carries the effort of the whole run: every level's
	// nodes and the time from the start, the table's saving included.
	effort := fmt.Sprintf("%d nodes, %d ms", total, time.Since(start).Milliseconds())
	for i, v := range verdicts {
		if i == 0 {
			v += ", " + effort
		}
		fmt.Fprintln(c.stdout, v)
	}
	if !interrupted {
		return nil
	}
	if o.save != "" {
		return interruptedf("after %d nodes: the table is saved to %s (--resume %s goes on)", total, o.save, o.save)
	}
	return interruptedf("after %d nodes", total)
}

// eachLevel solves the position after each legal move of game's position
// and prints a line for each: the tally, the number of legal moves and
// the nodes searched.
func (c *cli) eachLevel(ctx context.Context, s *dfpn.Solver, game *board.Game, o solveFlags) (eachTally, int, uint64, error) {
	root := game.Position()
	moves := root.LegalMoves()
	tally := eachTally{mover: root.Side(), winner: board.NoMove}
	var total uint64
	for i, m := range moves {
		child, err := after(game, m)
		if err != nil {
			return tally, len(moves), total, err
		}
		q := child.Position()
		report := func(pr dfpn.Progress) { c.dfpnProgress(m.String()+": ", pr) }
		res, err := s.SolveFirst(ctx, q, child.History(), o.firstAt(&q), report)
		total += res.Nodes
		effort := fmt.Sprintf("%d nodes, %d ms", res.Nodes, res.Time.Milliseconds())
		if errors.Is(err, context.Canceled) {
			fmt.Fprintf(c.stdout, "%s: interrupted, %s\n", m, effort)
			tally.open = append(tally.open, moves[i:]...)
			tally.interrupted = true
			break
		}
		if err != nil {
			return tally, len(moves), total, err
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
	return tally, len(moves), total, nil
}

// after returns a game of game's moves and then moves.
func after(game *board.Game, moves ...board.Move) (*board.Game, error) {
	g := board.NewGame(game.Start())
	if err := g.PlayAll(append(slices.Clone(game.Moves()), moves...)); err != nil {
		return nil, err // legal moves of a position reached by legal moves
	}
	return g, nil
}

// walkStep goes one step down the line a proof still waits on (--walk):
// when every move of the side to move but one is proven to lose, the
// opponent's win after that one move is what is left to prove, and the
// opponent's best try there (dfpn.Solver.BestTry: the nearest to proven
// in the table) leads to the next position of the same side to move. It
// returns that position's game and a line that names the two moves and
// the position, or nil and the reason the walk stops. The opponent's
// question must have been asked first at each move's position
// (walkFirst), so that the table holds its numbers.
func walkStep(s *dfpn.Solver, game *board.Game, t *eachTally, moves int) (*board.Game, string) {
	switch {
	case t.winner != board.NoMove || t.lost == moves || len(t.open) == 0:
		return nil, "the position is solved"
	case len(t.drawn) > 0:
		return nil, fmt.Sprintf("%s draws, so the opponent cannot win here (open: %s)", board.FormatMoves(t.drawn), board.FormatMoves(t.open))
	case len(t.open) > 1:
		return nil, fmt.Sprintf("the line splits (open: %s)", board.FormatMoves(t.open))
	}
	m := t.open[0]
	child, err := after(game, m)
	if err != nil {
		return nil, err.Error()
	}
	q := child.Position()
	attacker := t.mover.Other()
	try, pn, ok := s.BestTry(&q, attacker)
	if !ok {
		return nil, fmt.Sprintf("the table holds no open try of %s's after %s (each reply absent or disproven)", attacker, m)
	}
	next, err := after(game, m, try)
	if err != nil {
		return nil, err.Error()
	}
	if st := next.Status(); st.Over() {
		return nil, fmt.Sprintf("%s %s ends the game (%s)", m, try, st.Reason)
	}
	p := next.Position()
	return next, fmt.Sprintf("%s %s (%s's best try, pn %d): --moves %q, %s (%s to move)",
		m, try, attacker, pn, board.FormatMoves(next.Moves()), p.String(), p.Side())
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
