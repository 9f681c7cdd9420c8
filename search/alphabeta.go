package search

import (
	"github.com/sower-engine/sower/board"
)

// Search tuning.
const (
	lmrDepth = 3 // late-move reductions from this depth
	lmrMoves = 3 // and from this move on
	maxQPly  = 8 // plies a quiescence search may go past the horizon

	// Move-ordering keys: the table's move, then gain (seeds won by Katro
	// captures, seeds captured in Hoyito III) in the high bits, then
	// killers, then history counters.
	orderTT     = 1 << 30
	orderGain   = 1 << 20
	orderKiller = 1 << 18
	historyMax  = 1 << 16
)

// search is the negamax alpha-beta search with principal-variation search
// below the root. It returns the score of pos for its side to move.
func (s *searcher) search(pos *board.Position, ply, depth int, alpha, beta Score, pvNode bool) Score {
	s.pvLen[ply] = ply
	if s.stopped {
		return 0
	}
	if ply > s.seldepth {
		s.seldepth = ply
	}

	// Game ends decided by the rules, before anything else.
	if st := s.ending(pos, board.MovesUnknown); st.Over() {
		return s.endScore(pos, st, ply)
	}
	lb, ub := -Infinity, Infinity
	if s.tb != nil {
		sc, a, b, done := s.probeNode(pos, ply, alpha, beta)
		if done {
			return sc
		}
		if a >= b {
			return a
		}
		if a > alpha {
			lb = a
		}
		if b < beta {
			ub = b
		}
		alpha, beta = a, b
	}
	if depth <= 0 || ply >= MaxPly {
		return min(max(s.quiesce(pos, ply, maxQPly, alpha, beta), lb), ub)
	}

	// Transposition table (not at the frontier, where a probe costs a
	// cache miss and saves little).
	key := s.ttKey(pos)
	ttMove := board.NoMove
	useTT := depth >= 2
	if useTT {
		if e, ok := s.tt.Probe(key); ok {
			ttMove = e.Move
			if !pvNode && e.Depth >= depth {
				sc := fromTT(e.Score, ply)
				if e.Bound == BoundExact || (e.Bound == BoundLower && sc >= beta) || (e.Bound == BoundUpper && sc <= alpha) {
					// The stored result's subtree is not searched again: unless
					// it is a Katro win or loss, which is proven whatever its
					// depth, or was proven when it was stored, it may rest on
					// evaluated leaves.
					if !e.Proven && (!sc.Decisive() || s.family == board.Hoyito) {
						s.depthCut = true
					}
					return sc
				}
			}
		}
	}

	f := &s.frames[ply]
	me := pos.Side()
	s.makeAll(f, pos, ply, ttMove)
	if f.n == 0 { // a Katro player without a legal move
		return s.endScore(pos, pos.Ending(false, board.NoMoves), ply)
	}

	origAlpha := alpha
	best, bestMove := -Infinity, board.NoMove
	// Whether this node's subtree has evaluated leaves is stored with
	// its result: depthCut is gathered afresh below and merged back.
	outerCut := s.depthCut
	s.depthCut = false
	s.push(pos)
	for i := 0; i < f.n; i++ {
		m := f.moves[i]
		score := s.searchMove(&f.kids[i], me, ply, depth, i, f.order[i], alpha, beta, pvNode)
		if s.stopped {
			s.pop()
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				s.updatePV(ply, m)
				if alpha >= beta {
					s.cutoff(me, ply, depth, m, f.order[i])
					break
				}
			}
		}
	}
	s.pop()
	best = min(max(best, lb), ub) // the tables' bounds, if any

	bound := BoundExact
	switch {
	case best <= origAlpha:
		bound = BoundUpper
		bestMove = ttMove // no move proved best: keep the old one
	case best >= beta:
		bound = BoundLower
	}
	cut := s.depthCut
	s.depthCut = outerCut || cut
	if useTT {
		s.tt.Store(key, bestMove, depth, bound, toTT(best, ply), 0, !cut)
	}
	return best
}

// searchMove searches the i-th move's position kid with principal-variation
// search and late-move reductions.
func (s *searcher) searchMove(kid *board.Position, me board.Side, ply, depth, i int, order int32, alpha, beta Score, pvNode bool) Score {
	same := kid.Side() == me
	if i == 0 {
		return s.child(kid, ply+1, depth-1, alpha, beta, same, pvNode)
	}
	// Late moves that gain nothing and are not killers are searched a ply
	// or two shallower first, and again at full depth if they beat alpha.
	r := 0
	if depth >= lmrDepth && i >= lmrMoves && order < orderKiller {
		r = 1
		if depth >= 6 && i >= lmrMoves+2 {
			r = 2
		}
	}
	score := s.child(kid, ply+1, depth-1-r, alpha, alpha+1, same, false)
	if r > 0 && score > alpha && !s.stopped {
		score = s.child(kid, ply+1, depth-1, alpha, alpha+1, same, false)
	}
	if pvNode && score > alpha && score < beta && !s.stopped {
		score = s.child(kid, ply+1, depth-1, alpha, beta, same, true)
	}
	return score
}

// updatePV makes m followed by the child's variation the variation at ply.
func (s *searcher) updatePV(ply int, m board.Move) {
	s.pv[ply][ply] = m
	n := copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
	s.pvLen[ply] = ply + 1 + n
}

// made counts a position the search has made and checks the limits: the
// node limit at once, the clock and the context every 1024 nodes. The node
// and time limits wait for the first iteration to complete, so that a
// search always has a scored move; a cancelled context stops at once.
func (s *searcher) made() {
	s.nodes++
	if s.nodes >= s.nodeLimit && s.iterated {
		s.stopped = true
	}
	if s.nodes&1023 == 0 {
		s.checkLimits()
	}
}

// makeAll makes every legal move of pos into f, in search order: the
// table's move, then by gain, killers and history. Making a move is how its
// legality (the endless-sowing rule) and its gain are known, so every move
// is made before any is searched; a Hoyito III player without a legal move
// gets the pass.
func (s *searcher) makeAll(f *frame, pos *board.Position, ply int, ttMove board.Move) {
	var l board.MoveList
	pos.GenerateMoves(&l)
	me := pos.Side()
	k := &s.killers[ply]
	before := s.gainBase(pos, me)
	f.n = 0
	for _, m := range l.Slice() {
		j := f.n
		f.kids[j] = *pos
		if !f.kids[j].Play(m) {
			continue
		}
		s.made()
		o := s.history[me][m] + orderGain*int32(s.gainBase(&f.kids[j], me)-before)
		switch {
		case m == ttMove:
			o = orderTT
		case m == k[0] || m == k[1]:
			o += orderKiller
		}
		// Insertion sort: there are at most six moves.
		kid := f.kids[j]
		for ; j > 0 && f.order[j-1] < o; j-- {
			f.moves[j], f.order[j], f.kids[j] = f.moves[j-1], f.order[j-1], f.kids[j-1]
		}
		f.moves[j], f.order[j], f.kids[j] = m, o, kid
		f.n++
	}
	if passIfStuck(pos, &f.kids[0], f.n) {
		s.made()
		f.moves[0], f.order[0], f.n = board.Pass, 0, 1
	}
}

// gainBase is what a move can gain for side me: its seeds on the board in
// Katro, its captures in Hoyito III.
func (s *searcher) gainBase(p *board.Position, me board.Side) int {
	if s.family == board.Hoyito {
		return p.Captured(me)
	}
	return p.SeedsOf(me)
}

// cutoff records a move that failed high, for ordering: as a killer when it
// gained nothing, and in the history counters.
func (s *searcher) cutoff(me board.Side, ply, depth int, m board.Move, order int32) {
	if order < orderGain || order >= orderTT {
		k := &s.killers[ply]
		if k[0] != m {
			k[1], k[0] = k[0], m
		}
	}
	h := &s.history[me][m]
	*h += int32(depth * depth)
	if *h >= historyMax {
		for side := range s.history {
			for i := range s.history[side] {
				s.history[side][i] /= 2
			}
		}
	}
}

// quiesce searches, past the horizon, only the moves that gain seeds
// (Katro captures, Hoyito III captures with their extra turns), letting the
// side to move stand pat on the static evaluation. q counts the plies it may
// still go.
func (s *searcher) quiesce(pos *board.Position, ply, q int, alpha, beta Score) Score {
	s.pvLen[ply] = ply
	if ply > s.seldepth {
		s.seldepth = ply
	}
	// Repetition is not looked for: the quiescence search plays only
	// captures, which change the position for good (and restart the
	// no-capture clock).
	if st := pos.Ending(false, board.MovesUnknown); st.Over() {
		return s.endScore(pos, st, ply)
	}
	stand := s.leaf(pos, ply)
	if stand >= beta || q == 0 || ply >= MaxPly || stand.Decisive() {
		return stand
	}
	alpha = max(alpha, stand)
	best := stand
	me := pos.Side()
	before := s.gainBase(pos, me)
	var l board.MoveList
	pos.GenerateMoves(&l)
	kid := &s.frames[ply].kids[0]
	for _, m := range l.Slice() {
		*kid = *pos
		if !kid.Play(m) {
			continue
		}
		s.made()
		if s.stopped {
			return 0
		}
		if s.gainBase(kid, me) == before {
			continue
		}
		var score Score
		if kid.Side() == me {
			score = s.quiesce(kid, ply+1, q-1, alpha, beta)
		} else {
			score = -s.quiesce(kid, ply+1, q-1, -beta, -alpha)
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				s.updatePV(ply, m)
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

// leaf scores a position at the search horizon.
func (s *searcher) leaf(pos *board.Position, ply int) Score {
	if s.family == board.Katro && pos.SeedsOf(pos.Side()) == 0 { // no seeds, no move
		return s.endScore(pos, pos.Ending(false, board.NoMoves), ply)
	}
	s.depthCut = true
	e := Score(s.evaluate(pos, ply))
	return max(min(e, DecisiveMin-1), -DecisiveMin+1)
}
