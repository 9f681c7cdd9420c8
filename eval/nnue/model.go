package nnue

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/sower-engine/sower/board"
)

// maxLanes is the longest sowing circuit (Katro 6x6).
const maxLanes = 18

// Model is a network bound to a board: for each perspective, the first
// input of every hole. It is a value with no pointers but the network's,
// so a search keeps one without allocating.
type Model struct {
	net     *Net
	v       *board.Variant
	regions int // circuits read from a position: 2 in Katro, 1 in Hoyito III
	lanes   int
	// slot[p][r][k] is the input of one seed in lane k of region r from
	// perspective p; bucket b (1 to Buckets) adds b-1.
	slot [2][2][maxLanes]int16
	// dense is the network's dense weights transposed, input i's weight
	// to every neuron (so that an input clipped to zero is skipped whole),
	// two neurons to an int64: neuron 2k's weight plus neuron 2k+1's
	// times 2^32 (see propagatePlain).
	dense [2 * Hidden][L1 / 2]int64
	bias  [L1 / 2]int64 // the dense biases, packed alike
}

// katroBase returns the first hole slot of a Katro board.
func katroBase(v *board.Variant) (int, error) {
	switch {
	case v.Rows() == 6 && v.Cols() == 6:
		return 0, nil
	case v.Rows() == 6 && v.Cols() == 3:
		return 36, nil
	case v.Rows() == 4 && v.Cols() == 6:
		return 54, nil
	case v.Rows() == 4 && v.Cols() == 4:
		return 78, nil
	}
	return 0, fmt.Errorf("nnue: no inputs for a %dx%d Katro board", v.Rows(), v.Cols())
}

// NewModel binds n to board v, which must be of n's family.
func NewModel(n *Net, v *board.Variant) (Model, error) {
	if err := n.check(); err != nil {
		return Model{}, err
	}
	if v.Family() != n.Family {
		return Model{}, fmt.Errorf("nnue: a %s network cannot evaluate %s", n.Family, v.Name())
	}
	m := Model{net: n, v: v, lanes: v.CircuitLen()}
	for j := range n.Dense {
		for i, w := range n.Dense[j] {
			m.dense[i][j/2] += int64(w) << (32 * (j % 2))
		}
		m.bias[j/2] += int64(n.DenseBias[j]) << (32 * (j % 2))
	}
	if n.Family == board.Katro {
		base, err := katroBase(v)
		if err != nil {
			return Model{}, err
		}
		m.regions = 2
		for p := range 2 {
			for r := range 2 {
				rel := 0
				if r != p {
					rel = m.lanes
				}
				for k := 0; k < m.lanes; k++ {
					m.slot[p][r][k] = int16((base + rel + k) * Buckets)
				}
			}
		}
		return m, nil
	}
	m.regions = 1
	for p := board.South; p <= board.North; p++ {
		start := firstOwned(v, p)
		for k := 0; k < m.lanes; k++ {
			m.slot[p][0][k] = int16((k - start + m.lanes) % m.lanes * Buckets)
		}
	}
	return m, nil
}

// firstOwned returns the first lane of p's holes in the Hoyito III
// circuit: the lane owned by p that follows one owned by the other side.
func firstOwned(v *board.Variant, p board.Side) int {
	n := v.CircuitLen()
	for k := 0; k < n; k++ {
		if v.Owner(v.CircuitHole(p, k)) == p && v.Owner(v.CircuitHole(p, (k+n-1)%n)) != p {
			return k
		}
	}
	return 0
}

// Net returns the model's network.
func (m *Model) Net() *Net { return m.net }

// bucket returns the bucket of a hole holding c seeds, 0 when empty.
func bucket(c uint8) uint8 {
	switch {
	case c <= 8:
		return c
	case c < 12:
		return 9
	case c < 16:
		return 10
	case c < 24:
		return 11
	}
	return 12
}

// captureInput returns the input of side s's captures from perspective p
// (Hoyito III).
func captureInput(p, s board.Side, quarters uint8) int {
	i := 12*Buckets + int(min(quarters, captureInputs-1))
	if s != p {
		i += captureInputs
	}
	return i
}

// snapshot is what an accumulator was computed from: each lane's bucket
// and, in Hoyito III, each side's captures in fours. Its 40 bytes are
// compared eight at a time (snapshot.word): lane k of region r is byte
// r·maxLanes + k, side s's captures byte 2·maxLanes + s.
type snapshot struct {
	bucket [2][maxLanes]uint8
	capt   [2]uint8
	_      [2]uint8 // to a whole number of words, always zero
}

// snapWords is the number of 8-byte words of a snapshot.
const snapWords = 5

// A snapshot is exactly snapWords words: this fails to compile otherwise
// (a negative constant overflows a uintptr).
const _ = unsafe.Sizeof(snapshot{}) - 8*snapWords + (8*snapWords - unsafe.Sizeof(snapshot{}))

// word returns bytes 8i to 8i+7 of s, byte 8i+j at bits 8j to 8j+7 on any
// byte order.
func (s *snapshot) word(i int) uint64 {
	b := (*[8 * snapWords]uint8)(unsafe.Pointer(s))
	return binary.LittleEndian.Uint64(b[8*i:])
}

// byteLows has the low seven bits of each byte.
const byteLows = 0x7f7f_7f7f_7f7f_7f7f

// nonzeroBytes returns x with the top bit of each non-zero byte set and
// every other bit clear: adding 0x7f to a byte's low seven bits carries
// into its top bit exactly when they are not all zero, and never beyond.
func nonzeroBytes(x uint64) uint64 { return ((x & byteLows) + byteLows | x) &^ byteLows }

// Masks of a snapshot's words: the top bits of the lanes' bytes, and of
// the capture counts' (bytes 36 and 37, in the last word). They are
// written for 18 lanes a region: this fails to compile otherwise.
const _ = uint(maxLanes-18) + uint(18-maxLanes)

const (
	laneBytes    = 0x8080_8080_8080_8080
	lastLanes    = 0x0000_0000_8080_8080
	captureBytes = 0x0000_8080_0000_0000
)

// laneMask returns the mask of the lanes' bytes in word i.
func laneMask(i int) uint64 {
	if i == snapWords-1 {
		return lastLanes
	}
	return laneBytes
}

// diff returns, for each word, the top bit of every byte where x and y
// differ, and the number of such bytes.
func diff(x, y *snapshot) (d [snapWords]uint64, n int) {
	for i := range d {
		d[i] = nonzeroBytes(x.word(i) ^ y.word(i))
		n += bits.OnesCount64(d[i])
	}
	return d, n
}

// read takes p's snapshot.
func (m *Model) read(p *board.Position, s *snapshot) {
	// The lanes and captures a board does not use must read zero: the
	// comparisons cover every byte (diff), and a's snapshot in Refresh
	// may hold another board's.
	*s = snapshot{}
	for r := 0; r < m.regions; r++ {
		c, _ := p.Circuit(board.Side(r))
		for k := 0; k < m.lanes; k++ {
			s.bucket[r][k] = bucket(c[k])
		}
	}
	if m.regions == 1 {
		s.capt[0] = uint8(p.Captured(board.South) / 4)
		s.capt[1] = uint8(p.Captured(board.North) / 4)
	}
}

// Features appends to dst the active inputs of position p from
// perspective persp, and returns it: the inputs training feeds the float
// network, the same as the accumulator's.
func (m *Model) Features(p *board.Position, persp board.Side, dst []int) []int {
	var s snapshot
	m.read(p, &s)
	for r := 0; r < m.regions; r++ {
		for k := 0; k < m.lanes; k++ {
			if b := s.bucket[r][k]; b != 0 {
				dst = append(dst, int(m.slot[persp][r][k])+int(b)-1)
			}
		}
	}
	if m.regions == 1 {
		for side := board.South; side <= board.North; side++ {
			dst = append(dst, captureInput(persp, side, s.capt[side]))
		}
	}
	return dst
}
