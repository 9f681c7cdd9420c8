// Reference searches for the search tests, written from the board package's
// public rules only (LegalMoves, After, Status with the game's history) and
// sharing no code with the engine: plain forced-win searches for Katro, an
// exact memoised solver for Hoyito III, and a plain negamax over whole game
// trees. They are slow and simple on purpose: they are what the engine's
// alpha-beta search is checked against.

package search

import (
	"testing"

	"github.com/sower-engine/sower/board"
)

// after plays the legal move m on a copy of p.
func after(t testing.TB, p board.Position, m board.Move) board.Position {
	t.Helper()
	c, err := p.After(m)
	if err != nil {
		t.Fatalf("%s: %s: %v", p.String(), m, err)
	}
	return c
}

// with returns history followed by k, in a new slice.
func with(history []uint64, k uint64) []uint64 {
	h := make([]uint64, len(history), len(history)+1)
	copy(h, history)
	return append(h, k)
}

// katroWins reports whether the Katro side to move at p, whose game went
// through history, can force a win within n plies: a move after which the
// opponent has lost within n-1 plies. Every game end comes from Status, so
// a third repetition or the no-capture limit is a draw, not a win.
func katroWins(t testing.TB, p board.Position, history []uint64, n int) bool {
	if n <= 0 || p.Status(history).Over() {
		return false
	}
	h := with(history, p.Key())
	for _, m := range p.LegalMoves() {
		if katroLost(t, after(t, p, m), h, n-1) {
			return true
		}
	}
	return false
}

// katroLost reports whether the Katro side to move at p has lost within n
// plies: the game is over and they lost, or every move lets the opponent
// force a win within n-1 plies.
func katroLost(t testing.TB, p board.Position, history []uint64, n int) bool {
	if st := p.Status(history); st.Over() {
		w, ok := st.Result.Winner()
		return ok && w != p.Side()
	}
	if n <= 1 {
		return false
	}
	h := with(history, p.Key())
	for _, m := range p.LegalMoves() {
		if !katroWins(t, after(t, p, m), h, n-1) {
			return false
		}
	}
	return true
}

// katroProver decides forced Katro wins within n plies from positions read
// with an empty history, memoised on (key, n). The memo ignores repetition,
// and so does the prover; that is sound for forced wins when n plus the
// position's clock stays below the no-capture limit: a shortest forced win
// never repeats a position (the distance to the win falls by one with every
// ply of its lines, so no position occurs twice), hence it wins with the
// repetition rule too; and a line that repetition would end is a draw, so
// any win under the rule is a win without it. The two notions agree.
type katroProver struct {
	memo map[proverKey]bool
}

type proverKey struct {
	key  uint64
	n    int
	lost bool
}

func newKatroProver() *katroProver { return &katroProver{memo: map[proverKey]bool{}} }

func (k *katroProver) wins(t testing.TB, p board.Position, n int) bool {
	if n <= 0 {
		return false
	}
	mk := proverKey{p.Key(), n, false}
	if v, ok := k.memo[mk]; ok {
		return v
	}
	v := false
	for _, m := range p.LegalMoves() {
		if k.lost(t, after(t, p, m), n-1) {
			v = true
			break
		}
	}
	k.memo[mk] = v
	return v
}

func (k *katroProver) lost(t testing.TB, p board.Position, n int) bool {
	moves := p.LegalMoves()
	if len(moves) == 0 {
		return true // a Katro player without a legal move has lost
	}
	if n <= 1 {
		return false
	}
	mk := proverKey{p.Key(), n, true}
	if v, ok := k.memo[mk]; ok {
		return v
	}
	v := true
	for _, m := range moves {
		if !k.wins(t, after(t, p, m), n-1) {
			v = false
			break
		}
	}
	k.memo[mk] = v
	return v
}

// hoyitoSolver computes the exact final margin of a Hoyito III game with
// perfect play on both sides, from positions read with an empty history.
// Every game end comes from Status with the game's history. The memo is
// keyed on the position (board, side, captures: the key), its clock,
// whether it follows a pass, and the keys of the positions since the last
// capture as a multiset. That is everything the rest of the game depends
// on: a capture changes the capture totals, which only grow, so a position
// from before the last capture can never occur again, and repetition only
// counts occurrences. The memo is therefore exact, repetitions included.
// Trees must be small: use a low no-capture limit.
type hoyitoSolver struct {
	memo  map[solverKey]int
	nodes int
	limit int // nodes; 0 for no limit
}

type solverKey struct {
	key, since uint64
	clock      int
	pass       bool
}

// mix is SplitMix64's finaliser: the multiset hash of the keys since the
// last capture is the sum of their mixes.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

func capturedTotal(p *board.Position) int {
	return p.Captured(board.South) + p.Captured(board.North)
}

func newHoyitoSolver(nodeLimit int) *hoyitoSolver {
	return &hoyitoSolver{memo: map[solverKey]int{}, limit: nodeLimit}
}

// rootMoves returns the exact margin, for the side to move at root, of
// each legal move.
func (s *hoyitoSolver) rootMoves(t testing.TB, root board.Position) map[board.Move]int {
	out := map[board.Move]int{}
	for _, m := range root.LegalMoves() {
		c := after(t, root, m)
		out[m] = s.child(t, &root, c, nil, 0)
	}
	return out
}

// child returns the margin of c, reached from p by one move, for p's side to
// move.
func (s *hoyitoSolver) child(t testing.TB, p *board.Position, c board.Position, since []uint64, hash uint64) int {
	var v int
	if capturedTotal(&c) != capturedTotal(p) {
		v = s.solve(t, c, nil, 0)
	} else {
		v = s.solve(t, c, with(since, p.Key()), hash+mix(p.Key()))
	}
	if c.Side() != p.Side() {
		v = -v
	}
	return v
}

// solve returns the exact final margin for p's side to move; since holds the
// keys of the game's positions since the last capture, hash their multiset
// hash.
func (s *hoyitoSolver) solve(t testing.TB, p board.Position, since []uint64, hash uint64) int {
	s.nodes++
	if s.limit > 0 && s.nodes > s.limit {
		t.Fatalf("the exact solver needs more than %d nodes", s.limit)
	}
	if st := p.Status(since); st.Over() {
		me := p.Side()
		return st.Seeds[me] - st.Seeds[me.Other()]
	}
	mk := solverKey{p.Key(), hash, p.Clock(), p.AfterPass()}
	if v, ok := s.memo[mk]; ok {
		return v
	}
	best := -1 << 30
	for _, m := range p.LegalMoves() {
		best = max(best, s.child(t, &p, after(t, p, m), since, hash))
	}
	s.memo[mk] = best
	return best
}

// endScore scores a finished game for the side to move at ply plies from
// the root, by the search's conventions.
func endScore(p *board.Position, st board.Status, ply int) Score {
	me := p.Side()
	if p.Variant().Family() == board.Hoyito {
		return HoyitoEnd(st.Seeds[me]-st.Seeds[me.Other()], ply)
	}
	switch w, ok := st.Result.Winner(); {
	case !ok:
		return 0
	case w == me:
		return KatroWin(ply)
	}
	return -KatroWin(ply)
}

// negamax is a plain minimax search of the whole game tree below a
// position, with no pruning, no table and no evaluation: it returns the
// game-theoretic score for the side to move (by the search's conventions
// for game ends: faster Katro wins and slower losses score higher, Hoyito
// III margins with the ply as tie-break), the length in plies of the
// longest line, and gives up (ok false) beyond maxNodes nodes.
type negamax struct {
	nodes, maxNodes int
	path            []uint64 // the game's keys before the current node
}

// run searches p, whose game went through history, as if at ply ply.
func (n *negamax) run(t testing.TB, p board.Position, history []uint64, ply int) (score Score, longest int, ok bool) {
	n.path = append(n.path[:0], history...)
	return n.search(t, p, ply)
}

func (n *negamax) search(t testing.TB, p board.Position, ply int) (score Score, longest int, ok bool) {
	n.nodes++
	if n.nodes > n.maxNodes {
		return 0, 0, false
	}
	if st := p.Status(n.path); st.Over() {
		return endScore(&p, st, ply), 0, true
	}
	n.path = append(n.path, p.Key())
	defer func() { n.path = n.path[:len(n.path)-1] }()
	best := -Infinity
	for _, m := range p.LegalMoves() {
		c := after(t, p, m)
		v, l, ok := n.search(t, c, ply+1)
		if !ok {
			return 0, 0, false
		}
		if c.Side() != p.Side() {
			v = -v
		}
		best = max(best, v)
		longest = max(longest, l+1)
	}
	return best, longest, true
}
