package nnue

import (
	"fmt"
	"math"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
)

// The architecture. A file records these numbers and Read refuses a
// network of another architecture.
const (
	// Arch numbers the architecture (the layer sizes, the inputs and the
	// quantisation below); it changes whenever any of them does.
	// Architecture 1 had an accumulator of 64 and a dense layer of 16;
	// architecture 2 halves both, which cost no measured strength a node
	// in Hoyito III and about a fifth of the gain in Katro, for a quarter
	// to a third more nodes a second (docs/nnue.md, "The network").
	Arch = 2
	// Hidden is the width of a perspective's accumulator.
	Hidden = 32
	// L1 is the width of the dense hidden layer.
	L1 = 8
	// Buckets is the number of seed-count buckets of a non-empty hole.
	Buckets = 12
	// QA is the scale of the accumulator and of the hidden layer's
	// output: a float activation of 1 is QA.
	QA = 255
	// QB is the scale of the dense layers' weights: a float weight of 1 is
	// QB. Sums are in QA·QB.
	QB = 256
	// OutScale is the score of an output of 1 (float): the network's
	// output is in seeds, the score in hundredths of a seed.
	OutScale = 100
)

// Input counts.
const (
	// katroSlots is the number of Katro hole slots: each board's two
	// circuits, 6x6 (18 holes each), 6x3 (9), 4x6 (12), 4x4 (8).
	katroSlots = 2 * (18 + 9 + 12 + 8)
	// KatroInputs is the number of inputs of a Katro network.
	KatroInputs = katroSlots * Buckets
	// captureInputs is the number of capture inputs of one side in
	// Hoyito III: 0 to 48 seeds, in fours.
	captureInputs = 13
	// HoyitoInputs is the number of inputs of a Hoyito III network: 12
	// holes, then each side's captures (the perspective's first).
	HoyitoInputs = 12*Buckets + 2*captureInputs
)

// Inputs returns the number of inputs of family f's networks.
func Inputs(f board.Family) int {
	if f == board.Hoyito {
		return HoyitoInputs
	}
	return KatroInputs
}

// Net is a quantised network of one family. Its weights are read only by
// evaluation: a Net is safe for concurrent use once built.
type Net struct {
	Family board.Family // the family whose positions it evaluates
	// Description says how the network was made (the training command).
	Description string
	// Boards has a bit (BoardBit) for each board whose data trained the
	// network, or is 0 when it evaluates every board of its family.
	Boards uint8
	// WDL is the win/draw/loss model fitted to the search scores of
	// self-play with this network (sower tune --fit-wdl --netfile), or
	// zero when none was: the engine's forecasts then use the linear
	// evaluation's model (eval.BuiltinWDL).
	WDL eval.WDLModel
	// version is the format version the network was read from, 0 for a
	// network made in memory (see fileVersion).
	version uint16
	// FT holds the feature transformer's weights, Hidden per input:
	// input i's row is FT[i*Hidden : (i+1)*Hidden]. Units of 1/QA.
	FT     []int16
	FTBias [Hidden]int16 // the accumulator's bias, units of 1/QA
	// Dense holds the hidden layer's weights, neuron j's from the side
	// to move's accumulator (0 to Hidden-1) then the opponent's. Units
	// of 1/QB.
	Dense     [L1][2 * Hidden]int16
	DenseBias [L1]int32 // units of 1/(QA·QB)
	Out       [L1]int16 // the output's weights, units of 1/QB
	OutBias   int32     // units of 1/(QA·QB)
}

// New returns a network of family f with every weight zero.
func New(f board.Family, description string) *Net {
	return &Net{Family: f, Description: description, FT: make([]int16, Inputs(f)*Hidden)}
}

// check reports whether n is complete for its family.
func (n *Net) check() error {
	if n.Family != board.Katro && n.Family != board.Hoyito {
		return fmt.Errorf("nnue: unknown family %d", n.Family)
	}
	if n.Boards&^allBoards(n.Family) != 0 {
		return fmt.Errorf("nnue: board bits %#x: a %s network has boards %#x", n.Boards, n.Family, allBoards(n.Family))
	}
	if want := Inputs(n.Family) * Hidden; len(n.FT) != want {
		return fmt.Errorf("nnue: %s network has %d feature weights, want %d", n.Family, len(n.FT), want)
	}
	// A dense neuron's sum must stay within an int32 whatever the
	// clipped accumulators are (0 to QA), so that every way of summing
	// it gives the same number.
	for j := range n.Dense {
		s := int64(n.DenseBias[j])
		if s < 0 {
			s = -s
		}
		for _, w := range n.Dense[j] {
			s += QA * max(int64(w), -int64(w))
		}
		if s > math.MaxInt32 {
			return fmt.Errorf("nnue: dense neuron %d's weights are too large: its sum could overflow", j)
		}
	}
	return nil
}

// BoardBit returns board v's bit in Net.Boards: for Katro, 1 for 6x6, 2
// for 6x3, 4 for 4x6 and 8 for 4x4; 1 for Hoyito III.
func BoardBit(v *board.Variant) (uint8, error) {
	if v.Family() == board.Hoyito {
		return 1, nil
	}
	base, err := katroBase(v)
	if err != nil {
		return 0, err
	}
	switch base {
	case 0:
		return 1, nil
	case 36:
		return 2, nil
	case 54:
		return 4, nil
	}
	return 8, nil
}

// allBoards returns the bits of every board of family f.
func allBoards(f board.Family) uint8 {
	if f == board.Hoyito {
		return 1
	}
	return 15
}

// Evaluates reports whether n was trained for board v (see Boards): a
// Katro network trained on one board's data has random weights for the
// others' inputs.
func (n *Net) Evaluates(v *board.Variant) bool {
	bit, err := BoardBit(v)
	return err == nil && v.Family() == n.Family && (n.Boards == 0 || n.Boards&bit != 0)
}

// row returns input i's feature-transformer row.
func (n *Net) row(i int) *[Hidden]int16 {
	return (*[Hidden]int16)(n.FT[i*Hidden : (i+1)*Hidden])
}

// propagate scores the accumulators by the definition: us is the side to
// move's, them the opponent's. It returns hundredths of a seed. Model
// evaluates faster (Model.propagate: transposed weights, or vectors);
// tests check that the results agree.
func (n *Net) propagate(us, them *[Hidden]int16) int {
	var in [2 * Hidden]int32
	for i, x := range us {
		in[i] = int32(min(max(x, 0), QA))
	}
	for i, x := range them {
		in[Hidden+i] = int32(min(max(x, 0), QA))
	}
	var sum [L1]int32
	for j := range n.Dense {
		w := &n.Dense[j]
		s := n.DenseBias[j]
		for i := range in {
			s += in[i] * int32(w[i])
		}
		sum[j] = s
	}
	return n.output(&sum)
}

// activate returns a dense neuron's clipped output from its sum: the sum
// divided by QB, rounded (halves up), within [0, QA].
func activate(s int32) int32 { return min(max((s+QB/2)/QB, 0), QA) }

// roundDiv returns x/d rounded to the nearest integer, halves away from
// zero (d > 0).
func roundDiv(x, d int64) int64 {
	if x < 0 {
		return -((-x + d/2) / d)
	}
	return (x + d/2) / d
}
