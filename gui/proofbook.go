package gui

import (
	"fmt"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
)

// Books gives the proof book of a game once it is loaded (nil while it
// loads, or for a game without one); search/book's Library is one.
type Books interface {
	For(v *board.Variant) *cert.Book
}

// proofView is the proof book's view of p, a Katro position, for the
// panel the tables use (docs/gui.md, "The proof"): every legal move with
// the proven result after it, from South's view in the notation of every
// score ("#3", "#-3": the winner's moves to the end, at most, since a
// proof's line is a bound on the quickest win), and the position's own
// result. A position the proof does not reach gets no panel; false when
// the server has no books or the game none.
func (s *Server) proofView(p *board.Position, over bool) (tablesMsg, bool) {
	m := tablesMsg{Type: "tables", Source: "proof", Fen: p.String(), Moves: []tableMove{}}
	if s.cfg.Books == nil || over {
		return m, s.cfg.Books != nil
	}
	bk := s.cfg.Books.For(p.Variant())
	if bk == nil {
		return m, true // none, or loading: the panel comes with a later position
	}
	if mv, plies, win, ok := bk.Probe(p); ok {
		m.Value = proofValue(p.Side(), win, plies)
		keep := mv
		for _, lm := range p.LegalMoves() {
			c := *p
			c.Play(lm)
			tm := tableMove{Move: lm.String(), Best: lm == keep}
			if _, cp, cwin, cok := bk.Probe(&c); cok {
				v := proofValue(c.Side(), cwin, cp)
				tm.Text, tm.Words, tm.Exact = v.Text, v.Words, true
			} else if !c.HasLegalMove() {
				tm.Text = p.Side().String() + " wins at once"
				tm.Words, tm.Exact = tm.Text, true
			} else {
				tm.Text = "outside the proof"
			}
			m.Moves = append(m.Moves, tm)
		}
	}
	return m, true
}

// proofValue is the proven result of a position whose side to move,
// mover, wins (win) or loses within plies plies, from South's view: the
// winner's moves to the end, at most, signed for South.
func proofValue(mover board.Side, win bool, plies int) *tableValue {
	winner := mover
	if !win {
		winner = mover.Other()
	}
	n := plies / 2 // the loser to move: two plies a winner's move
	if winner == mover {
		n = (plies + 1) / 2
	}
	n = max(n, 1)
	mate := n
	if winner == board.North {
		mate = -n
	}
	v := &tableValue{Mate: &mate, Text: fmt.Sprintf("#%d", mate), Words: fmt.Sprintf("%s wins within %d moves", winner, n)}
	if n == 1 {
		v.Words = winner.String() + " wins with its next move"
	}
	return v
}
