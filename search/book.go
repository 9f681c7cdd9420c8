package search

import (
	"slices"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
)

// Books gives the engine its proof books (SetBooks).
type Books interface {
	// For returns the book of v's game, or nil when there is none or it
	// is not ready yet. It must be safe to call from any goroutine and
	// return at once.
	For(v *board.Variant) *cert.Book
}

// maxBookLine is the most plies of a book's line reported as the PV.
const maxBookLine = 64

// SetBooks gives the engine proof books (nil: none). A Katro root that a
// book holds is answered at once, as a root the endgame tables settle is:
// as the winner, the proof's move; as the loser, the move whose proof is
// longest; reported as a proven result (Info.Proven, Callbacks.Proven)
// whose distance is the proof's longest line, an upper bound. Not used
// with several lines (MultiPV, a weakened strength). Call it between
// searches.
func (e *Engine) SetBooks(b Books) { e.books = b }

// bookFor returns the book for a search of root under lim, or nil.
func (e *Engine) bookFor(root *board.Position, lim Limits) *cert.Book {
	if e.books == nil || root.Variant().Family() != board.Katro || lim.MultiPV > 1 || lim.Skill.weak() {
		return nil
	}
	return e.books.For(root.Variant())
}

// rootBook answers the root from the book, when it holds the root and its
// move is one of the root moves (SearchMoves may leave it out).
func (s *searcher) rootBook() (Result, bool) {
	m, plies, win, ok := s.book.Probe(&s.root)
	if !ok {
		return Result{}, false
	}
	i := slices.IndexFunc(s.rootMoves[:s.nRoot], func(r rootMove) bool { return r.move == m })
	if i < 0 {
		return Result{}, false
	}
	s.toFront(i)
	score := KatroWin(plies)
	if !win {
		score = -score
	}
	s.bestPV = append(s.bestPV[:0], s.book.Line(s.root, maxBookLine)...)
	if len(s.bestPV) == 0 || s.bestPV[0] != m {
		s.bestPV = append(s.bestPV[:0], m)
	}
	s.iterated = true
	s.emit(1, score, BoundExact, true)
	s.reportProof(1, score, BoundExact)
	return Result{Move: m, Info: s.last}, true
}
