package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
	"github.com/sower-engine/sower/search/dfpn/each"
)

// solveEach solves the position after each of the root's legal moves in
// turn on s's one table (each.Run), each question limited to
// --each-nodes nodes, prints a line a move and says what they prove of
// the root. With --walk N it then goes down the line that is left, up to
// N times. Ctrl-C stops at the move being searched; --save keeps the
// table either way.
func (c *cli) solveEach(ctx context.Context, s *dfpn.Solver, game *board.Game, o solveFlags) error {
	if o.walk > 0 {
		root := game.Position()
		if err := o.walkFirst(root.Side()); err != nil {
			return err
		}
	}
	start := time.Now()
	res, err := each.Run(ctx, s, game, each.Config{
		MaxNodes: o.eachNodes,
		First:    o.firstAt,
		Walk:     o.walk,
		Progress: func(m board.Move, pr dfpn.Progress) { c.dfpnProgress(m.String()+": ", pr) },
		Answer:   c.eachAnswer,
		Walked: func(l each.Level) {
			fmt.Fprintf(c.stdout, "%s, %d nodes, %d ms\nwalk: %s\n", eachVerdict(&l.Tally, false), l.Nodes, time.Since(start).Milliseconds(), walkStep(&l))
		},
	})
	interrupted := errors.Is(err, context.Canceled)
	if err != nil && !interrupted {
		return err
	}
	if o.save != "" {
		if err := c.saveTable(s, o.save); err != nil {
			return err
		}
	}
	// The verdict carries the effort of the whole run: every level's
	// nodes and the time from the start, the table's saving included.
	fmt.Fprintf(c.stdout, "%s, %d nodes, %d ms\n", eachVerdict(&res.Tally, interrupted), res.Nodes, time.Since(start).Milliseconds())
	if why := walkStop(&res, o.walk); why != "" {
		fmt.Fprintf(c.stdout, "walk: stops: %s\n", why)
	}
	if !interrupted {
		return nil
	}
	if o.save != "" {
		return interruptedf("after %d nodes: the table is saved to %s (--resume %s goes on)", res.Nodes, o.save, o.save)
	}
	return interruptedf("after %d nodes", res.Nodes)
}

// eachAnswer prints a move's line.
func (c *cli) eachAnswer(a each.Answer) {
	effort := fmt.Sprintf("%d nodes, %d ms", a.Result.Nodes, a.Result.Time.Milliseconds())
	if a.Interrupted {
		fmt.Fprintf(c.stdout, "%s: interrupted, %s\n", a.Move, effort)
		return
	}
	fmt.Fprintf(c.stdout, "%s: %s, %s\n", a.Move, eachResult(a.Result), effort)
}

// eachVerdict returns the line that says what the tally proves of the
// root, the search interrupted or not. A win found before Ctrl-C still
// proves the root; the moves not searched are left without their values.
func eachVerdict(t *each.Tally, interrupted bool) string {
	v := eachProves(t)
	if !interrupted {
		return v
	}
	if rest, ok := strings.CutPrefix(v, "not solved: "); ok {
		return "interrupted: " + rest
	}
	return v + "; interrupted before every move's value"
}

// eachProves returns what the tally proves of the root.
func eachProves(t *each.Tally) string {
	switch t.Outcome() {
	case dfpn.Win:
		return fmt.Sprintf("solved: a win for the side to move (%s wins by %s)", t.Mover, t.Winner)
	case dfpn.Loss:
		return fmt.Sprintf("solved: a loss for the side to move (every move of %s loses)", t.Mover)
	case dfpn.Draw:
		return fmt.Sprintf("solved: a draw (no move of %s wins; %s draw)", t.Mover, board.FormatMoves(t.Drawn))
	}
	return fmt.Sprintf("not solved: %d of %d moves lose, open: %s", t.Lost, t.Moves, board.FormatMoves(t.Open))
}

// walkStep names a walk's step: the two moves, and the position they
// reach.
func walkStep(l *each.Level) string {
	st := &l.Step
	p := st.Next.Position()
	return fmt.Sprintf("%s %s (%s's best try, pn %d): --moves %q, %s (%s to move)",
		st.Move, st.Try, l.Tally.Mover.Other(), st.PN, board.FormatMoves(st.Next.Moves()), p.String(), p.Side())
}

// walkStop says why the walk stopped ("" when it did not: no --walk, or
// Ctrl-C).
func walkStop(r *each.Result, walk int) string {
	t, st := &r.Tally, &r.Step
	switch r.Stop {
	case each.Solved:
		return "the position is solved"
	case each.Draws:
		return fmt.Sprintf("%s draws, so the opponent cannot win here (open: %s)", board.FormatMoves(t.Drawn), board.FormatMoves(t.Open))
	case each.Splits:
		return fmt.Sprintf("the line splits (open: %s)", board.FormatMoves(t.Open))
	case each.NoTry:
		return fmt.Sprintf("the table holds no open try of %s's after %s (each reply absent or disproven)", t.Mover.Other(), st.Move)
	case each.GameOver:
		return fmt.Sprintf("%s %s ends the game (%s)", st.Move, st.Try, st.Next.Status().Reason)
	case each.Limit:
		return fmt.Sprintf("--walk %d reached", walk)
	}
	return ""
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
