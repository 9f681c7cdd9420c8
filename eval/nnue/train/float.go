package train

import (
	"math"
	"math/rand/v2"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
)

// Limits on the float weights, so that the quantised network's int16
// weights and accumulators and int32 sums cannot overflow: an accumulator
// sums at most 40 rows and its bias, 41 × 2 × 255 < 32767; a dense sum is
// at most 2·H × 255 × 8·256 plus its bias, far below 2^31.
const (
	maxFT    = 2.0
	maxDense = 8.0
	maxOut   = 100.0
	maxBias  = 1000.0
)

// H and L1 are the layer widths of package nnue.
const (
	H  = nnue.Hidden
	L1 = nnue.L1
)

// Float is a network in floating point, trained here and quantised to
// an nnue.Net. Its parameters are one slice (Params) so that the
// optimiser and the checkpoint treat them alike; the named slices view
// it.
type Float struct {
	Family board.Family
	Params []float32
	FT     []float32 // input i's row: FT[i*H : (i+1)*H]
	FTBias []float32 // H
	Dense  []float32 // neuron j's weights: Dense[j*2*H : (j+1)*2*H]
	DBias  []float32 // L1
	Out    []float32 // L1
	OBias  []float32 // 1
}

// NumParams returns the number of parameters of family f's network.
func NumParams(f board.Family) int {
	return nnue.Inputs(f)*H + H + L1*2*H + L1 + L1 + 1
}

// NewFloat returns family f's network with the given parameters (a new
// zero slice when params is nil).
func NewFloat(f board.Family, params []float32) *Float {
	if params == nil {
		params = make([]float32, NumParams(f))
	}
	n := &Float{Family: f, Params: params}
	rest := params
	take := func(k int) []float32 {
		s := rest[:k:k]
		rest = rest[k:]
		return s
	}
	n.FT = take(nnue.Inputs(f) * H)
	n.FTBias = take(H)
	n.Dense = take(L1 * 2 * H)
	n.DBias = take(L1)
	n.Out = take(L1)
	n.OBias = take(1)
	return n
}

// Init sets random starting weights from rng: small feature weights, a
// bias that puts the accumulators inside the clipped ReLU's slope, and
// dense weights scaled to their fan-in.
func (n *Float) Init(rng *rand.Rand) {
	u := func(a float64) float32 { return float32((2*rng.Float64() - 1) * a) }
	for i := range n.FT {
		n.FT[i] = u(0.1)
	}
	for i := range n.FTBias {
		n.FTBias[i] = 0.3
	}
	for i := range n.Dense {
		n.Dense[i] = u(math.Sqrt(3.0 / (2 * H)))
	}
	for i := range n.DBias {
		n.DBias[i] = 0.2
	}
	for i := range n.Out {
		n.Out[i] = u(math.Sqrt(3.0 / L1))
	}
	n.OBias[0] = 0
}

// clip keeps the weights within the quantisation's limits.
func (n *Float) clip() {
	c := func(s []float32, m float32) {
		for i, x := range s {
			s[i] = min(max(x, -m), m)
		}
	}
	c(n.FT, maxFT)
	c(n.FTBias, maxFT)
	c(n.Dense, maxDense)
	c(n.DBias, maxBias)
	c(n.Out, maxOut)
	c(n.OBias, maxBias)
}

// activations holds one position's forward pass, for the backward pass.
type activations struct {
	acc [2][H]float32 // side to move's, opponent's, before clipping
	z1  [L1]float32   // dense sums before clipping
	h   [L1]float32
	y   float32 // the output, in seeds
}

// forward evaluates the position with inputs us (the side to move's
// perspective) and them (the opponent's).
func (n *Float) forward(us, them []uint16, a *activations) float32 {
	for p, in := range [2][]uint16{us, them} {
		acc := &a.acc[p]
		copy(acc[:], n.FTBias)
		for _, i := range in {
			row := n.FT[int(i)*H : int(i)*H+H]
			for k := range acc {
				acc[k] += row[k]
			}
		}
	}
	var x [2 * H]float32
	for p := range a.acc {
		for k, v := range a.acc[p] {
			x[p*H+k] = min(max(v, 0), 1)
		}
	}
	y := n.OBias[0]
	for j := range a.z1 {
		w := n.Dense[j*2*H : (j+1)*2*H]
		s := n.DBias[j]
		for k, v := range x {
			s += w[k] * v
		}
		a.z1[j] = s
		a.h[j] = min(max(s, 0), 1)
		y += n.Out[j] * a.h[j]
	}
	a.y = y
	return y
}

// backward adds to g the gradient of the loss for one position, whose
// derivative with respect to the output is dy.
func (n *Float) backward(us, them []uint16, a *activations, dy float32, g *Float) {
	g.OBias[0] += dy
	var dx [2 * H]float32
	for j := range a.z1 {
		g.Out[j] += dy * a.h[j]
		if a.z1[j] <= 0 || a.z1[j] >= 1 {
			continue
		}
		dz := dy * n.Out[j]
		g.DBias[j] += dz
		w := n.Dense[j*2*H : (j+1)*2*H]
		gw := g.Dense[j*2*H : (j+1)*2*H]
		for p := range a.acc {
			for k, v := range a.acc[p] {
				if v > 0 && v < 1 {
					gw[p*H+k] += dz * v
					dx[p*H+k] += dz * w[p*H+k]
				} else if v >= 1 {
					gw[p*H+k] += dz
				}
			}
		}
	}
	for p, in := range [2][]uint16{us, them} {
		d := dx[p*H : p*H+H]
		for k, v := range d {
			g.FTBias[k] += v
		}
		for _, i := range in {
			row := g.FT[int(i)*H : int(i)*H+H]
			for k, v := range d {
				row[k] += v
			}
		}
	}
}

// Quantise returns the integer network nearest n, with the description.
func (n *Float) Quantise(description string) *nnue.Net {
	q := nnue.New(n.Family, description)
	r16 := func(x float32, s float64) int16 {
		return int16(max(min(math.Round(float64(x)*s), math.MaxInt16), math.MinInt16))
	}
	r32 := func(x float32, s float64) int32 {
		return int32(max(min(math.Round(float64(x)*s), math.MaxInt32), math.MinInt32))
	}
	for i, w := range n.FT {
		q.FT[i] = r16(w, nnue.QA)
	}
	for i, w := range n.FTBias {
		q.FTBias[i] = r16(w, nnue.QA)
	}
	for j := range q.Dense {
		for k := range q.Dense[j] {
			q.Dense[j][k] = r16(n.Dense[j*2*H+k], nnue.QB)
		}
		q.DenseBias[j] = r32(n.DBias[j], nnue.QA*nnue.QB)
		q.Out[j] = r16(n.Out[j], nnue.QB)
	}
	q.OutBias = r32(n.OBias[0], nnue.QA*nnue.QB)
	return q
}
