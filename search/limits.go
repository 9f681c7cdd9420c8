package search

import (
	"time"

	"github.com/sower-engine/sower/board"
)

// Limits says when a search stops. Zero fields are unset; with nothing set
// (and Infinite false) the search runs to MaxPly or until stopped, like an
// infinite search.
type Limits struct {
	Depth     int           // iterations to complete
	Nodes     uint64        // nodes to search
	MoveTime  time.Duration // time for this move
	Clock     [2]time.Duration
	HasClock  [2]bool // Clock and Inc are set for South [0] and North [1]
	Inc       [2]time.Duration
	MovesToGo int  // moves to the next time control, 0 if none
	Infinite  bool // search until stopped
	// SearchMoves restricts the root to these moves, if not empty.
	SearchMoves []board.Move
	// Overhead is kept back from every time budget for communication.
	Overhead time.Duration
	// Ponder, if not nil, makes the search ponder: it runs without limits
	// until Ponder.Hit, then under these limits, its clock starting then.
	// It does not end while it ponders, unless its context is cancelled.
	Ponder *Ponder
	// Skill, if not nil, makes the search play at a strength level:
	// below FullSkill it weakens the search (see skill.go), and at any
	// level it evaluates with the linear evaluation, on which the levels
	// and their Elo ladders were measured (Engine.SetNet).
	Skill *Skill
	// MultiPV is the number of best root moves to find, each with its
	// score and line (see Info.MultiPV); 0 or 1 finds the best only.
	MultiPV int
}

// timed reports whether the limits include a time budget.
func (l *Limits) timed(side board.Side) bool {
	return !l.Infinite && (l.MoveTime > 0 || l.HasClock[side])
}

// Default time-management constants.
const (
	defaultMovesToGo = 30
	minThink         = time.Millisecond
)

// budget returns the soft time (do not start another iteration after about
// half of it) and the hard time (stop the search) for the side to move.
//
// With a clock, the search plans to spend the time left divided by the
// moves to go (30 when unknown) plus three quarters of the increment, may
// stretch to four times that when the best move is unstable, and never uses
// more than a third of the time left plus the increment, less the
// overhead; so it never loses on time while the overhead covers the GUI's
// delays.
func (l *Limits) budget(side board.Side) (soft, hard time.Duration) {
	if l.MoveTime > 0 {
		t := max(l.MoveTime-l.Overhead, minThink)
		return t, t
	}
	left := l.Clock[side] - l.Overhead
	inc := max(l.Inc[side], 0)
	if left < minThink {
		return minThink, minThink
	}
	mtg := l.MovesToGo
	if mtg <= 0 || mtg > defaultMovesToGo {
		mtg = defaultMovesToGo
	}
	soft = left/time.Duration(mtg) + inc*3/4
	hard = min(4*soft, left/3+inc, left*9/10)
	if mtg == 1 {
		hard = left * 9 / 10 // the last move before the time control
		soft = hard / 2
	}
	soft = max(min(soft, hard), minThink)
	hard = max(hard, minThink)
	return soft, hard
}
