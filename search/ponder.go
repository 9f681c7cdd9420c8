package search

import (
	"sync"
	"time"
)

// Ponder is the handle of a pondering search (Limits.Ponder): the search
// runs without limits until Hit, then goes on — the same search, keeping
// its work — under its Limits, its clock starting at the hit. A Ponder is
// safe to hit from any goroutine, once or more; only the first hit counts.
type Ponder struct {
	hit  chan struct{}
	once sync.Once
	at   time.Time // when hit; written before hit is closed
}

// NewPonder returns the handle of a search that starts pondering.
func NewPonder() *Ponder { return &Ponder{hit: make(chan struct{})} }

// Hit ends the pondering: the expected move was played, and the search's
// limits and clock now apply.
func (p *Ponder) Hit() {
	p.once.Do(func() {
		p.at = time.Now()
		close(p.hit)
	})
}

// hitAt returns when the ponder was hit, and false if it was not yet.
func (p *Ponder) hitAt() (time.Time, bool) {
	select {
	case <-p.hit:
		return p.at, true
	default:
		return time.Time{}, false
	}
}

// startLimits sets the limits at the start of a search: none while it
// ponders.
func (s *searcher) startLimits() {
	s.pondering = false
	s.clockStart = s.start
	if p := s.lim.Ponder; p != nil {
		at, hit := p.hitAt()
		s.pondering = !hit
		if hit {
			s.clockStart = at
		}
	}
	s.applyLimits(0)
}

// applyLimits sets the node, time and clock limits from s.lim, the node
// limit counting from base nodes; while the search ponders it has none,
// except a weakened search's budget (Skill), which counts every node of
// the search from its start, pondering included: a weakened engine with
// Ponder on must not play stronger than its level.
func (s *searcher) applyLimits(base uint64) {
	lim := &s.lim
	s.nodeLimit = ^uint64(0)
	s.timed, s.fixedTime = false, false
	if lim.Skill.weak() {
		s.nodeLimit = SkillNodes(s.family, lim.Skill.Level)
	}
	if s.pondering {
		return
	}
	if lim.Nodes > 0 {
		s.nodeLimit = min(s.nodeLimit, base+lim.Nodes)
	}
	side := s.root.Side()
	s.timed = lim.timed(side)
	s.fixedTime = lim.MoveTime > 0 && !lim.Infinite
	if s.timed {
		s.soft, s.hard = lim.budget(side)
	}
}

// depthCap returns the deepest iteration the limits allow now.
func (s *searcher) depthCap() int {
	d := MaxPly - 1
	if s.pondering {
		return d
	}
	if s.lim.Depth > 0 {
		d = min(s.lim.Depth, d)
	}
	if s.nRoot == 1 && s.clocked() {
		d = 1 // a forced move: answer at once
	}
	return d
}

// pollPonder ends the pondering when the ponder was hit: the limits apply
// from then on, and a search that has already completed the depth they
// allow stops.
func (s *searcher) pollPonder() {
	if !s.pondering {
		return
	}
	at, hit := s.lim.Ponder.hitAt()
	if !hit {
		return
	}
	s.pondering = false
	s.clockStart = at
	s.applyLimits(s.nodes)
	if s.iterated && s.completed >= s.depthCap() {
		s.stopped = true
	}
}

// waitPonder waits, when the search ends while it still ponders, for the
// hit or the cancellation: a pondering search answers only then.
func (s *searcher) waitPonder() {
	if !s.pondering {
		return
	}
	select {
	case <-s.lim.Ponder.hit:
	case <-s.ctx.Done():
	}
	s.pondering = false
}
