package search

import (
	"github.com/sower-engine/sower/board"
)

// Move-ordering bonuses. A move's order is its gain (seeds won by Katro
// captures, seeds captured in Hoyito III) in the top bits, then killer
// moves, then the history counters.
const (
	lmrDepth = 3 // late-move reductions from this depth
	lmrMoves = 3 // and from this move on

	orderTT     = 1 << 30
	orderGain   = 1 << 20
	orderKiller = 1 << 18
	historyMax  = 1 << 16
)

// search is the negamax alpha-beta search with principal-variation search
// below the root. It returns the score of pos for its side to move.
func (s *searcher) search(pos *board.Position, ply, depth int, alpha, beta Score, pvNode bool) Score {
	s.pvLen[ply] = ply
	s.nodes++
	if s.nodes >= s.nodeLimit {
		s.stopped = true
	}
	if s.nodes&1023 == 0 {
		s.checkLimits()
	}
	if s.stopped {
		return 0
	}
	if ply > s.seldepth {
		s.seldepth = ply
	}

	// Game ends decided by the rules, before anything else.
	if s.family == board.Hoyito && pos.OnBoard() == 0 {
		me := pos.Side()
		return HoyitoEnd(pos.Captured(me)-pos.Captured(me.Other()), ply)
	}
	if (s.limit > 0 && pos.Clock() >= s.limit) || s.repeated(pos.Key()) {
		return s.conventionEnd(pos, ply)
	}
	if depth <= 0 || ply >= MaxPly {
		return s.quiesce(pos, ply, maxQPly, alpha, beta)
	}

	// Transposition table (not at the frontier, where it costs a cache
	// miss per node and saves little).
	key := s.ttKey(pos)
	ttMove := board.NoMove
	useTT := depth >= 2
	if useTT {
		if e, ok := s.tt.Probe(key); ok {
			ttMove = e.Move
			if !pvNode && e.Depth >= depth {
				sc := fromTT(e.Score, ply)
				if e.Bound == BoundExact || (e.Bound == BoundLower && sc >= beta) || (e.Bound == BoundUpper && sc <= alpha) {
					if !sc.Decisive() {
						s.depthCut = true
					}
					return sc
				}
			}
		}
	}

	// The table's move is made and searched before the others are made: it
	// often refutes the position alone.
	f := &s.frames[ply]
	var l board.MoveList
	pos.GenerateMoves(&l)
	f.n = 0
	if ttMove != board.NoMove && contains(&l, ttMove) {
		f.kids[0] = *pos
		if f.kids[0].Play(ttMove) {
			f.moves[0], f.order[0], f.n = ttMove, orderTT, 1
		}
	}
	made := false

	me := pos.Side()
	origAlpha := alpha
	best, bestMove := -Infinity, board.NoMove
	s.push(pos.Key())
	for i := 0; ; i++ {
		if i == f.n {
			if made {
				break
			}
			made = true
			s.makeRest(pos, f, &l, ply, ttMove)
			if f.n == 0 {
				s.pop()
				return -KatroWin(ply) // a Katro player without a legal move has lost
			}
			if i == f.n {
				break
			}
		}
		if made {
			pickNext(f, i)
		}
		kid, m := &f.kids[i], f.moves[i]
		same := kid.Side() == me
		var score Score
		if i == 0 {
			score = s.child(kid, ply+1, depth-1, alpha, beta, same, pvNode)
		} else {
			// Late moves that gain nothing are searched a ply shallower
			// first, and again at full depth if they beat alpha.
			r := 0
			if depth >= lmrDepth && i >= lmrMoves && f.order[i] < orderKiller {
				r = 1
				if depth >= 6 && i >= lmrMoves+2 {
					r = 2
				}
			}
			score = s.child(kid, ply+1, depth-1-r, alpha, alpha+1, same, false)
			if r > 0 && score > alpha && !s.stopped {
				score = s.child(kid, ply+1, depth-1, alpha, alpha+1, same, false)
			}
			if pvNode && score > alpha && score < beta && !s.stopped {
				score = s.child(kid, ply+1, depth-1, alpha, beta, same, true)
			}
		}
		if s.stopped {
			s.pop()
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				s.pv[ply][ply] = m
				n := copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
				s.pvLen[ply] = ply + 1 + n
				if alpha >= beta {
					s.cutoff(me, ply, depth, m, f.order[i])
					break
				}
			}
		}
	}
	s.pop()

	bound := BoundExact
	switch {
	case best <= origAlpha:
		bound = BoundUpper
	case best >= beta:
		bound = BoundLower
	}
	if bound == BoundUpper {
		bestMove = ttMove // no move proved best: keep the old one
	}
	if useTT {
		s.tt.Store(key, bestMove, depth, bound, toTT(best, ply), 0)
	}
	return best
}

// makeRest makes the legal candidates of l other than the table's move
// (made already) into f, after it, with their ordering scores; a Hoyito III
// player without a legal move gets the pass.
func (s *searcher) makeRest(pos *board.Position, f *frame, l *board.MoveList, ply int, ttMove board.Move) {
	me := pos.Side()
	before := s.gainBase(pos, me)
	k := &s.killers[ply]
	for _, m := range l.Slice() {
		if m == ttMove {
			continue
		}
		kid := &f.kids[f.n]
		*kid = *pos
		if !kid.Play(m) {
			continue
		}
		f.moves[f.n] = m
		var o int32
		if m == k[0] || m == k[1] {
			o = orderKiller
		}
		o += orderGain*int32(s.gainBase(kid, me)-before) + s.history[me][m]
		f.order[f.n] = o
		f.n++
	}
	if f.n == 0 && s.family == board.Hoyito {
		f.kids[0] = *pos
		f.kids[0].Play(board.Pass)
		f.moves[0] = board.Pass
		f.order[0] = 0
		f.n = 1
	}
}

// contains reports whether m is in l.
func contains(l *board.MoveList, m board.Move) bool {
	for _, c := range l.Slice() {
		if c == m {
			return true
		}
	}
	return false
}

// gainBase is what a move can gain for side me: its seeds on the board in
// Katro, its captures in Hoyito III.
func (s *searcher) gainBase(p *board.Position, me board.Side) int {
	if s.family == board.Hoyito {
		return p.Captured(me)
	}
	return p.SeedsOf(me)
}

// pickNext moves the best-ordered of the moves from i on to i.
func pickNext(f *frame, i int) {
	b := i
	for j := i + 1; j < f.n; j++ {
		if f.order[j] > f.order[b] {
			b = j
		}
	}
	if b != i {
		f.kids[i], f.kids[b] = f.kids[b], f.kids[i]
		f.moves[i], f.moves[b] = f.moves[b], f.moves[i]
		f.order[i], f.order[b] = f.order[b], f.order[i]
	}
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

// maxQPly bounds the plies of a quiescence search.
const maxQPly = 8

// quiesce searches, past the horizon, only the moves that gain seeds
// (Katro captures, Hoyito III captures with their extra turns), letting the
// side to move stand pat on the static evaluation. q counts the plies it may
// still go.
func (s *searcher) quiesce(pos *board.Position, ply, q int, alpha, beta Score) Score {
	s.pvLen[ply] = ply
	if ply > 0 && pos != &s.root && ply > s.seldepth {
		s.seldepth = ply
	}
	if s.family == board.Hoyito && pos.OnBoard() == 0 {
		me := pos.Side()
		return HoyitoEnd(pos.Captured(me)-pos.Captured(me.Other()), ply)
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
	f := &s.frames[ply]
	for _, m := range l.Slice() {
		kid := &f.kids[0]
		*kid = *pos
		if !kid.Play(m) || s.gainBase(kid, me) == before {
			continue
		}
		s.nodes++
		if s.nodes >= s.nodeLimit {
			s.stopped = true
		}
		if s.nodes&1023 == 0 {
			s.checkLimits()
		}
		if s.stopped {
			return 0
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
				s.pv[ply][ply] = m
				n := copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
				s.pvLen[ply] = ply + 1 + n
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
	if s.family == board.Katro && pos.SeedsOf(pos.Side()) == 0 {
		return -KatroWin(ply)
	}
	s.depthCut = true
	e := Score(s.ev.Evaluate(pos))
	return max(min(e, DecisiveMin-1), -DecisiveMin+1)
}

// conventionEnd scores a position where the no-capture limit or a third
// repetition ends the game: a Katro draw, unless the player to move has no
// legal move and so has lost; in Hoyito III, each player's row is added to
// their captures.
func (s *searcher) conventionEnd(pos *board.Position, ply int) Score {
	me := pos.Side()
	if s.family == board.Katro {
		if !pos.HasLegalMove() {
			return -KatroWin(ply)
		}
		return 0
	}
	mine := pos.Captured(me) + pos.SeedsOf(me)
	theirs := pos.Captured(me.Other()) + pos.SeedsOf(me.Other())
	return HoyitoEnd(mine-theirs, ply)
}
