package gui

import (
	"github.com/sower-engine/sower/board"
)

// plyExactMax bounds the tables' results kept for the move list: past
// it the cache starts again.
const plyExactMax = 1 << 14

// exactKey names a position under a set of rules.
type exactKey struct {
	rules board.Rules
	fen   string
}

// tablesExact returns the tables' exact result of p from South's view
// (as the score under the board shows it: tablesView's value), or nil
// when the server has no tables for p, p is not in them, the game is
// over there or the tables prove only open bounds. Results are kept, so
// that every state of a long game does not probe every ply again.
func (s *Server) tablesExact(p *board.Position, over bool) *tableValue {
	v := p.Variant()
	if s.tb.dir == "" || v.Family() != board.Hoyito || over {
		return nil
	}
	k := exactKey{v.Rules(), p.String()}
	s.tbMu.Lock()
	val, ok := s.tb.exact[k]
	s.tbMu.Unlock()
	if ok {
		return val
	}
	if tb, err := s.tablesFor(v); err == nil {
		if vs, err := tb.Verdicts(p); err == nil {
			val = positionValue(vs, p.Side(), v.Rules().Repetition == board.RepetitionOff)
		}
	}
	s.tbMu.Lock()
	if s.tb.exact == nil || len(s.tb.exact) >= plyExactMax {
		s.tb.exact = map[exactKey]*tableValue{}
	}
	s.tb.exact[k] = val
	s.tbMu.Unlock()
	return val
}

// tablesPly makes the tables' exact result of the position after a ply
// its score, when they know it: the move list and the graph then show
// the result, marked exact and credited to the tables, not the depth-1
// estimate of an engine that answers from them. The ply that ends a game
// played inside the tables (the tables knew the position before it
// exactly) is scored with the game's final margin, exact, credited to
// the game's result. The engine's own score is kept as the ply's score
// in play.
func (s *session) tablesPly(pm *plyMsg, before, after *board.Position, st board.Status, lost bool) {
	var cp int
	switch {
	case lost:
		return
	case st.Over():
		if s.srv.tablesExact(before, false) == nil {
			return
		}
		cp = 100 * (st.Seeds[board.South] - st.Seeds[board.North])
		pm.Source = "result"
	default:
		val := s.srv.tablesExact(after, false)
		if val == nil {
			return
		}
		cp = 100 * val.Margin
		pm.Source = "tables"
	}
	if pm.Play == nil && pm.Review == nil {
		pm.Play, pm.PlayDepth = pm.Eval, pm.Depth
	}
	pm.Eval = &evalMsg{CP: &cp, Proven: true, Exact: true}
	pm.Depth = 0
}
