package search

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
	"github.com/sower-engine/sower/eval"
	"github.com/sower-engine/sower/tables"
)

// frame is one ply's move list: the children are made once, when the moves
// are generated (making a move is how legality is known), and searched in
// place. Frames live in the searcher, so a node allocates nothing.
type frame struct {
	kids  [board.MaxMoves]board.Position
	moves [board.MaxMoves]board.Move
	order [board.MaxMoves]int32
	n     int
}

// rootMove is a legal move at the root and the position it leads to.
type rootMove struct {
	move  board.Move
	pos   board.Position
	score Score
	// With MultiPV: the move's line and the score of its last completed
	// iteration (see multipv.go).
	pv    [MaxPly + 1]board.Move
	pvLen int
	prev  Score
	// keeps: the tables give the root an exact value and prove that
	// this move keeps it (see markKeeping).
	keeps bool
}

// repSize is the size of the repetition filter: a count of the keys on the
// game's path by their low bits, so that most nodes know without a scan
// that their position has not occurred twice before.
const repSize = 1 << 12

// pass keys: a Hoyito III position that follows a pass ends the game on a
// second pass, so the table keeps it apart from the same position without.
const passSalt = 0x9e3779b97f4a7c15

// searcher is the state of one search. It is reused between searches.
type searcher struct {
	ctx    context.Context
	tt     *Table
	ev     *eval.Evaluator
	family board.Family
	wdl    eval.WDLModel // the evaluation's win/draw/loss model, for the reports
	limit  int           // the no-capture limit, 0 = off
	repOff bool          // Repetition off: a repeated position ends nothing
	lim    Limits
	cb     Callbacks

	root      board.Position
	rootMoves [board.MaxMoves]rootMove
	nRoot     int
	nKeep     int // root moves the tables prove value-keeping, first (markKeeping)
	multiPV   int // lines to find, 1 to nRoot
	skill     skillLines
	pvIdx     int // the line being searched: root moves before it are done

	frames  [MaxPly + 1]frame
	pv      [MaxPly + 1][MaxPly + 1]board.Move
	pvLen   [MaxPly + 1]int
	killers [MaxPly + 1][2]board.Move
	history [2][256]int32

	keys []uint64 // the game's keys, then the path's
	rep  [repSize]uint8

	nodes     uint64
	nodeLimit uint64
	seldepth  int
	stopped   bool
	iterated  bool // the first iteration is complete
	depthCut  bool // a leaf was scored by evaluation, not by the rules
	start     time.Time
	completed int // the last completed iteration

	// Time management: the clock starts with the search, or at the hit
	// of a pondering search (ponder.go), which has no limits before.
	clockStart time.Time
	pondering  bool
	soft       time.Duration
	hard       time.Duration
	timed      bool
	fixedTime  bool

	bestPV []board.Move
	last   Info
	// proven and provenScore: the last proof reported (see reportProof).
	proven      bool
	provenScore Score
	// searchProved: an iteration of the search itself (not the prover)
	// proved a win or a loss.
	searchProved bool

	currMovePeriod time.Duration // see CurrMovePeriod
	quietPeriod    time.Duration // see quietPeriod

	// Threads (smp.go): a helper reports nothing and publishes its node
	// count and table hits; the main search knows its helpers (team).
	helper      bool
	published   atomic.Uint64
	publishedTB atomic.Uint64
	team        []*searcher
	pr          *prover    // the Katro prover beside this search, or nil
	book        *cert.Book // the proof book of this search's game, or nil (Engine.SetBooks)

	net netEval // the network evaluation, when the engine has one for this game (net.go)

	tb     *tables.Tables // endgame tables for this game, or nil
	tbHits uint64
	watch  repeatWatch // second occurrences on the path, kept with tables
	// tbExact: the tables' values settle nodes (Repetition off);
	// tbEstimate: they score the nodes the bounds leave open (threefold).
	tbExact, tbEstimate bool
	// partial is the best move found so far in an unfinished iteration:
	// reported at the end if the search stops before the iteration does.
	partial struct {
		valid bool
		depth int
		score Score
		bound Bound
	}
}

func (s *searcher) reset(ctx context.Context, tt *Table, root *board.Position, history []uint64, lim Limits, cb Callbacks) {
	s.ctx, s.tt, s.lim, s.cb = ctx, tt, lim, cb
	s.root = *root
	v := root.Variant()
	s.family = v.Family()
	s.limit = v.Rules().NoCaptureLimit
	s.repOff = v.Rules().Repetition == board.RepetitionOff
	s.watch.off = s.repOff
	s.ev = eval.New(v)
	s.nodes, s.seldepth, s.stopped, s.iterated = 1, 0, false, false // the root is a node
	s.published.Store(0)
	s.publishedTB.Store(0)
	s.start = time.Now()
	s.completed = 0
	s.startLimits()
	s.killers = [MaxPly + 1][2]board.Move{}
	s.history = [2][256]int32{}
	s.rep = [repSize]uint8{}
	if need := len(history) + MaxPly + 1; cap(s.keys) < need {
		s.keys = make([]uint64, 0, need) // the path never outgrows it
	}
	s.keys = append(s.keys[:0], history...)
	for _, k := range history {
		s.rep[k%repSize]++
	}
	s.bestPV = s.bestPV[:0]
	s.last = Info{}
	s.proven = false
	s.searchProved = false
	s.partial.valid = false
}

// run is the iterative deepening loop.
func (s *searcher) run() Result {
	root := &s.root
	if st := root.Status(s.keys); st.Over() {
		s.waitPonder()
		info := Info{Family: s.family, WDLModel: s.wdl, Score: s.endScore(root, st, 0), Bound: BoundExact, Proven: true}
		return Result{Info: info, Over: st}
	}
	s.genRoot()
	s.multiPV = max(1, min(s.lim.MultiPV, s.nRoot))
	if s.lim.Skill.weak() {
		s.multiPV = min(max(s.multiPV, SkillLines(s.lim.Skill.Level)), s.nRoot)
	}
	// A root whose exact value the tables give is answered at once with a
	// move that keeps it: its score is the position's real, proven score.
	// Several lines (MultiPV, a weakened search) are searched as usual.
	if s.tb != nil && s.multiPV == 1 {
		if res, ok := s.rootTables(); ok {
			s.waitPonder()
			return s.finish(res)
		}
	}
	// So is a root that a proof book holds (Engine.SetBooks).
	if s.book != nil && s.multiPV == 1 {
		if res, ok := s.rootBook(); ok {
			s.waitPonder()
			return s.finish(res)
		}
	}
	s.nKeep = 0
	if s.tb != nil && s.multiPV > 1 {
		s.markKeeping()
	}
	s.skill.n = 0
	s.pvIdx = 0
	s.bestPV = append(s.bestPV[:0], s.rootMoves[0].move)
	var prev Score
	for depth := 1; depth <= s.depthCap(); depth++ {
		s.depthCut = false
		s.partial.valid = false
		var score Score
		if s.multiPV > 1 {
			score = s.iterateMulti(depth)
		} else {
			score = s.aspiration(depth, prev)
		}
		if s.stopped {
			break
		}
		prev = score
		s.iterated, s.completed = true, depth
		bound := s.proofBound(score, BoundExact)
		if s.multiPV > 1 {
			s.emitMulti(depth)
		} else {
			s.bestPV = append(s.bestPV[:0], s.pv[0][:s.pvLen[0]]...)
			_, proven := s.proof(depth, score, bound)
			s.emit(depth, score, bound, proven)
			s.searchProved = s.searchProved || (proven && score.Decisive())
		}
		s.reportProof(depth, score, bound)
		s.pr.slice(s.nodes, s.proverDeadline())
		s.reportProver()
		if s.proverStops() {
			break // the prover proved a win: play it
		}
		if s.nodes >= s.nodeLimit {
			break
		}
		if !s.depthCut && s.stopsEarly() {
			break // every leaf was a game end: the result is proven
		}
		if s.family == board.Katro && score.Decisive() && score.MatePlies() <= depth && s.stopsEarly() {
			break // no shorter win or longer defence is left to find
		}
		if s.timed && !s.fixedTime && time.Since(s.clockStart) > s.soft/2 {
			break
		}
		s.pollPonder()
	}
	// A pondering search answers only after the hit or the cancellation,
	// even when its Skill budget stopped it (waitPonder returns at once
	// when the search was cancelled).
	s.waitPonder()
	s.pr.stop()
	best := s.applyProof(s.rootMoves[0].move)
	if k := s.pickSkill(); k != nil {
		// A weakened search plays its choice, reported as its last line.
		best = k.move
		s.partial.valid = false
		s.bestPV = append(s.bestPV[:0], k.pv[:k.pvLen]...)
		s.emit(s.skill.depth, k.prev, s.proofBound(k.prev, BoundExact), false)
	}
	if s.partial.valid && (len(s.last.PV) == 0 || s.last.PV[0] != best) {
		// Stopped in an iteration that had found a new best move: report
		// it, so that the last report names the move returned.
		s.emit(s.partial.depth, s.partial.score, s.partial.bound, false)
	}
	return s.finish(Result{Move: best, Info: s.last})
}

// finish completes a result: final node count, time and ponder move.
func (s *searcher) finish(res Result) Result {
	res.Info.Nodes, res.Info.Time = s.totalNodes(), time.Since(s.start)
	res.Info.TBHits = s.totalTBHits()
	res.Info.NPS = nps(s.nodes, res.Info.Time)
	if len(res.Info.PV) == 0 || res.Info.PV[0] != res.Move {
		res.Info.PV = []board.Move{res.Move}
	}
	if len(res.Info.PV) > 1 {
		res.Ponder = res.Info.PV[1]
	}
	res.Info.Family = s.family
	res.Info.WDLModel = s.wdl
	return res
}

// genRoot lists the legal root moves, restricted to SearchMoves when any
// of those is legal, the table's move first.
func (s *searcher) genRoot() {
	var l board.MoveList
	s.root.GenerateMoves(&l)
	s.nRoot = 0
	for _, m := range l.Slice() {
		if c := s.root; c.Play(m) {
			s.rootMoves[s.nRoot] = rootMove{move: m, pos: c}
			s.nRoot++
			s.made()
		}
	}
	if s.nRoot == 0 { // a Hoyito III player without a move passes
		c := s.root
		c.Play(board.Pass)
		s.rootMoves[0] = rootMove{move: board.Pass, pos: c}
		s.nRoot = 1
	}
	if len(s.lim.SearchMoves) > 0 {
		n := 0
		for i := 0; i < s.nRoot; i++ {
			for _, m := range s.lim.SearchMoves {
				if s.rootMoves[i].move == m {
					s.rootMoves[n] = s.rootMoves[i]
					n++
					break
				}
			}
		}
		if n > 0 {
			s.nRoot = n
		}
	}
	if e, ok := s.tt.Probe(s.ttKey(&s.root)); ok {
		for i := 1; i < s.nRoot; i++ {
			if s.rootMoves[i].move == e.Move {
				s.toFront(i)
			}
		}
	}
}

// toFront moves root move i to the front of the moves still to rank
// (pvIdx), keeping the others' order.
func (s *searcher) toFront(i int) {
	rm := s.rootMoves[i]
	copy(s.rootMoves[s.pvIdx+1:i+1], s.rootMoves[s.pvIdx:i])
	s.rootMoves[s.pvIdx] = rm
}

// aspiration searches the root with a window around the previous score,
// widening it on failure.
func (s *searcher) aspiration(depth int, prev Score) Score {
	alpha, beta := -Infinity, Infinity
	delta := Score(40)
	if depth >= 4 && !prev.Decisive() {
		alpha, beta = max(prev-delta, -Infinity), min(prev+delta, Infinity)
	}
	for {
		score := s.searchRoot(depth, alpha, beta)
		if s.stopped {
			return score
		}
		switch {
		case score <= alpha && alpha > -Infinity:
			s.emitLate(depth, score, BoundUpper)
			beta = (alpha + beta) / 2
			alpha = max(score-delta, -Infinity)
		case score >= beta && beta < Infinity:
			s.emitLate(depth, score, BoundLower)
			beta = min(score+delta, Infinity)
		default:
			return score
		}
		delta *= 2
		if delta > 800 {
			alpha, beta = -Infinity, Infinity
		}
	}
}

// searchRoot searches every root move from pvIdx on with
// principal-variation search and keeps the best at pvIdx.
func (s *searcher) searchRoot(depth int, alpha, beta Score) Score {
	root := &s.root
	s.pvLen[0] = 0
	best := -Infinity
	s.push(root)
	defer s.pop()
	end := s.nRoot
	if s.pvIdx < s.nKeep {
		end = s.nKeep // value-keeping moves fill the lines first
	}
	for i := s.pvIdx; i < end; i++ {
		s.reportCurrMove(depth, i)
		rm := &s.rootMoves[i]
		same := rm.pos.Side() == root.Side()
		var score Score
		if i == s.pvIdx {
			score = s.child(&rm.pos, 1, depth-1, alpha, beta, same, true)
		} else {
			score = s.child(&rm.pos, 1, depth-1, alpha, alpha+1, same, false)
			if score > alpha && score < beta && !s.stopped {
				score = s.child(&rm.pos, 1, depth-1, alpha, beta, same, true)
			}
		}
		if s.stopped {
			return best
		}
		rm.score = score
		if score > best {
			best = score
		}
		if score > alpha {
			alpha = score
			s.pv[0][0] = rm.move
			n := copy(s.pv[0][1:], s.pv[1][1:s.pvLen[1]])
			s.pvLen[0] = n + 1
			if s.multiPV > 1 {
				rm.pvLen = copy(rm.pv[:], s.pv[0][:s.pvLen[0]])
			}
			if i > s.pvIdx {
				s.toFront(i)
			}
			if i > 0 && s.pvIdx == 0 {
				bound := BoundExact
				if score >= beta {
					bound = BoundLower
				}
				bound = s.proofBound(score, bound)
				s.bestPV = append(s.bestPV[:0], s.pv[0][:s.pvLen[0]]...)
				s.partial.valid, s.partial.depth, s.partial.score, s.partial.bound = true, depth, score, bound
				if depth > 1 {
					s.emitLate(depth, score, bound)
				}
			}
			if alpha >= beta {
				break
			}
		}
	}
	return best
}

// child searches a child position: from the opponent's point of view
// (negated) after a normal move, from the same side's after an extra turn.
func (s *searcher) child(kid *board.Position, ply, depth int, alpha, beta Score, same, pvNode bool) Score {
	if same {
		return s.search(kid, ply, depth, alpha, beta, pvNode)
	}
	return -s.search(kid, ply, depth, -beta, -alpha, pvNode)
}

// push adds pos to the path of the positions being searched.
func (s *searcher) push(pos *board.Position) {
	k := pos.Key()
	if s.tb != nil {
		s.watch.push(s.keys, k, pos.Clock(), s.rep[k%repSize] > 0)
	}
	s.keys = append(s.keys, k)
	s.rep[k%repSize]++
}

func (s *searcher) pop() {
	k := s.keys[len(s.keys)-1]
	s.keys = s.keys[:len(s.keys)-1]
	s.rep[k%repSize]--
	if s.tb != nil {
		s.watch.pop()
	}
}

// repeated reports whether the position with key k occurred twice before
// on the game's path, so that it now occurs for the third time and ends
// the game (never with Repetition off).
func (s *searcher) repeated(k uint64) bool {
	if s.rep[k%repSize] < 2 || s.repOff {
		return false
	}
	return board.Repeats(k, s.keys, 2)
}

func (s *searcher) ttKey(p *board.Position) uint64 {
	if p.AfterPass() {
		return p.Key() ^ passSalt
	}
	return p.Key()
}

// checkLimits stops the search when its time is up or it was cancelled.
func (s *searcher) checkLimits() {
	if s.helper {
		s.published.Store(s.nodes)
		s.publishedTB.Store(s.tbHits)
	}
	select {
	case <-s.ctx.Done():
		s.stopped = true
		return
	default:
	}
	s.pollPonder()
	if s.timed && s.iterated && time.Since(s.clockStart) >= s.hard {
		s.stopped = true
	}
	if len(s.team) > 0 && s.iterated && s.totalNodes() >= s.nodeLimit {
		s.stopped = true
	}
	if s.iterated && s.pr != nil && s.proverStops() {
		s.stopped = true
	}
}

// proofBound returns the bound to report with score. A decisive Hoyito III
// score proves its margin as a minimum only: the winner took a proven end
// over lines still open, which may end better for it. It is exact when no
// leaf of the iteration was scored by evaluation; otherwise a win is
// reported as a lower bound and a loss as an upper bound.
func (s *searcher) proofBound(score Score, bound Bound) Bound {
	if s.family != board.Hoyito || !score.Decisive() || !s.depthCut || bound != BoundExact {
		return bound
	}
	if score > 0 {
		return BoundLower
	}
	return BoundUpper
}

// quietPeriod is how long a search runs before it reports failed
// aspiration windows and best-move changes within an iteration; before
// that, only completed iterations are reported, as the lines would come too
// fast to read.
const quietPeriod = time.Second

// emitLate reports progress within an iteration, once the quiet period is
// over.
func (s *searcher) emitLate(depth int, score Score, bound Bound) {
	if s.multiPV == 1 && time.Since(s.start) >= s.quietPeriod {
		s.emit(depth, score, bound, false)
	}
}

// emit reports progress; proven says that score is the root's proven
// value (Info.Proven).
func (s *searcher) emit(depth int, score Score, bound Bound, proven bool) {
	if s.helper {
		return
	}
	el := time.Since(s.start)
	nodes := s.totalNodes()
	pv := s.bestPV
	if bound != BoundExact {
		pv = s.pv[0][:s.pvLen[0]]
		if len(pv) == 0 {
			pv = s.bestPV
		}
	}
	s.last = Info{
		Family:   s.family,
		WDLModel: s.wdl,
		Depth:    depth,
		SelDepth: max(s.seldepth, depth),
		Score:    score,
		Bound:    bound,
		Proven:   proven,
		Nodes:    nodes,
		Time:     el,
		NPS:      nps(nodes, el),
		Hashfull: s.tt.Hashfull(),
		TBHits:   s.totalTBHits(),
		PV:       append([]board.Move(nil), pv...),
	}
	if s.multiPV > 1 || s.lim.MultiPV > 1 {
		// A change of the best line within an iteration, or the one line
		// of a root with fewer moves than the lines asked for.
		s.last.MultiPV = 1
	}
	if s.cb.Info != nil {
		s.cb.Info(s.last)
	}
}

func nps(nodes uint64, d time.Duration) uint64 {
	if d <= 0 {
		return 0
	}
	return uint64(float64(nodes) / d.Seconds())
}
