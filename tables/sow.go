package tables

import "github.com/sower-engine/sower/board"

// Outcome is what a move does to the board.
type outcome uint8

const (
	endless outcome = iota // the sowing does not end within board.MaxLaps laps: not legal
	quiet                  // the last lap ended in an empty hole: the turn passes
	capture                // the last lap made a four that was captured: the mover again
)

// sow plays the move from hole h (0..5, the mover's row) on c as rule
// book 2.4 and 2.5 have it: relay sowing over the whole circuit, a capture
// of a landing hole that now holds exactly four (in the opponent's row only
// when anySide is false), the end of the move in a hole that was empty, and
// an endless sowing when lap board.MaxLaps ends with a relay. On a capture
// the four seeds are removed from c. c is left in an unspecified state for
// an endless sowing.
func sow(c *cells, h int, anySide bool) outcome {
	n := int(c[h])
	c[h] = 0
	s := h
	for lap := 1; ; lap++ {
		if n >= Holes {
			q := uint8(n / Holes)
			for i := range c {
				c[i] += q
			}
			n %= Holes
		}
		for ; n > 0; n-- {
			s++
			if s == Holes {
				s = 0
			}
			c[s]++
		}
		k := c[s]
		if k == 1 {
			return quiet
		}
		if k == 4 && (anySide || s >= Row) {
			c[s] = 0
			return capture
		}
		if lap == board.MaxLaps {
			return endless
		}
		n = int(k)
		c[s] = 0
	}
}
