package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/tables"
)

// SolveInfo is a solver report: proven bounds on the root's value from the
// side to move's view (Hoyito III: the final seed margin; Katro: 1 a win,
// 0 a draw, -1 a loss), with the depth and effort that proved them.
type SolveInfo struct {
	Lo, Hi int
	Depth  int
	Nodes  uint64
	Time   time.Duration
	// PV is the proof's principal line when Lo == Hi (a line that keeps
	// the value), else the best line of the last lower-bound search.
	PV []board.Move
}

// SolveConfig are the solver's inputs besides the position.
type SolveConfig struct {
	History  []uint64       // the game's keys before the root (repetition)
	Tables   *tables.Tables // Hoyito III tables, or nil
	HashMiB  int            // transposition table size; 0 means DefaultHashMiB
	MaxDepth int            // give up after this depth; 0 means MaxPly-1
	// Progress, if not nil, is called every ProgressEvery (default
	// DefaultProgressEvery) while the solver works, with the depth being
	// searched, the effort so far and the bounds proven at the last
	// completed depth: a heartbeat between the reports of new bounds.
	Progress      func(SolveInfo)
	ProgressEvery time.Duration
}

// DefaultProgressEvery is the default time between SolveConfig.Progress
// reports.
const DefaultProgressEvery = 5 * time.Second

// Solve proves bounds on the value of root by iterative deepening: at
// each depth, an MTD(f) sequence of null-window alpha-beta searches finds
// the value of the tree cut at that depth with every unresolved leaf
// scored as the worst for the root's side to move (a proven lower bound),
// and another with the best (a proven upper bound). Game ends follow the
// rules, the no-capture limit and repetition included; positions in the
// tables are leaves with the tables' bounds, used only when the no-capture
// clock leaves time for their distances. report (if not nil) is called
// whenever the bounds tighten. Solve stops when the bounds meet, at
// MaxDepth, or when ctx is cancelled, and returns the last bounds.
func Solve(ctx context.Context, root board.Position, cfg SolveConfig, report func(SolveInfo)) (SolveInfo, error) {
	if root.Variant() == nil {
		return SolveInfo{}, ErrNoPosition
	}
	mib := cfg.HashMiB
	if mib == 0 {
		mib = DefaultHashMiB
	}
	if mib < MinHashMiB || mib > MaxHashMiB {
		return SolveInfo{}, errors.New("solve: hash size out of range")
	}
	v := root.Variant()
	s := &solver{ctx: ctx, root: root, start: time.Now(), limit: v.Rules().NoCaptureLimit, progress: cfg.Progress}
	s.lastBeat, s.every = s.start, cmp.Or(cfg.ProgressEvery, DefaultProgressEvery)
	s.family = v.Family()
	s.repOff = v.Rules().Repetition == board.RepetitionOff
	s.watch.off = s.repOff
	if cfg.Tables != nil && cfg.Tables.Fits(v) {
		s.tb = cfg.Tables
		s.tbExact = v.Rules().Repetition == board.RepetitionOff && s.tb.HasValues()
	}
	if avail, ok := AvailableMiB(); ok {
		if err := CheckSolveMemory(mib, avail); err != nil {
			return SolveInfo{}, fmt.Errorf("solve: %w", err)
		}
	}
	s.tt = make([]solveEntry, solveEntries(mib))
	s.keys = append(s.keys, cfg.History...)
	if !s.repOff {
		s.rootStretch = stretchHash(s.keys[len(s.keys)-min(root.Clock(), len(s.keys)):])
	}
	if s.tb != nil {
		s.watch.reset(s.keys)
	}
	s.vmax = 1
	if s.family == board.Hoyito {
		s.vmax = v.Total()
	}
	maxDepth := cfg.MaxDepth
	if maxDepth <= 0 || maxDepth >= MaxPly {
		maxDepth = MaxPly - 1
	}
	info := SolveInfo{Lo: -s.vmax, Hi: s.vmax}
	s.proven = info
	if st := root.Status(cfg.History); st.Over() {
		val := st.Margin(root.Side())
		info.Lo, info.Hi = val, val
		s.finishInfo(&info)
		return info, nil
	}
	for d := 1; d <= maxDepth && info.Lo < info.Hi; d++ {
		s.depth = d
		lo := s.mtdf(d, lowerMode, info.Lo, info.Lo, info.Hi)
		if s.stopped {
			break
		}
		pv := s.walkPV()
		hi := s.mtdf(d, upperMode, info.Hi, info.Lo, info.Hi)
		if s.stopped {
			break
		}
		changed := lo > info.Lo || hi < info.Hi
		info.Lo, info.Hi, info.Depth, info.PV = max(info.Lo, lo), min(info.Hi, hi), d, pv
		s.proven = info
		if changed || info.Lo == info.Hi {
			s.finishInfo(&info)
			if report != nil {
				report(info)
			}
		}
	}
	s.finishInfo(&info)
	return info, ctx.Err()
}

// solveEntries returns the number of entries of the solver's table for a
// HashMiB of mib: one per 24 bytes of it (an entry takes 16).
func solveEntries(mib int) int { return mib << 20 / 24 }

// The two modes: unresolved leaves score the worst, or the best, for the
// root's side to move.
const (
	lowerMode = 0
	upperMode = 1
)

// solveEntry is a solver transposition-table entry: bounds on the value
// of the tree below a node, searched to depth, in one mode.
type solveEntry struct {
	key    uint64
	depth  int16
	lo, hi int8
	move   board.Move
}

// solver is the state of one Solve.
type solver struct {
	ctx    context.Context
	root   board.Position
	family board.Family
	tb     *tables.Tables
	tt     []solveEntry
	keys   []uint64
	// rootStretch is stretchHash of the root's stretch in the history.
	rootStretch uint64
	watch       repeatWatch // second occurrences on the path, kept with tables
	repOff      bool        // Repetition off: no repetition ends a game, no stretch in the keys
	tbExact     bool        // under Repetition off the tables' values are exact leaves
	limit       int
	vmax        int
	depth       int
	mode        int
	nodes       uint64
	stopped     bool
	start       time.Time
	frames      [MaxPly + 1]solveFrame
	// progress, lastBeat and proven: the heartbeat (SolveConfig.Progress)
	// and the bounds it reports.
	progress func(SolveInfo)
	every    time.Duration
	lastBeat time.Time
	proven   SolveInfo
}

// poll stops the solver when its context is done, and reports progress
// when it is due.
func (s *solver) poll() {
	if s.ctx.Err() != nil {
		s.stopped = true
	}
	if s.progress == nil {
		return
	}
	if now := time.Now(); now.Sub(s.lastBeat) >= s.every {
		s.lastBeat = now
		info := s.proven
		info.Depth, info.Nodes, info.Time, info.PV = s.depth, s.nodes, now.Sub(s.start), nil
		s.progress(info)
	}
}

// solveFrame holds one ply's children.
type solveFrame struct {
	kids  [board.MaxMoves]board.Position
	moves [board.MaxMoves]board.Move
	n     int
}

// mtdf finds the value of the depth-d tree in mode by null-window searches
// from guess, within [lo, hi] (values outside are already excluded).
func (s *solver) mtdf(d, mode, guess, lo, hi int) int {
	s.mode = mode
	g := guess
	l, u := -s.vmax-1, s.vmax+1
	if mode == lowerMode {
		l = lo - 1 // the value is at least lo
	} else {
		u = hi + 1 // and at most hi
	}
	for l < u && !s.stopped {
		beta := g
		if g == l {
			beta = g + 1
		}
		g = s.ab(&s.root, 0, d, beta-1, beta, s.rootStretch)
		if g < beta {
			u = g
		} else {
			l = g
		}
	}
	return g
}

// key returns the node's table key: position, mode, a pass before it,
// the positions of its stretch (st, see stretchHash), and the clock when
// the no-capture limit could matter below the node.
//
// The stretch makes the table see the path. The value of a node depends
// on its position and clock and on which positions occurred since the
// last capture, and how often (repetition, rule book 2.6; the tables'
// bounds, see repeatWatch); nothing from before that capture can recur,
// since a capture changes the capture totals (Hoyito III) or the seeds on
// the board (Katro). With the stretch in the key, an entry is reused only
// where those positions are the same, so the table never carries a value
// that a repetition decided to a path where it does not hold (the
// graph-history interaction), at the cost of transpositions inside a
// stretch reached by different paths.
//
// With Repetition off the value no longer depends on the path (nothing
// counts occurrences, and the tables' bounds hold on any path), so the
// stretch hash stays 0 (see extend) and an entry serves every path.
func (s *solver) key(p *board.Position, depth int, st uint64) uint64 {
	k := p.Key() ^ uint64(s.mode+1)*0x9e3779b97f4a7c15 ^ st*0xd6e8feb86659fd93
	if p.AfterPass() {
		k ^= passSalt
	}
	if s.limit > 0 && p.Clock()+depth+256 >= s.limit {
		k ^= uint64(p.Clock()+1) * 0xbf58476d1ce4e5b9
	}
	return k
}

// stretchHash returns the hash of a stretch from the keys of its
// positions: a sum, so that it names the positions and how often each
// occurred, not their order; 0 for no position (right after a capture).
func stretchHash(keys []uint64) uint64 {
	var h uint64
	for _, k := range keys {
		h = stretchAdd(h, k)
	}
	return h
}

// stretchAdd adds the position with key k to the stretch hash h.
func stretchAdd(h, k uint64) uint64 {
	k ^= k >> 31
	k *= 0x7fb5d329728ea185
	k ^= k >> 27
	return h + k
}

// extend returns the stretch hash h with the position of key k added, or
// 0 with Repetition off, where the key leaves the stretch out.
func (s *solver) extend(h, k uint64) uint64 {
	if s.repOff {
		return 0
	}
	return stretchAdd(h, k)
}

// leaf returns the bounds on p's value known without searching: the
// whole range, narrowed by the seeds already captured (Hoyito III) and by
// the tables.
func (s *solver) leaf(p *board.Position) (lo, hi int) {
	if s.family != board.Hoyito {
		return -1, 1
	}
	me := p.Side()
	cur := p.Captured(me) - p.Captured(me.Other())
	n := p.OnBoard()
	lo, hi = cur-n, cur+n
	if s.tbExact && n <= s.tb.Top() {
		if v, ok := s.tb.Value(p); ok {
			return cur + v, cur + v
		}
	}
	if s.tb != nil && !s.tbExact && n <= s.tb.Top() && s.watch.clean(p.Clock()) {
		if e, ok := s.tb.Probe(p); ok {
			left := 1 << 30
			if s.limit > 0 {
				left = s.limit - p.Clock()
			}
			if e.DistLo <= left {
				lo = cur + e.Lo
			}
			if e.DistHi <= left {
				hi = cur + e.Hi
			}
		}
	}
	return lo, hi
}

// ab is fail-soft alpha-beta on exact values; st is the hash of the
// positions of p's stretch before p (stretchHash).
func (s *solver) ab(p *board.Position, ply, depth, alpha, beta int, st uint64) int {
	if s.nodes&4095 == 0 {
		s.poll()
	}
	if s.stopped {
		return 0
	}
	// Rule ends.
	if st := p.Ending(!s.repOff && board.Repeats(p.Key(), s.keys, 2), board.MovesUnknown); st.Over() {
		return st.Margin(p.Side())
	}
	lo, hi := s.leaf(p)
	if lo == hi {
		return lo
	}
	rootSide := s.root.Side()
	if depth <= 0 || ply >= MaxPly {
		if (p.Side() == rootSide) == (s.mode == lowerMode) {
			return lo
		}
		return hi
	}
	if lo >= beta {
		return lo
	}
	if hi <= alpha {
		return hi
	}
	key := s.key(p, depth, st)
	e := &s.tt[key%uint64(len(s.tt))]
	ttMove := board.NoMove
	if e.key == key {
		ttMove = e.move
		if int(e.depth) >= depth {
			if int(e.lo) >= beta {
				return int(e.lo)
			}
			if int(e.hi) <= alpha {
				return int(e.hi)
			}
			alpha, beta = max(alpha, int(e.lo)), min(beta, int(e.hi))
			if alpha >= beta {
				return alpha
			}
		}
	}
	a0, b0 := alpha, beta
	f := &s.frames[ply]
	s.makeAll(f, p, ttMove)
	if f.n == 0 { // a Katro player without a legal move
		return p.Ending(false, board.NoMoves).Margin(p.Side())
	}
	me := p.Side()
	best, bestMove := -s.vmax-1, board.NoMove
	if s.tb != nil {
		s.watch.push(s.keys, p.Key(), p.Clock(), true)
	}
	s.keys = append(s.keys, p.Key())
	kst := s.extend(st, p.Key())
	for i := 0; i < f.n; i++ {
		kid := &f.kids[i]
		ks := kst
		if kid.Clock() == 0 { // a capture starts a new stretch
			ks = 0
		}
		var v int
		if kid.Side() == me {
			v = s.ab(kid, ply+1, depth-1, alpha, beta, ks)
		} else {
			v = -s.ab(kid, ply+1, depth-1, -beta, -alpha, ks)
		}
		if v > best {
			best, bestMove = v, f.moves[i]
			alpha = max(alpha, v)
			if alpha >= beta {
				break
			}
		}
	}
	s.keys = s.keys[:len(s.keys)-1]
	if s.tb != nil {
		s.watch.pop()
	}
	if s.stopped {
		return 0
	}
	best = min(max(best, lo), hi)
	ne := solveEntry{key: key, depth: int16(depth), lo: int8(-s.vmax), hi: int8(s.vmax), move: bestMove}
	switch {
	case best <= a0:
		ne.hi = int8(best)
	case best >= b0:
		ne.lo = int8(best)
	default:
		ne.lo, ne.hi = int8(best), int8(best)
	}
	*e = ne
	return best
}

// makeAll makes the legal moves of p into f, the table's move first,
// captures next; a Hoyito III player without a move passes.
func (s *solver) makeAll(f *solveFrame, p *board.Position, ttMove board.Move) {
	var l board.MoveList
	p.GenerateMoves(&l)
	f.n = 0
	me := p.Side()
	for _, m := range l.Slice() {
		j := f.n
		f.kids[j] = *p
		if !f.kids[j].Play(m) {
			continue
		}
		s.nodes++
		f.moves[j] = m
		f.n++
		if m == ttMove || (f.kids[j].Side() == me && s.family == board.Hoyito) {
			// to the front (the table's move ends up first)
			for ; j > 0 && f.moves[j-1] != ttMove; j-- {
				f.moves[j], f.moves[j-1] = f.moves[j-1], f.moves[j]
				f.kids[j], f.kids[j-1] = f.kids[j-1], f.kids[j]
			}
		}
	}
	if passIfStuck(p, &f.kids[0], f.n) {
		s.nodes++
		f.moves[0], f.n = board.Pass, 1
	}
}

// finishInfo fills the effort.
func (s *solver) finishInfo(info *SolveInfo) {
	info.Nodes, info.Time = s.nodes, time.Since(s.start)
}

// walkPV returns the principal line of the lower-bound search just
// completed: the moves its table holds from the root, then, from where
// they end, moves that keep the tables' exact values (the tables' own
// proof, to the end of the game or to a position they leave open). It
// must run before another search overwrites the entries.
func (s *solver) walkPV() []board.Move {
	s.mode = lowerMode
	var pv []board.Move
	p, st := s.root, s.rootStretch
	seen := map[uint64]bool{}
	for len(pv) < MaxPly && !seen[p.Key()] {
		seen[p.Key()] = true
		m := board.NoMove
		k := s.key(&p, s.depth-len(pv), st)
		if e := &s.tt[k%uint64(len(s.tt))]; e.key == k && e.move != board.NoMove && p.CheckMove(e.move) == nil {
			m = e.move
		} else if m = s.tablesMove(&p); m == board.NoMove {
			break
		}
		pv = append(pv, m)
		st = s.extend(st, p.Key())
		p.Play(m)
		if p.Clock() == 0 {
			st = 0
		}
	}
	return pv
}

// tablesMove returns a move that keeps p's value when the tables give p an
// exact value that the clock leaves time for, or NoMove.
func (s *solver) tablesMove(p *board.Position) board.Move {
	if s.tb == nil || p.OnBoard() == 0 || p.OnBoard() > s.tb.Top() {
		return board.NoMove
	}
	e, ms, err := s.tb.Moves(p)
	if err != nil {
		return board.NoMove
	}
	if s.tbExact {
		for _, m := range ms {
			if m.KeepsValue {
				return m.Move
			}
		}
		return board.NoMove
	}
	if !e.Exact() || (s.limit > 0 && max(e.DistLo, e.DistHi) > s.limit-p.Clock()) {
		return board.NoMove
	}
	for _, m := range ms {
		if m.Keeps {
			return m.Move
		}
	}
	return board.NoMove
}
