package eval

import (
	"github.com/sower-engine/sower/board"
)

// Term identifies an evaluation term.
type Term int

// Katro terms.
const (
	KatroSeeds Term = iota
	KatroMobility
	KatroFront
	KatroExposed
	KatroSingles
	numKatro
)

// Hoyito III terms.
const (
	HoyitoCaptured Term = iota
	HoyitoRow
	HoyitoThrees
	HoyitoMoves
	numHoyito
)

// MaxTerms bounds the number of terms of a family.
const MaxTerms = 8

// Weights is a family's table of term weights, indexed by Term, in
// hundredths of a seed per unit of the term.
type Weights [MaxTerms]int

// DefaultWeights returns the weights Sower plays with for a family.
func DefaultWeights(f board.Family) Weights {
	if f == board.Hoyito {
		return Weights{
			HoyitoCaptured: 100,
			HoyitoRow:      8,
			HoyitoThrees:   30,
			HoyitoMoves:    4,
		}
	}
	return Weights{
		KatroSeeds:    100,
		KatroMobility: 6,
		KatroFront:    4,
		KatroExposed:  -20,
		KatroSingles:  -2,
	}
}

// names and docs of the terms, by family.
var (
	katroNames  = [...]string{"seeds", "mobility", "front", "exposed", "singles"}
	hoyitoNames = [...]string{"captured", "row", "threes", "moves"}
)

// Evaluator scores positions of one family with one table of weights. It
// has no mutable state and is safe for concurrent use.
type Evaluator struct {
	family  board.Family
	w       Weights
	geo     geometry
	learned *Params // the learned evaluation's weights (params), or nil
	params  Params
	// packed holds each learned weight pair as MG·2^32 + EG, so that one
	// addition accumulates both (see pack).
	packed [MaxFeatures]int64
	// across holds, for Hoyito III, each table entry of a hole counted
	// from the side to move's first hole less the same hole's entry counted
	// from the opponent's: one lookup scores a hole for both sides.
	across [12 * 8]int64
	bucket [128]uint8 // count → bucket of the learned tables (bucketTable)
}

// geometry describes each hole of a sowing circuit: its row (0 = outer) and
// column, for each side.
type geometry struct {
	lanes int
	depth int
	cols  int
	row   [18]uint8
	col   [2][18]uint8
}

// New returns the Evaluator Sower plays with for v: the learned
// evaluation with the weights built into the program (BuiltinParams), or,
// when the program is built with the tag "handeval" (go build -tags
// handeval), the hand-made evaluation with its default weights.
func New(v *board.Variant) *Evaluator {
	if playLearned {
		w := BuiltinParams(v)
		return NewLearned(v, &w)
	}
	return NewWithWeights(v, DefaultWeights(v.Family()))
}

// NewWithWeights returns an Evaluator with the given weights.
func NewWithWeights(v *board.Variant, w Weights) *Evaluator {
	e := &Evaluator{family: v.Family(), w: w, bucket: bucketTable(v.Family())}
	g := &e.geo
	g.lanes, g.depth, g.cols = v.CircuitLen(), v.Depth(), v.Cols()
	for s := board.South; s <= board.North; s++ {
		for k := 0; k < g.lanes; k++ {
			h := v.CircuitHole(s, k)
			g.row[k] = uint8(k / g.cols)
			g.col[s][k] = uint8(h.Col())
		}
	}
	return e
}

// features holds the value of every term for each side.
type features [2][MaxTerms]int

// Evaluate returns the score of p for the side to move, in hundredths of a
// seed. It allocates nothing.
func (e *Evaluator) Evaluate(p *board.Position) int {
	if e.learned != nil {
		if e.family == board.Hoyito {
			return e.hoyitoLearned(p)
		}
		return e.katroLearned(p)
	}
	var f features
	n := e.compute(p, &f)
	me, opp := p.Side(), p.Side().Other()
	s := 0
	for t := 0; t < n; t++ {
		s += e.w[t] * (f[me][t] - f[opp][t])
	}
	return s
}

func (e *Evaluator) compute(p *board.Position, f *features) int {
	if e.family == board.Hoyito {
		hoyitoFeatures(p, f)
		return int(numHoyito)
	}
	e.katroFeatures(p, f)
	return int(numKatro)
}

// katroFeatures computes the Katro terms of both sides with the board's
// word-parallel counters; only the exposed term looks at single holes. It
// returns each side's front row, by column, and the depths of its front
// and back rows (-1 for a side without seeds), for the learned terms.
func (e *Evaluator) katroFeatures(p *board.Position, f *features) (front [2][6]uint8, fr, bd [2]int) {
	for s := board.South; s <= board.North; s++ {
		ft := &f[s]
		ft[KatroSeeds] = p.SeedsOf(s)
		fr[s], bd[s] = p.FrontDepth(s), -1
		if fr[s] < 0 {
			continue
		}
		bd[s] = p.BackDepth(s)
		ft[KatroFront] = p.NonEmpty(s, fr[s])
		ft[KatroMobility] = p.NonEmpty(s, bd[s])
		ft[KatroSingles] = p.HolesWith(s, 1)
		front[s] = p.Row(s, fr[s])
	}
	for s := board.South; s <= board.North; s++ {
		o := s.Other()
		for col := 0; col < e.geo.cols; col++ {
			if front[o][col] != 0 {
				f[s][KatroExposed] += int(front[s][col])
			}
		}
	}
	return front, fr, bd
}

// hoyitoFeatures computes the Hoyito III terms of both sides.
func hoyitoFeatures(p *board.Position, f *features) {
	circ, n := p.Circuit(board.South)
	cols := n / 2
	for s := board.South; s <= board.North; s++ {
		ft := &f[s]
		ft[HoyitoCaptured] = p.Captured(s)
		first := int(s) * cols
		for k := first; k < first+cols; k++ {
			seeds := int(circ[k])
			if seeds == 0 {
				continue
			}
			ft[HoyitoRow] += seeds
			ft[HoyitoMoves]++
			if _, ok := makesFour(&circ, n, k, seeds); ok {
				ft[HoyitoThrees]++
			}
		}
	}
}

// makesFour reports whether sowing the seeds of hole k (of a circuit of n
// holes) ends its first lap on a hole then holding 4, and returns that
// hole.
func makesFour(circ *[18]uint8, n, k, seeds int) (land int, ok bool) {
	land = (k + seeds) % n
	extra := 0
	if seeds >= n {
		extra = seeds / n // full laps also drop in the landing hole
	}
	return land, int(circ[land])+extra == 3 && land != k
}

// TermValue is one line of a breakdown.
type TermValue struct {
	Name  string
	South int // the term's value for South
	North int // the term's value for North
	// Weight is the term's weight, truncated toward zero; ExactWeight is
	// the weight as it multiplies. They differ for the learned evaluation,
	// whose weight is a blend of two by the phase, (MG·phase + EG·(64 −
	// phase)) / 64: a multiple of 1/64, exact in a float64.
	Weight      int
	ExactWeight float64
	// Score is ExactWeight × (side to move − opponent), truncated toward
	// zero (for the hole values of the learned evaluation, see
	// Evaluator.Breakdown).
	Score int
}

// Breakdown lists every term of p's family with both sides' values, its
// weight and its contribution to Evaluate, whose result is the sum of the
// contributions. For the learned evaluation the last line, "hole values",
// gives each side's sum of its holes' seed-count weights (the
// evaluation's per-hole tables, not the endgame tables), with weight 1,
// and its score is the rest of the total: the hole values' share and the
// rounding of the blend.
func (e *Evaluator) Breakdown(p *board.Position) []TermValue {
	if e.learned != nil {
		return e.learnedBreakdown(p)
	}
	var f features
	n := e.compute(p, &f)
	names := katroNames[:]
	if e.family == board.Hoyito {
		names = hoyitoNames[:]
	}
	me, opp := p.Side(), p.Side().Other()
	out := make([]TermValue, n)
	for t := 0; t < n; t++ {
		out[t] = TermValue{
			Name:        names[t],
			South:       f[board.South][t],
			North:       f[board.North][t],
			Weight:      e.w[t],
			ExactWeight: float64(e.w[t]),
			Score:       e.w[t] * (f[me][t] - f[opp][t]),
		}
	}
	return out
}
