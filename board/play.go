package board

// Play makes move m in place and reports whether it was legal. m must be a
// move GenerateMoves would list (a non-empty hole of the mover's back row in
// Katro or own row in Hoyito III) or, in Hoyito III, Pass when the mover has
// no legal hole move; Play does not check that. Play returns false when the
// sowing is endless (rule book 1.6 and 2.5): the position is then left in an
// unspecified state and must be discarded, so callers play on a copy:
//
//	child := *p
//	if child.Play(m) { … }
//
// Play allocates nothing.
func (p *Position) Play(m Move) bool {
	if p.v.family == Hoyito {
		if m == Pass {
			p.pass()
			return true
		}
		return p.playHoyito(int(p.v.laneOf[m]))
	}
	return p.playKatro(int(p.v.laneOf[m]))
}

// sow drops n seeds in the lanes of region r that follow lane s on the
// circuit, updating the key, and returns the landing lane.
func (p *Position) sow(r, s, n int) int {
	v := p.v
	c := &p.cells[r]
	if n >= v.circ {
		laps := n / v.circ
		n -= laps * v.circ
		c[0] += uint64(laps) * v.ring[0]
		c[1] += uint64(laps) * v.ring[1]
		p.key += uint64(laps) * v.ringKey[r]
	}
	f := &v.fill[s][n]
	c[0] += f[0]
	c[1] += f[1]
	p.key += v.fillKey[r][s][n]
	s += n
	if s >= v.circ {
		s -= v.circ
	}
	return s
}

// lift empties lane l of region r, updating the key, and returns its seeds.
func (p *Position) lift(r, l int) int {
	n := p.cells[r].take(l)
	p.key -= uint64(n) * p.v.laneKey[r][l]
	return n
}

// turn hands the move to the other side.
func (p *Position) turn() {
	if p.side == South {
		p.key += p.v.sideKey
	} else {
		p.key -= p.v.sideKey
	}
	p.side ^= 1
}

// playKatro sows from lane s of the mover's circuit (rule book 1.4-1.6).
func (p *Position) playKatro(s int) bool {
	v := p.v
	me := int(p.side)
	opp := me ^ 1
	mine, theirs := &p.cells[me], &p.cells[opp]
	n := p.lift(me, s)
	captured := false
	for lap := 1; ; lap++ {
		land := p.sow(me, s, n)
		c := mine.get(land)
		if c == 1 {
			break
		}
		s = land
		// Capture test: the landing hole is in the mover's front row when
		// no deeper row holds seeds; the target is the hole of the
		// opponent's front row in the same column.
		if d := &v.deeper[land]; mine[0]&d[0]|mine[1]&d[1] == 0 {
			if t := v.target(theirs, opp, int(v.colOf[me][land])); t >= 0 && theirs.get(t) > 0 {
				captured = true
				n = p.lift(opp, t) + p.lift(me, land)
				if theirs[0]|theirs[1] == 0 {
					p.sow(me, s, n) // the opponent is empty: one last lap
					break
				}
				if lap == v.maxLaps {
					return false
				}
				continue
			}
		}
		if lap == v.maxLaps {
			return false
		}
		n = p.lift(me, land)
	}
	if captured {
		p.clock = 0
	} else {
		p.tick()
	}
	p.turn()
	return true
}

// target returns the lane of player opp's front row (innermost row holding
// seeds) in absolute column col, or -1 if opp has no seeds.
func (v *Variant) target(theirs *span, opp, col int) int {
	for d := v.depth - 1; d >= 0; d-- {
		if m := &v.rowMask[d]; theirs[0]&m[0]|theirs[1]&m[1] != 0 {
			return int(v.laneAt[opp][d][col])
		}
	}
	return -1
}

// playHoyito sows from lane s of the board's circuit (rule book 2.4-2.6).
func (p *Position) playHoyito(s int) bool {
	v := p.v
	c := &p.cells[0]
	n := p.lift(0, s)
	for lap := 1; ; lap++ {
		land := p.sow(0, s, n)
		k := c.get(land)
		if k == 1 {
			break
		}
		if k == 4 && (v.rules.CaptureSide == CaptureAny || land/v.cols != int(p.side)) {
			p.lift(0, land)
			p.capture(4)
			p.state = 0
			p.clock = 0
			if left := v.total - int(p.capt[0]) - int(p.capt[1]); left <= 4 {
				p.awardLastFour(left)
			}
			return true // an extra turn: the side to move does not change
		}
		if lap == v.maxLaps {
			return false
		}
		s = land
		n = p.lift(0, land)
	}
	p.state = 0
	p.tick()
	p.turn()
	return true
}

// capture adds n seeds to the mover's captures.
func (p *Position) capture(n int) { p.give(p.side, n) }

// give adds n seeds to the captures of s.
func (p *Position) give(s Side, n int) {
	p.capt[s] += uint8(n)
	p.key += uint64(n) * p.v.capKey[s]
}

// awardLastFour ends a Hoyito III game after a capture left left ≤ 4 seeds
// on the board: they go to the player the LastFour option names.
func (p *Position) awardLastFour(left int) {
	to := p.side
	switch p.v.rules.LastFour {
	case LastFourSouth:
		to = South
	case LastFourNorth:
		to = North
	}
	p.clearBoard()
	p.give(to, left)
	p.setEnd(ReasonLastFour)
}

// pass plays a Hoyito III pass; a second pass in a row ends the game.
func (p *Position) pass() {
	p.tick()
	p.turn()
	if p.state&statePassed != 0 {
		p.AwardRows(ReasonBothPassed)
		return
	}
	p.state = statePassed
}

// AwardRows ends a Hoyito III game the way the rule book ends it by two
// passes, the no-capture limit or repetition: each player adds the seeds of
// their own row to their captures and the board is emptied. The side to move
// and the clock are kept. The reason is recorded in the position. It does
// nothing to a Katro position.
func (p *Position) AwardRows(why Reason) {
	if p.v.family != Hoyito || p.OnBoard() == 0 {
		return
	}
	s, n := p.SeedsOf(South), p.SeedsOf(North)
	p.clearBoard()
	p.give(South, s)
	p.give(North, n)
	p.setEnd(why)
}

// clearBoard empties the board, updating the key.
func (p *Position) clearBoard() {
	for r := range p.cells {
		for l := 0; l < p.v.circ; l++ {
			p.lift(r, l)
		}
	}
}

func (p *Position) setEnd(why Reason) {
	p.state = uint8(why) << stateReasonBits
}
