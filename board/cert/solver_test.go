package cert_test

import (
	"math/rand/v2"
	"strings"

	"github.com/sower-engine/sower/board"
)

// outcome is a game's value for the side to move.
type outcome int8

const (
	loss outcome = iota - 1
	draw
	win
)

// slowSolver is the tests' own exhaustive solver, independent of the
// package and of the engine's search: plain recursion over LegalMoves and
// After, memoised by the notation of board and side, where a position
// already on the line being searched counts as a draw (the loser could
// repeat it). It ignores the no-capture limit. Its wins and losses are
// sound: each rests on results found before it, so the moves it keeps form
// a proof without cycles; its draws may be wrong (a draw found through the
// line being searched is kept), which can only hide wins.
type slowSolver struct {
	memo   map[string]solved
	onLine map[string]bool
	nodes  int
	budget int // nodes before it gives up
}

type solved struct {
	value outcome
	move  board.Move // the winning move when value is win
}

func newSlowSolver(budget int) *slowSolver {
	return &slowSolver{memo: map[string]solved{}, onLine: map[string]bool{}, budget: budget}
}

// noClock is p's notation without the clock.
func noClock(p *board.Position) string {
	s := p.String()
	return s[:strings.LastIndexByte(s, ' ')]
}

// solve returns p's value for the side to move, and false when the budget
// ran out.
func (s *slowSolver) solve(p board.Position) (outcome, bool) {
	k := noClock(&p)
	if r, ok := s.memo[k]; ok {
		return r.value, true
	}
	if s.onLine[k] {
		return draw, true
	}
	if s.nodes++; s.nodes > s.budget {
		return draw, false
	}
	moves := p.LegalMoves()
	best := solved{value: loss}
	s.onLine[k] = true
	for _, m := range moves {
		c, err := p.After(m)
		if err != nil {
			panic(err) // LegalMoves lists legal moves
		}
		r, ok := s.solve(c)
		if !ok {
			return draw, false
		}
		if -r > best.value {
			best = solved{value: -r, move: m}
		}
		if best.value == win {
			break
		}
	}
	delete(s.onLine, k)
	s.memo[k] = best
	return best.value, true
}

// oracle gives the solver's winning moves.
func (s *slowSolver) oracle(p *board.Position) (board.Move, bool) {
	r, ok := s.memo[noClock(p)]
	return r.move, ok && r.value == win
}

// randomLate plays random moves from v's start until one side holds at
// most seeds seeds, and returns the position and the one before it (where
// the side that took the seeds was to move); false if the game ended first.
func randomLate(v *board.Variant, rng *rand.Rand, seeds int) (p, prev board.Position, ok bool) {
	p = v.Start()
	prev = p
	for range 2000 {
		if min(p.SeedsOf(board.South), p.SeedsOf(board.North)) <= seeds {
			return p, prev, true
		}
		ms := p.LegalMoves()
		if len(ms) == 0 {
			return p, prev, false
		}
		prev = p
		p, _ = p.After(ms[rng.IntN(len(ms))])
	}
	return p, prev, false
}
