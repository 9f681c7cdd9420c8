package search

import (
	"slices"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/tables"
)

// SetTables gives the engine Hoyito III endgame tables (nil removes them).
// A search uses them when they fit its game's rules: it probes every node
// with few enough seeds on the board, and at the root it plays a move that
// keeps the value at once when the root's value is exact. Call it between
// searches only.
func (e *Engine) SetTables(t *tables.Tables) { e.tables = t }

// SetTableEstimate says whether a search under Repetition threefold scores
// the table positions whose bounds leave them open with their exact value
// under Repetition off (the default), or searches on inside the bounds as
// it does without values. It changes no proven result. Call it between
// searches only.
func (e *Engine) SetTableEstimate(on bool) { e.noEstimate = !on }

// useTables sets the tables of a search (nil for none), after reset: the
// path holds the game's history, and the root its rules. Under Repetition
// off the tables' exact values settle every node they hold; under
// threefold, their bounds are the proof and the values (when estimate is
// set) the score of the nodes the bounds leave open.
func (s *searcher) useTables(t *tables.Tables, estimate bool) {
	s.tb, s.tbHits = t, 0
	s.tbExact, s.tbEstimate = false, false
	if t != nil {
		s.watch.reset(s.keys)
		off := s.root.Variant().Rules().Repetition == board.RepetitionOff
		s.tbExact = off && t.HasValues()
		s.tbEstimate = !off && estimate && t.HasValues()
	}
}

// tablesFor returns the tables to use for a root of variant v.
func (e *Engine) tablesFor(v *board.Variant) *tables.Tables {
	if e.tables == nil || !e.tables.Fits(v) {
		return nil
	}
	return e.tables
}

// tbProbe probes the tables once for pos and counts the hit: its entry
// and, when the set has values, its exact value under Repetition off at
// its clock; in is false when pos is not in the tables.
func (s *searcher) tbProbe(pos *board.Position) (e tables.Entry, v int, in bool) {
	if pos.OnBoard() > s.tb.Top() {
		return e, 0, false
	}
	if s.tbExact || s.tbEstimate {
		e, v, in = s.tb.ProbeValue(pos)
	} else {
		e, in = s.tb.Probe(pos) // the bounds only
	}
	if in {
		s.tbHits++
	}
	return e, v, in
}

// tbBounds returns the proven bounds that pos's probe (entry e, value v)
// gives, as scores for its side to move: a bound is used only when the
// no-capture clock leaves time for its distance. ok is false when a
// position since the last capture has occurred twice, so that the play
// forcing the bounds could meet it a third time (repeatWatch).
func (s *searcher) tbBounds(pos *board.Position, ply int, e tables.Entry, v int) (lb, ub Score, exact, ok bool) {
	me := pos.Side()
	cur := pos.Captured(me) - pos.Captured(me.Other())
	if s.tbExact {
		// Repetition off: the value at the position's clock is exact.
		sc := HoyitoEnd(cur+v, ply)
		return sc, sc, true, true
	}
	if !s.watch.clean(pos.Clock()) {
		return 0, 0, false, false
	}
	left := 1 << 30
	if s.limit > 0 {
		left = s.limit - pos.Clock()
	}
	n := pos.OnBoard()
	lb, ub = -Infinity, Infinity
	// A bound of -n or +n needs no forcing and always holds.
	loOK := e.DistLo <= left || e.Lo == -n
	hiOK := e.DistHi <= left || e.Hi == n
	if loOK && hiOK && e.Lo == e.Hi {
		return HoyitoEnd(cur+e.Lo, ply), HoyitoEnd(cur+e.Lo, ply), true, true
	}
	if loOK {
		lb = lowScore(cur + e.Lo)
	}
	if hiOK {
		ub = highScore(cur + e.Hi)
	}
	return lb, ub, false, loOK || hiOK
}

// rootBounds probes the root and returns its bounds (tbBounds).
func (s *searcher) rootBounds() (lb, ub Score, exact, ok bool) {
	e, v, in := s.tbProbe(&s.root)
	if !in {
		return 0, 0, false, false
	}
	return s.tbBounds(&s.root, 0, e, v)
}

// lowScore is the least score of a game end with a margin of at least m
// at any ply of the search; highScore the greatest with at most m.
func lowScore(m int) Score {
	if m > 0 {
		return HoyitoEnd(m, MaxPly)
	}
	return HoyitoEnd(m, 0)
}

func highScore(m int) Score {
	if m < 0 {
		return HoyitoEnd(m, MaxPly)
	}
	return HoyitoEnd(m, 0)
}

// probeNode applies the tables to a node of the search with one probe:
// it returns the node's score and true when the tables settle it (an exact
// value, or a bound outside the window, or under threefold the estimate),
// or else the window narrowed to the bounds.
func (s *searcher) probeNode(pos *board.Position, ply int, alpha, beta Score) (Score, Score, Score, bool) {
	if !s.tbExact && !s.tbEstimate && !s.watch.clean(pos.Clock()) {
		return 0, alpha, beta, false // nothing to use: no probe
	}
	e, v, in := s.tbProbe(pos)
	if !in {
		return 0, alpha, beta, false
	}
	lb, ub, exact, ok := s.tbBounds(pos, ply, e, v)
	if !ok {
		if est, in := s.tbEstimateOf(pos, e, v); in {
			return est, alpha, beta, true
		}
		return 0, alpha, beta, false
	}
	switch {
	case exact:
		return lb, alpha, beta, true
	case lb >= beta:
		return lb, alpha, beta, true
	case ub <= alpha:
		return ub, alpha, beta, true
	}
	if est, in := s.tbEstimateOf(pos, e, v); in {
		return min(max(est, lb), ub), alpha, beta, true
	}
	return 0, max(alpha, lb), min(beta, ub), false
}

// tbEstimateOf returns, under Repetition threefold with the estimate on,
// the score the search gives a table position (entry e, value v) whose
// bounds leave it open: its exact value under Repetition off at its
// clock, as an ordinary score in hundredths of a seed (never a proven
// one). Repetition can only end a game earlier than the limit, at the row
// margin, so that value is what best play reaches unless one side prefers
// to repeat. It is used only where the bounds leave the game's result open
// (the margin could be a win or a loss): where they decide it, the search
// goes on inside the proven bounds, which a proven result needs.
func (s *searcher) tbEstimateOf(pos *board.Position, e tables.Entry, v int) (Score, bool) {
	if !s.tbEstimate {
		return 0, false
	}
	me := pos.Side()
	cur := pos.Captured(me) - pos.Captured(me.Other())
	if cur+e.Lo > 0 || cur+e.Hi < 0 {
		return 0, false
	}
	return Score(100 * (cur + v)), true
}

// markKeeping marks, when the tables give the root an exact value that
// the clock leaves time for, the root moves that the tables prove keep
// it, puts them first and counts them (nKeep). Several lines are then
// filled with those moves first, and ranked with them first: another move
// may score as much or more in the search (the tables bound it by the same
// margin without proving it, and a bound is scored as the latest end with
// that margin), but it is not known to keep the value.
func (s *searcher) markKeeping() {
	_, _, exact, ok := s.rootBounds()
	if !ok || !exact {
		return
	}
	_, ms, err := s.tb.Moves(&s.root)
	if err != nil {
		return
	}
	for i := 0; i < s.nRoot; i++ {
		rm := &s.rootMoves[i]
		for _, m := range ms {
			if s.keeps(m) && m.Move == rm.move {
				rm.keeps = true
			}
		}
		if rm.keeps {
			s.nKeep++
		}
	}
	slices.SortStableFunc(s.rootMoves[:s.nRoot], keepsFirst)
}

// keeps reports whether a root move keeps the value the search takes from
// the tables: the exact value at the clock under Repetition off (any such
// move reaches it, since the clock's end is part of the value), the bounds
// at their distance under threefold.
func (s *searcher) keeps(m tables.MoveValue) bool {
	if s.tbExact {
		return m.KeepsValue
	}
	return m.Keeps
}

// keepsFirst orders a root move the tables prove value-keeping before one
// they do not.
func keepsFirst(a, b rootMove) int {
	switch {
	case a.keeps == b.keeps:
		return 0
	case a.keeps:
		return -1
	}
	return 1
}

// rootTables plays a value-keeping move at once when the root is in the
// tables with an exact value that the no-capture clock leaves time for,
// among the root moves the limits allow. It reports the move and the
// value.
func (s *searcher) rootTables() (Result, bool) {
	root := &s.root
	lb, _, exact, ok := s.rootBounds()
	if !ok || !exact {
		return Result{}, false
	}
	_, ms, err := s.tb.Moves(root)
	if err != nil {
		return Result{}, false
	}
	best := -1
	for i := 0; i < s.nRoot && best < 0; i++ {
		for _, m := range ms {
			if s.keeps(m) && m.Move == s.rootMoves[i].move {
				best = i
				break
			}
		}
	}
	if best < 0 {
		return Result{}, false
	}
	s.toFront(best)
	s.bestPV = append(s.bestPV[:0], s.rootMoves[0].move)
	s.iterated = true
	s.emit(1, lb, BoundExact, true)
	return Result{Move: s.rootMoves[0].move, Info: s.last}, true
}
