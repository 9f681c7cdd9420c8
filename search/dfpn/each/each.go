package each

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// Config configures Run.
type Config struct {
	// MaxNodes is the node budget of each question (dfpn.Solver's
	// SetMaxNodes; 0: no limit). A move's position asks at most two
	// questions, one for each side's win.
	MaxNodes uint64
	// First returns the side whose win is asked first at a move's
	// position, where the opponent of the root's side to move is to move
	// (nil: that side). A walk asks that side first whatever First says:
	// it reads the opponent's numbers.
	First func(p *board.Position) board.Side
	// Walk is how many steps the walk goes down the line left open, at
	// most (0: no walk).
	Walk int
	// Progress, if set, receives the solver's reports while the position
	// after move is searched.
	Progress func(move board.Move, pr dfpn.Progress)
	// Answer, if set, receives each move's answer as its search ends.
	Answer func(Answer)
	// Walked, if set, receives each position the walk goes on from: its
	// moves' tally and the step to the next position.
	Walked func(Level)
}

// Answer is one move's search.
type Answer struct {
	Move   board.Move
	Result dfpn.Result
	// Interrupted reports that the context stopped the search: Result is
	// then what it had reached.
	Interrupted bool
}

// Tally is what the positions after a position's moves, solved one by
// one, prove of it.
type Tally struct {
	Mover  board.Side // the side to move at the position
	Moves  int        // its legal moves
	Winner board.Move // the first move to a position Mover wins (board.NoMove: none)
	Lost   int        // the moves to positions the opponent wins
	Drawn  []board.Move
	Open   []board.Move // not proven, or not searched
}

// Outcome returns what the tally proves of the position, for its side to
// move: dfpn.Win if a move wins, dfpn.Loss if every move loses, dfpn.Draw
// if no move is open and none wins, else dfpn.Unknown.
func (t *Tally) Outcome() dfpn.Outcome {
	switch {
	case t.Winner != board.NoMove:
		return dfpn.Win
	case t.Lost == t.Moves:
		return dfpn.Loss
	case len(t.Open) == 0:
		return dfpn.Draw
	}
	return dfpn.Unknown
}

// Level is one position whose moves were solved: their tally, the walk's
// step from it (when there is one), and the nodes of every level so far.
type Level struct {
	Tally Tally
	Step  Step
	Nodes uint64
}

// Result is Run's: the last level, and why the walk stopped there.
type Result struct {
	Level
	Stop Stop
}

// ErrOver is Run's error for a position where the game is over.
var ErrOver = errors.New("each: the game is over: no move to solve")

// Run solves the position after each legal move of game's position in
// turn with s (dfpn.Solver.SolveFirst; every move, also once one wins, so
// that each has its value) and tallies what they prove of it; with
// cfg.Walk it then walks (see the package's documentation), up to
// cfg.Walk steps, solving each move of every position it reaches. It sets
// s's node budget to cfg.MaxNodes and leaves it so. When ctx is
// cancelled the move being searched and the ones after it are open, and
// Run returns the last level with ctx's error.
func Run(ctx context.Context, s *dfpn.Solver, game *board.Game, cfg Config) (Result, error) {
	if st := game.Status(); st.Over() {
		return Result{}, fmt.Errorf("%w (%s)", ErrOver, st.Reason)
	}
	s.SetMaxNodes(cfg.MaxNodes)
	var res Result
	for level := 0; ; level++ {
		tally, nodes, err := solveMoves(ctx, s, game, cfg)
		res.Tally, res.Step, res.Nodes = tally, Step{}, res.Nodes+nodes
		if err != nil || cfg.Walk == 0 {
			return res, err
		}
		if level == cfg.Walk {
			res.Stop = Limit
			return res, nil
		}
		if res.Step, res.Stop, err = walk(s, game, &tally); err != nil || res.Stop != NoStop {
			return res, err
		}
		if cfg.Walked != nil {
			cfg.Walked(res.Level)
		}
		game = res.Step.Next
	}
}

// solveMoves solves the position after each legal move of game's position
// and returns their tally and the nodes searched.
func solveMoves(ctx context.Context, s *dfpn.Solver, game *board.Game, cfg Config) (Tally, uint64, error) {
	root := game.Position()
	moves := root.LegalMoves()
	t := Tally{Mover: root.Side(), Moves: len(moves), Winner: board.NoMove}
	var nodes uint64
	for i, m := range moves {
		child, err := after(game, m)
		if err != nil {
			return t, nodes, err
		}
		q := child.Position()
		first := q.Side()
		if cfg.First != nil && cfg.Walk == 0 {
			first = cfg.First(&q)
		}
		var report func(dfpn.Progress)
		if cfg.Progress != nil {
			report = func(pr dfpn.Progress) { cfg.Progress(m, pr) }
		}
		res, err := s.SolveFirst(ctx, q, child.History(), first, report)
		nodes += res.Nodes
		interrupted := errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
		if err != nil && !interrupted {
			return t, nodes, err
		}
		if cfg.Answer != nil {
			cfg.Answer(Answer{Move: m, Result: res, Interrupted: interrupted})
		}
		if interrupted {
			t.Open = append(t.Open, moves[i:]...)
			return t, nodes, err
		}
		switch {
		case res.Outcome == dfpn.Draw:
			t.Drawn = append(t.Drawn, m)
		case res.Outcome != dfpn.Win && res.Outcome != dfpn.Loss:
			t.Open = append(t.Open, m)
		case res.Winner == t.Mover:
			if t.Winner == board.NoMove {
				t.Winner = m
			}
		default:
			t.Lost++
		}
	}
	return t, nodes, nil
}

// after returns a game of game's moves and then moves.
func after(game *board.Game, moves ...board.Move) (*board.Game, error) {
	g := board.NewGame(game.Start())
	if err := g.PlayAll(append(slices.Clone(game.Moves()), moves...)); err != nil {
		return nil, err // legal moves of a position reached by legal moves
	}
	return g, nil
}
