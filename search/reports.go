package search

import (
	"time"

	"github.com/sower-engine/sower/board"
)

// Callbacks receive a search's reports. Each may be nil. They are called
// from the goroutine that called Search, never from a helper thread, and
// must not call the Engine.
type Callbacks struct {
	// Info receives progress reports (see Info).
	Info func(Info)
	// CurrMove receives the root move about to be searched, once the
	// search has run for CurrMovePeriod.
	CurrMove func(CurrMove)
	// Proven receives the root's proven result whenever it is first
	// proven or proven anew with another score.
	Proven func(Proof)
}

// CurrMove is the root move the search is about to search.
type CurrMove struct {
	Depth  int        // the iteration
	Move   board.Move // the root move
	Number int        // its 1-based place in the iteration's move order
}

// CurrMovePeriod is how long a search runs before it reports its root
// moves as it searches them, as Stockfish does: earlier they would come
// too fast to read.
const CurrMovePeriod = time.Second

// Proof is a proven result at the root, from the side to move's point of
// view: a Katro win or loss in Plies plies (a draw when Score is 0), or a
// Hoyito III end by exactly Margin seeds.
type Proof struct {
	Family board.Family
	Depth  int   // the iteration that proved it
	Score  Score // the search score
	Plies  int   // Katro: plies to the game's end (0 for a draw)
	Margin int   // Hoyito III: the exact final margin, negative when losing
}

// proof returns the root's proven result after an iteration scored
// score with bound, if the iteration proved it. A Katro win or loss is
// proven whatever the depth; any other score is proven when no leaf of the
// iteration was scored by the evaluation.
func (s *searcher) proof(depth int, score Score, bound Bound) (Proof, bool) {
	if bound != BoundExact {
		return Proof{}, false
	}
	p := Proof{Family: s.family, Depth: depth, Score: score}
	switch {
	case s.family == board.Katro && score.Decisive():
		p.Plies = score.MatePlies()
	case s.depthCut:
		return Proof{}, false
	case s.family == board.Hoyito && score.Decisive():
		p.Margin = score.Margin()
	case score != 0:
		return Proof{}, false // not a game end: a Katro score is 0 or decisive
	}
	return p, true
}

// reportProof reports the iteration's proof, if it has one that differs
// from the last reported.
func (s *searcher) reportProof(depth int, score Score, bound Bound) {
	p, ok := s.proof(depth, score, bound)
	if !ok || (s.proven && s.provenScore == score) {
		return
	}
	s.proven, s.provenScore = true, score
	if s.cb.Proven != nil {
		s.cb.Proven(p)
	}
}

// reportCurrMove reports root move number i (0-based) of the iteration,
// once the search has run for CurrMovePeriod.
func (s *searcher) reportCurrMove(depth, i int) {
	if s.cb.CurrMove == nil || time.Since(s.start) < s.currMovePeriod {
		return
	}
	s.cb.CurrMove(CurrMove{Depth: depth, Move: s.rootMoves[i].move, Number: i + 1})
}

// stopsEarly reports whether the search may end before its limits: when
// the clock manages its time (a forced move is answered at once, a proven
// result ends the search), or when no limit at all was given (the search
// then runs until the result is proven). Analysis — go infinite, depth,
// nodes or movetime — searches to its limit whatever it has found.
func (s *searcher) stopsEarly() bool {
	if s.pondering {
		return false
	}
	l := &s.lim
	unlimited := !l.Infinite && l.Depth == 0 && l.Nodes == 0 && l.MoveTime == 0 && !l.HasClock[s.root.Side()]
	return s.clocked() || unlimited
}

// clocked reports whether the search manages its time by the clock.
func (s *searcher) clocked() bool { return s.timed && !s.fixedTime }
