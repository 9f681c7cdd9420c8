package tables

// noCap marks a position without a capturing move.
const noCap = -128

// expansion is what the moves of one position lead to.
type expansion struct {
	kids [Row]uint32 // the same-layer children (quiet moves, or the pass)
	nk   int
	// capLo and capHi are the best bounds the mover reaches by a capture
	// (the four seeds plus the lower layer's bound, or the last seeds'
	// award), noCap without one.
	capLo, capHi int8
	// capV is the best exact value the mover reaches by a capture under
	// Repetition off: the four seeds plus the lower layer's value at a
	// fresh clock, or the last seeds' award; noCap without one.
	capV int8
	// term is set when neither side has a legal move: two passes end the
	// game and each side keeps its own row; termVal is the margin.
	term    bool
	termVal int8
}

// expander computes the moves of a layer's positions.
type expander struct {
	seeds   int
	anySide bool
	fixed   bool
	n       uint64 // positions per half
	lower   *Layer // the layer below; nil for the lowest
}

// award returns the margin of a game-ending capture in the lowest layer
// for the mover: the four captured plus the last four, which go to the
// capturer, or to the fixed player (the mover in half 0).
func (e *expander) award(half int) int8 {
	if !e.fixed || half == 0 {
		return 8
	}
	return 0
}

// index returns the state index of board c in half.
func (e *expander) index(half int, c *cells) uint32 {
	return uint32(uint64(half)*e.n + rank(c))
}

// expand lists the moves of board c with the side to move in half.
func (e *expander) expand(half int, c *cells, x *expansion) {
	x.nk, x.capLo, x.capHi, x.capV, x.term = 0, noCap, noCap, noCap, false
	other := half
	if e.fixed {
		other ^= 1
	}
	for h := 0; h < Row; h++ {
		if c[h] == 0 {
			continue
		}
		d := *c
		switch sow(&d, h, e.anySide) {
		case quiet:
			r := d.rotate()
			x.kids[x.nk] = e.index(other, &r)
			x.nk++
		case capture:
			var lo, hi, v int8
			if e.lower == nil {
				lo = e.award(half)
				hi, v = lo, lo
			} else {
				i := uint64(half)*e.lower.n + rank(&d)
				en := decode(e.lower.data[i*EntrySize:])
				lo, hi, v = int8(4+en.Lo), int8(4+en.Hi), int8(4+en.Value)
			}
			x.capLo = max(x.capLo, lo)
			x.capHi = max(x.capHi, hi)
			x.capV = max(x.capV, v)
		}
	}
	if x.nk > 0 || x.capLo != noCap {
		return
	}
	// No legal move: pass. If the opponent cannot move either, the second
	// pass ends the game.
	r := c.rotate()
	if !hasMove(&r, e.anySide) {
		x.term = true
		x.termVal = int8(c.rowSum(0) - c.rowSum(1))
		return
	}
	x.kids[0] = e.index(other, &r)
	x.nk = 1
}

// hasMove reports whether the mover on c has a legal (not endless) move.
func hasMove(c *cells, anySide bool) bool {
	for h := 0; h < Row; h++ {
		if c[h] != 0 {
			d := *c
			if sow(&d, h, anySide) != endless {
				return true
			}
		}
	}
	return false
}
