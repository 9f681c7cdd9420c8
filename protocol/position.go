package protocol

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sower-engine/sower/board"
)

// cmdPosition is "position startpos|fen <position> [moves m1 m2 …]". The
// new game is built whole before it replaces the current one: a bad
// position or move changes nothing, but the next go says which position
// it searches and why (see goNotes).
func (s *server) cmdPosition(args []string) error {
	g, err := s.parsePosition(args)
	if err != nil {
		s.refusedPosition = err.Error()
		return err
	}
	s.stopJob()
	s.game = g
	s.refusedPosition = ""
	return nil
}

func (s *server) parsePosition(args []string) (*board.Game, error) {
	v := s.variant
	if len(args) == 0 {
		return nil, errors.New(`want "position startpos|fen <position> [moves …]"`)
	}
	// Split off the moves.
	var moves []string
	for i, a := range args {
		if strings.EqualFold(a, "moves") {
			moves, args = args[i+1:], args[:i]
			break
		}
	}
	if len(args) == 0 {
		return nil, errors.New(`want startpos or fen before "moves"`)
	}
	var p board.Position
	switch {
	case strings.EqualFold(args[0], "startpos"):
		if len(args) > 1 {
			return nil, fmt.Errorf("unexpected %s after startpos", quote(args[1]))
		}
		p = v.Start()
	case strings.EqualFold(args[0], "fen"):
		if len(args) == 1 {
			return nil, errors.New("fen: no position given")
		}
		var err error
		p, err = v.ParsePosition(strings.Join(args[1:], " "))
		if err != nil {
			return nil, fmt.Errorf("fen: %v (the game is %s; UCI_Variant chooses it)", err, v.Name())
		}
	default:
		return nil, fmt.Errorf("%s: want startpos or fen", quote(args[0]))
	}
	g := board.NewGame(p)
	for i, t := range moves {
		m, err := v.ParseMove(t)
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			return nil, fmt.Errorf("move %d: %v", i+1, err)
		}
	}
	return g, nil
}

// cmdQuery is the UGI query: "query p1turn", "query gameover" or "query
// result", answered with "response …". p1 is South, who moves first.
func (s *server) cmdQuery(args []string) error {
	if len(args) != 1 {
		return errors.New("want query p1turn, gameover or result")
	}
	st := s.game.Status()
	p := s.game.Position()
	var r string
	switch strings.ToLower(args[0]) {
	case "p1turn":
		r = fmt.Sprint(p.Side() == board.South)
	case "gameover":
		r = fmt.Sprint(st.Over())
	case "result":
		r = ugiResult(st.Result)
	default:
		return fmt.Errorf("unknown query %s: want p1turn, gameover or result", quote(args[0]))
	}
	s.out.print("response " + r)
	return nil
}

// ugiResult writes a result as UGI's "query result" answers it.
func ugiResult(r board.Result) string {
	switch r {
	case board.SouthWins:
		return "p1win"
	case board.NorthWins:
		return "p2win"
	case board.Draw:
		return "draw"
	}
	return "none"
}
