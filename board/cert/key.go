package cert

import "github.com/sower-engine/sower/board"

// key is the compact binary key of a Katro position without its clock: the
// seeds of every hole, 7 bits each, nine holes to a word in row-major order
// (row 1 first, west to east), and the side to move in the top bit of the
// last word. It identifies the board and side exactly, unlike the 64-bit
// hash key, so a checker never mistakes one position for another.
type key [4]uint64

const (
	holeBits     = 7
	holesPerWord = 9
	sideBit      = 63
)

// set stores n seeds for hole i (row-major index); the hole is empty.
func (k *key) set(i, n int) {
	k[i/holesPerWord] |= uint64(n) << (holeBits * (i % holesPerWord))
}

// setSide records the side to move.
func (k *key) setSide(s board.Side) {
	if s == board.North {
		k[3] |= 1 << sideBit
	}
}

// keyOf returns p's key.
func keyOf(p *board.Position) key {
	var k key
	v := p.Variant()
	i := 0
	for r := 0; r < v.Rows(); r++ {
		for c := 0; c < v.Cols(); c++ {
			k.set(i, p.Count(board.HoleMove(r, c)))
			i++
		}
	}
	k.setSide(p.Side())
	return k
}
