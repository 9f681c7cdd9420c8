package each

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// game returns the game of name's board from fen (its start when "")
// after moves.
func game(t testing.TB, name, fen, moves string) *board.Game {
	t.Helper()
	v, err := board.New(name)
	if err != nil {
		t.Fatal(err)
	}
	p := v.Start()
	if fen != "" {
		if p, err = v.ParsePosition(fen); err != nil {
			t.Fatal(err)
		}
	}
	ms, err := v.ParseMoves(moves)
	if err != nil {
		t.Fatal(err)
	}
	g := board.NewGame(p)
	if err := g.PlayAll(ms); err != nil {
		t.Fatal(err)
	}
	return g
}

// solver returns a small df-pn solver for the tests, with the default
// first estimates of sower solve (the walks' positions and budgets were
// chosen with them).
func solver(t testing.TB) *dfpn.Solver {
	t.Helper()
	s, err := dfpn.New(dfpn.Config{HashMiB: 16})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRun solves each move of small positions: every move is answered in
// the order of the legal moves, each answer agrees with a search of that
// move's position alone on a fresh table, and the tally proves of the
// root what the answers say. A budget too small leaves moves open; an
// interruption leaves the move under way and the rest open, and a win
// found before it still proves the root.
func TestRun(t *testing.T) {
	for _, c := range []struct {
		name            string
		game, fen       string
		budget          uint64
		cancelAfter     int // moves answered before the context is cancelled (0: never)
		outcome         dfpn.Outcome
		open            int // moves left open
		wantInterrupted bool
	}{
		{"katro-4x4 start", "katro-4x4", "", 0, 0, dfpn.Win, 0, false},
		{"every move loses", "katro-4x6", "8,2,1,1,2,0/0,1,3,7,1,1/0,0,2,8,1,0/1,1,0,1,2,5 S 0", 0, 0, dfpn.Loss, 0, false},
		{"a budget of 1 node", "katro-4x4", "", 1, 0, dfpn.Unknown, 3, false}, // c1 loses at once
		{"interrupted", "katro-4x4", "", 0, 2, dfpn.Win, 2, true},             // b1 wins, before the interruption
	} {
		g := game(t, c.game, c.fen, "")
		root := g.Position()
		ctx, cancel := context.WithCancel(context.Background())
		var answers []Answer
		cfg := Config{MaxNodes: c.budget, First: func(p *board.Position) board.Side { return p.Side() },
			Answer: func(a Answer) {
				answers = append(answers, a)
				if len(answers) == c.cancelAfter {
					cancel()
				}
			}}
		res, err := Run(ctx, solver(t), g, cfg)
		cancel()
		if c.wantInterrupted != errors.Is(err, context.Canceled) || (!c.wantInterrupted && err != nil) {
			t.Fatalf("%s: %v", c.name, err)
		}
		tl := res.Tally
		moves := root.LegalMoves()
		if got := tl.Outcome(); got != c.outcome || len(tl.Open) != c.open || tl.Moves != len(moves) || tl.Mover != root.Side() || res.Stop != NoStop {
			t.Errorf("%s: %s, %+v, stop %d; want %s with %d moves open", c.name, got, tl, res.Stop, c.outcome, c.open)
		}
		searched := len(moves)
		if c.wantInterrupted {
			searched = c.cancelAfter + 1
		}
		if len(answers) != searched {
			t.Fatalf("%s: %d answers, want %d", c.name, len(answers), searched)
		}
		var nodes uint64
		lost, winner := 0, board.NoMove
		for i, a := range answers {
			nodes += a.Result.Nodes
			if a.Move != moves[i] || a.Interrupted != (c.wantInterrupted && i == c.cancelAfter) {
				t.Errorf("%s: answer %d is %s (interrupted %v), want %s", c.name, i, a.Move, a.Interrupted, moves[i])
			}
			if a.Interrupted || a.Result.Outcome == dfpn.Unknown {
				if !slices.Contains(tl.Open, a.Move) {
					t.Errorf("%s: %s not proven and not open: %+v", c.name, a.Move, tl)
				}
				continue
			}
			alone := game(t, c.game, c.fen, a.Move.String())
			want, err := solver(t).Solve(context.Background(), alone.Position(), alone.History(), nil)
			if err != nil || want.Outcome != a.Result.Outcome || want.Winner != a.Result.Winner {
				t.Errorf("%s: after %s: %s (%s wins), alone %s (%s wins), %v", c.name, a.Move, a.Result.Outcome, a.Result.Winner, want.Outcome, want.Winner, err)
			}
			switch {
			case a.Result.Winner != root.Side():
				lost++
			case winner == board.NoMove:
				winner = a.Move
			}
		}
		if tl.Lost != lost || tl.Winner != winner || res.Nodes != nodes {
			t.Errorf("%s: %+v, %d nodes; the answers give %d lost, winner %s, %d nodes", c.name, tl, res.Nodes, lost, winner, nodes)
		}
	}
	over := game(t, "katro-4x4", "0,0,0,0/0,0,0,0/8,8,8,0/0,0,0,8 N 0", "")
	if _, err := Run(context.Background(), solver(t), over, Config{}); !errors.Is(err, ErrOver) {
		t.Errorf("a finished game: %v, want ErrOver", err)
	}
}

// TestTallyOutcome: what a tally proves of its position.
func TestTallyOutcome(t *testing.T) {
	a1, b1 := board.HoleMove(0, 0), board.HoleMove(0, 1)
	for _, c := range []struct {
		tally Tally
		want  dfpn.Outcome
	}{
		{Tally{Moves: 2, Winner: b1, Open: []board.Move{a1}}, dfpn.Win},
		{Tally{Moves: 2, Winner: board.NoMove, Lost: 2}, dfpn.Loss},
		{Tally{Moves: 2, Winner: board.NoMove, Lost: 1, Drawn: []board.Move{a1}}, dfpn.Draw},
		{Tally{Moves: 2, Winner: board.NoMove, Lost: 1, Open: []board.Move{b1}}, dfpn.Unknown},
		{Tally{Moves: 2, Winner: board.NoMove, Drawn: []board.Move{a1}, Open: []board.Move{b1}}, dfpn.Unknown},
	} {
		if got := c.tally.Outcome(); got != c.want {
			t.Errorf("%+v: %s, want %s", c.tally, got, c.want)
		}
	}
}
