package tables

// Holes is the number of holes of a Hoyito III board; Row the holes of one
// player's row.
const (
	Holes = 12
	Row   = 6
)

// MaxSeeds is the largest layer the package can index: the whole board.
const MaxSeeds = 48

// cells is a board seen from the side to move: cells[0..5] is the mover's
// row and cells[6..11] the opponent's, both in sowing order (the circuit
// a1 b1 … f1 f2 … a2 for South, rotated by six holes for North).
type cells [Holes]uint8

// binom[i][k] is the binomial coefficient C(i, k) for the ranks of layers
// up to MaxSeeds seeds. It is a constant table (a few KiB) computed by a
// pure function; the package keeps no mutable globals.
var binom = func() (t [MaxSeeds + Holes][Holes]uint64) {
	for i := range t {
		t[i][0] = 1
		for k := 1; k < Holes && k <= i; k++ {
			t[i][k] = t[i-1][k-1]
			if k < i {
				t[i][k] += t[i-1][k]
			}
		}
	}
	return t
}()

// Positions returns how many boards hold n seeds in the twelve holes:
// C(n+11, 11).
func Positions(n int) uint64 {
	if n < 0 || n > MaxSeeds {
		return 0
	}
	return binom[n+Holes-1][Holes-1]
}

// rank returns the combinatorial rank of c among the boards with its seed
// total: the 11 separators of n seeds in n+11 slots, at slots
// s_i = c[0]+…+c[i]+i, are the set {s_0 < … < s_10}, ranked by the
// combinatorial number system Σ C(s_i, i+1).
func rank(c *cells) uint64 {
	var r uint64
	s := -1
	for i := 0; i < Holes-1; i++ {
		s += int(c[i]) + 1
		r += binom[s][i+1]
	}
	return r
}

// unrank returns the board with n seeds whose rank is r (r < Positions(n)).
func unrank(r uint64, n int) cells {
	var c cells
	top := n + Holes - 1 // one past the highest slot
	var sep [Holes - 1]int
	for i := Holes - 2; i >= 0; i-- {
		s := top - 1
		for binom[s][i+1] > r {
			s--
		}
		sep[i] = s
		r -= binom[s][i+1]
		top = s
	}
	prev := -1
	for i := 0; i < Holes-1; i++ {
		c[i] = uint8(sep[i] - prev - 1)
		prev = sep[i]
	}
	c[Holes-1] = uint8(n + Holes - 2 - prev)
	return c
}

// next advances c to the board of the next rank with the same seed total
// and reports false after the last one. The order is the colexicographic
// order of the separator sets, which the combinatorial number system ranks
// consecutively.
func next(c *cells) bool {
	// The lowest separator i that can move up one slot is the one with
	// c[i+1] > 0: moving it takes a seed from hole i+1 and gives it to
	// hole i; the lower separators return to the bottom, which gathers
	// the seeds of holes 0..i into hole i.
	for i := 0; i < Holes-1; i++ {
		if c[i+1] > 0 {
			c[i+1]--
			var sum uint8
			for j := 0; j <= i; j++ {
				sum += c[j]
				c[j] = 0
			}
			c[i] = sum + 1
			return true
		}
	}
	return false
}

// rotate returns the board seen from the other side: the opponent's row
// first.
func (c *cells) rotate() cells {
	var r cells
	copy(r[:Row], c[Row:])
	copy(r[Row:], c[:Row])
	return r
}

// rowSum returns the seeds in the mover's row (0) or the opponent's (1).
func (c *cells) rowSum(side int) int {
	n := 0
	for _, k := range c[side*Row : side*Row+Row] {
		n += int(k)
	}
	return n
}
