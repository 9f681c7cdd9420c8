package board

import (
	"errors"
	"fmt"
	"math/bits"
)

// Position is a game position: a small value, copied to make a move
// (copy-make). The board is bitpacked: each hole is a 7-bit lane (a hole
// holds at most 72 seeds) and nine lanes share a 64-bit word; the holes of
// a sowing circuit are stored in circuit order, so sowing n seeds adds a
// precomputed mask to at most two words whatever n is. Katro keeps each
// player's 18-hole circuit in a region of two words; Hoyito III keeps its
// single 12-hole circuit in region 0.
//
// The zero Position is not usable; get one from Variant.Start or
// Variant.ParsePosition.
type Position struct {
	v     *Variant
	cells [2]span // per region, lanes in circuit order
	key   uint64
	clock uint32   // plies since the last capture
	capt  [2]uint8 // seeds captured by South and North (Hoyito III)
	side  Side
	state uint8 // bit 0: the last ply was a pass; bits 1-3: end reason
}

const (
	statePassed     = 1
	stateReasonBits = 1
)

// Start returns the start position of the variant.
func (v *Variant) Start() Position {
	p := Position{v: v}
	for k := 0; k < v.circ; k++ {
		p.cells[0].add(k, v.seeds)
		if v.family == Katro {
			p.cells[1].add(k, v.seeds)
		}
	}
	p.key = p.computeKey()
	return p
}

// Variant returns the position's variant.
func (p *Position) Variant() *Variant { return p.v }

// Side returns the side to move.
func (p *Position) Side() Side { return p.side }

// MaxClock is the largest clock: the largest the notation reads, and the
// clock stays there when more plies without a capture are played, so that
// every position's notation can be read back. No-capture limits are far
// below it.
const MaxClock = 1<<31 - 1

// Clock returns the plies played since the last capture, at most MaxClock.
func (p *Position) Clock() int { return int(p.clock) }

// tick counts a ply without a capture; the clock saturates at MaxClock.
func (p *Position) tick() {
	if p.clock < MaxClock {
		p.clock++
	}
}

// Captured returns the seeds captured by s (always 0 in Katro, where seeds
// never leave the board).
func (p *Position) Captured(s Side) int { return int(p.capt[s]) }

// AfterPass reports whether the last ply was a pass (Hoyito III); a second
// pass in a row ends the game. Not part of the notation.
func (p *Position) AfterPass() bool { return p.state&statePassed != 0 }

// Key returns the position's hash key. It covers the board, the side to
// move and the capture totals; it does not cover the clock or AfterPass, so
// that equal keys mean the same position in the sense of the repetition
// rule.
//
// The key is additive (a Zobrist-style key with + in place of xor): each
// hole h has a random 64-bit key R[h] and
//
//	Key = Σ count(h)·R[h] + [North to move]·S + captS·C0 + captN·C1  (mod 2^64)
//
// so dropping a seed adds R[h], picking up k seeds subtracts k·R[h], and a
// whole lap adds a precomputed sum: the key is updated as seeds move, in
// constant time per lap. Two positions with the same seed total collide only
// when Σ d(h)·R[h] ≡ 0 for their difference d, which for random keys has a
// chance of about 2^-58 at worst (counts differ by less than 2^7).
func (p *Position) Key() uint64 { return p.key }

// Count returns the seeds in hole m, or 0 if m is not a hole of the board.
func (p *Position) Count(m Move) int {
	r := p.v.regionOf[m]
	if r < 0 {
		return 0
	}
	return p.cells[r].get(int(p.v.laneOf[m]))
}

// OnBoard returns the seeds on the board.
func (p *Position) OnBoard() int {
	n := 0
	for r := range p.cells {
		n += p.cells[r].sum()
	}
	return n
}

// SeedsOf returns the seeds in the holes owned by s.
func (p *Position) SeedsOf(s Side) int {
	c, m := p.region(s), &p.v.own[s]
	return (&span{c[0] & m[0], c[1] & m[1]}).sum()
}

// Balance returns side s's seed balance: the seeds in its holes less the
// opponent's (Katro, where a side wins by taking every seed), or its
// captures less the opponent's (Hoyito III, where captures decide).
func (p *Position) Balance(s Side) int {
	if p.v.family == Hoyito {
		return p.Captured(s) - p.Captured(s.Other())
	}
	return p.SeedsOf(s) - p.SeedsOf(s.Other())
}

// region returns the words that hold s's holes.
func (p *Position) region(s Side) *span {
	if p.v.family == Hoyito {
		return &p.cells[0]
	}
	return &p.cells[s]
}

// Lane constants for word-parallel tests: a one, the low six bits and the
// top bit of every lane.
const (
	laneOnes = 1 | 1<<7 | 1<<14 | 1<<21 | 1<<28 | 1<<35 | 1<<42 | 1<<49 | 1<<56
	laneLow6 = laneOnes * 0x3f
	laneTop  = laneOnes * 0x40
)

// nonZero returns w with the top bit of each non-empty lane set and every
// other bit clear. Adding 63 to a lane's low six bits carries into its top
// bit when they are not all zero, and never out of the lane.
func nonZero(w uint64) uint64 { return ((w & laneLow6) + laneLow6 | w) & laneTop }

// occupied counts the non-empty lanes of c under mask m.
func occupied(c *span, m *span) int {
	return bits.OnesCount64(nonZero(c[0])&m[0]) + bits.OnesCount64(nonZero(c[1])&m[1])
}

// NonEmpty returns how many holes of s's row at depth d hold seeds: d = 0
// is s's outer row (Katro) or its only row (Hoyito III), Depth()-1 its
// inner row.
func (p *Position) NonEmpty(s Side, d int) int {
	if p.v.family == Hoyito {
		return occupied(&p.cells[0], &p.v.own[s])
	}
	return occupied(&p.cells[s], &p.v.rowMask[d])
}

// HolesWith returns how many of s's holes hold exactly n seeds (0 ≤ n < 128).
func (p *Position) HolesWith(s Side, n int) int {
	c, m := p.region(s), &p.v.own[s]
	fill := uint64(n&laneMask) * laneOnes
	// Lanes equal to n become zero; count the others and subtract.
	x := span{c[0] ^ fill&m[0], c[1] ^ fill&m[1]}
	return occupied(m, m) - occupied(&x, m)
}

// FrontDepth returns the depth of s's innermost row that holds seeds (its
// front row), or -1 when s has none. In Hoyito III it is 0 or -1.
func (p *Position) FrontDepth(s Side) int {
	for d := p.v.depth - 1; d >= 0; d-- {
		if p.rowHolds(s, d) {
			return d
		}
	}
	return -1
}

// BackDepth returns the depth of s's outermost row that holds seeds (its
// back row, where Katro moves start), or -1 when s has none.
func (p *Position) BackDepth(s Side) int {
	for d := 0; d < p.v.depth; d++ {
		if p.rowHolds(s, d) {
			return d
		}
	}
	return -1
}

// rowHolds reports whether s's row at depth d holds any seed.
func (p *Position) rowHolds(s Side, d int) bool {
	c, m := p.region(s), &p.v.rowMask[d]
	if p.v.family == Hoyito {
		m = &p.v.own[s]
	}
	return c[0]&m[0]|c[1]&m[1] != 0
}

// computeKey computes the key from scratch.
func (p *Position) computeKey() uint64 {
	v := p.v
	var k uint64
	for r := 0; r < 2; r++ {
		for l := 0; l < v.circ; l++ {
			k += uint64(p.cells[r].get(l)) * v.laneKey[r][l]
		}
	}
	if p.side == North {
		k += v.sideKey
	}
	k += uint64(p.capt[0])*v.capKey[0] + uint64(p.capt[1])*v.capKey[1]
	return k
}

// Check verifies the position's invariants, as Stockfish's pos_is_ok does:
// counts in range, nothing outside the circuits, seeds conserved, the key
// equal to a key computed from scratch, and the rule book's validity rules
// for the position (section 3). It returns nil or an error naming the first
// broken invariant. Tests and fuzzing call it after every move.
func (p *Position) Check() error {
	v := p.v
	if v == nil {
		return errors.New("position has no variant")
	}
	if p.side > North {
		return fmt.Errorf("side %d is not South or North", p.side)
	}
	for r := 0; r < 2; r++ {
		for l := 0; l < 2*lanesPerWord; l++ {
			c := p.cells[r].get(l)
			if l >= v.circ || (r == 1 && v.family == Hoyito) {
				if c != 0 {
					return fmt.Errorf("lane %d of region %d is outside the board but holds %d", l, r, c)
				}
				continue
			}
			if c > v.total {
				return fmt.Errorf("%s holds %d seeds, more than the %d of the game", v.holeAt[r][l], c, v.total)
			}
		}
		if p.cells[r][0]>>63 != 0 || p.cells[r][1]>>63 != 0 {
			return fmt.Errorf("spare bit of region %d is set", r)
		}
	}
	if err := p.validate(p.slowSum()); err != nil {
		return err
	}
	if k := p.computeKey(); k != p.key {
		return fmt.Errorf("key %016x differs from the key computed from scratch %016x", p.key, k)
	}
	if p.v.family == Katro && (p.capt != [2]uint8{} || p.state != 0) {
		return errors.New("a Katro position has captures or a pass state")
	}
	return nil
}

// slowSum adds the lanes one by one: unlike OnBoard it is right even when
// a region holds more seeds than a game can, as unchecked input may.
func (p *Position) slowSum() int {
	n := 0
	for r := range p.cells {
		for l := 0; l < 2*lanesPerWord; l++ {
			n += p.cells[r].get(l)
		}
	}
	return n
}

// validate applies the validity rules of section 3 of the rule book, given
// the seeds on the board.
func (p *Position) validate(board int) error {
	v := p.v
	sum := board + int(p.capt[0]) + int(p.capt[1])
	if sum != v.total {
		if v.family == Hoyito {
			return fmt.Errorf("seeds add up to %d (board %d, captured %d and %d), want %d",
				sum, board, p.capt[0], p.capt[1], v.total)
		}
		return fmt.Errorf("seeds add up to %d, want %d", sum, v.total)
	}
	if v.family == Katro {
		if p.SeedsOf(p.side.Other()) == 0 {
			return fmt.Errorf("%s, not to move, has no seeds: that game is already over", p.side.Other())
		}
		return nil
	}
	if board == 0 {
		return nil
	}
	if board <= 4 {
		return fmt.Errorf("board holds %d %s: a game in progress holds more than 4", board, plural(board, "seed", "seeds"))
	}
	for s := South; s <= North; s++ {
		if p.capt[s]%4 != 0 {
			return fmt.Errorf("%s's captures %d are not a multiple of 4", s, p.capt[s])
		}
	}
	return nil
}

// get returns the seeds in lane k.
func (s *span) get(k int) int {
	u := uint(k)
	return int(s[u/lanesPerWord&1] >> (laneBits * (u % lanesPerWord)) & laneMask)
}

// add adds n seeds to lane k.
func (s *span) add(k, n int) {
	s[k/lanesPerWord] += uint64(n) << (laneBits * (k % lanesPerWord))
}

// take empties lane k and returns what it held.
func (s *span) take(k int) int {
	u := uint(k)
	w, sh := u/lanesPerWord&1, laneBits*(u%lanesPerWord)
	n := int(s[w] >> sh & laneMask)
	s[w] &^= laneMask << sh
	return n
}

// sum returns the seeds in every lane. Multiplying a word by a one in every
// lane adds all nine lanes into the top lane; no lane overflows because a
// region never holds more than 72 seeds.
func (s *span) sum() int {
	const ones = 1 | 1<<7 | 1<<14 | 1<<21 | 1<<28 | 1<<35 | 1<<42 | 1<<49 | 1<<56
	return int((s[0]*ones)>>56&laneMask + (s[1]*ones)>>56&laneMask)
}

// Row returns the seeds of one of s's rows, indexed by column (0 = column
// a): depth 0 is s's outer row (Katro) or s's only row (Hoyito III), depth
// Depth()-1 its inner row. Columns past the board's width are zero.
func (p *Position) Row(s Side, depth int) (row [maxCols]uint8) {
	v := p.v
	for c := 0; c < v.cols; c++ {
		var m Move
		if s == South {
			m = HoleMove(depth, c)
		} else {
			m = HoleMove(v.rows-1-depth, c)
		}
		row[c] = uint8(p.cells[v.regionOf[m]].get(int(v.laneOf[m])))
	}
	return row
}

// Circuit returns the seeds of s's sowing circuit in sowing order (Katro),
// or of the whole board's circuit starting at a1 (Hoyito III, whatever s),
// and the circuit's length. Lanes past the length are zero.
func (p *Position) Circuit(s Side) (c [maxLanes]uint8, n int) {
	r := int(s)
	if p.v.family == Hoyito {
		r = 0
	}
	w := p.cells[r][0]
	for k := 0; k < lanesPerWord; k++ {
		c[k] = uint8(w & laneMask)
		w >>= laneBits
	}
	w = p.cells[r][1]
	for k := lanesPerWord; k < maxLanes; k++ {
		c[k] = uint8(w & laneMask)
		w >>= laneBits
	}
	return c, p.v.circ
}

// plural returns one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
