package eval

import (
	"github.com/sower-engine/sower/board"
)

// The learned evaluation is linear in a family's features, each weighted
// twice: a middle-game weight (MG) and an end-game weight (EG), blended by
// the game phase (tapered evaluation):
//
//	score = (Σ x·MG · phase + Σ x·EG · (PhaseMax − phase)) / PhaseMax
//
// Every feature is the side to move's value less the opponent's, except
// tempo, which is 1. Features 0 to NumScalar-1 are scalar terms; from
// NumScalar on come the seed-count tables: one feature per circuit hole
// (counted from the side's own first hole, so both sides share a table)
// and per count bucket, worth +1 for each of the side to move's holes in
// that bucket and −1 for each of the opponent's.

// Scalar features of the learned Katro evaluation. The first five are the
// hand-made terms (see the package documentation).
const (
	LKSeeds Feature = iota
	LKMobility
	LKFront
	LKExposed
	LKSingles
	// LKThreats counts the side's back-row holes whose first lap ends on an
	// occupied hole of its front row that faces an occupied hole of the
	// opponent's front row: a capture one sowing away.
	LKThreats
	// LKTempo is 1: the value of having the move.
	LKTempo
)

// Scalar features of the learned Hoyito III evaluation. The first four are
// the hand-made terms.
const (
	LHCaptured Feature = iota
	LHRow
	LHThrees
	LHMoves
	// LHThreesAcross counts the threes (see LHThrees) that lie in the
	// opponent's row: capturing there takes the opponent's seeds.
	LHThreesAcross
	// LHTempo is 1: the value of having the move.
	LHTempo
)

// Feature indexes a feature of the learned evaluation.
type Feature int

// Sizes of the learned evaluation.
const (
	// NumScalar is the number of feature slots before the seed-count
	// tables; unused slots have weight 0 and value 0.
	NumScalar = 8
	// MaxFeatures bounds the features of a family: the scalar slots and a
	// table of 18 circuit holes by 8 buckets.
	MaxFeatures = NumScalar + 18*8
	// PhaseMax is the phase of a full middle game.
	PhaseMax = 64
	// MaxActive bounds the features with a non-zero value in a position.
	MaxActive = 2*18 + NumScalar
)

// Params are the weights of the learned evaluation for one family, in
// hundredths of a seed per unit of each feature.
type Params struct {
	Family board.Family
	// Variant names the board whose data fitted the weights.
	Variant string
	MG, EG  [MaxFeatures]int32
	// Command is the command line that produced the weights, or a note
	// saying how they were made.
	Command string
}

// Entry is a feature with its value in one position.
type Entry struct {
	Index int16
	Value int16
}

// Active lists the features of a position with a non-zero value (a feature
// may appear more than once; its values add up), and the position's phase.
type Active struct {
	Entries [MaxActive]Entry
	N       int
	Phase   int // 0 (end game) to PhaseMax (middle game)
}

// bucketTable maps each count to its bucket in family f's tables,
// numbered from 1 (0 for an empty hole): the number of the family's
// thresholds it reaches. Katro: 1, 2, 3, 4, 5-6, 7-9, 10+; Hoyito III: 1,
// 2, 3, 4, 5, 6-7, 8-11, 12+.
func bucketTable(f board.Family) (t [128]uint8) {
	thresholds := []int{1, 2, 3, 4, 5, 7, 10}
	if f == board.Hoyito {
		thresholds = []int{1, 2, 3, 4, 5, 6, 8, 12}
	}
	for c := range t {
		for _, th := range thresholds {
			if c >= th {
				t[c]++
			}
		}
	}
	return t
}

// Buckets returns the number of count buckets of a family's tables.
func Buckets(f board.Family) int {
	if f == board.Hoyito {
		return 8
	}
	return 7
}

// NumFeatures returns the number of features of v's learned evaluation.
func NumFeatures(v *board.Variant) int {
	return NumScalar + v.CircuitLen()*Buckets(v.Family())
}

// FeatureName names feature i of v's learned evaluation, for people:
// a scalar term's name, or "h<k>:<bucket>" for a table entry, k counting
// the side's circuit holes from 1 and the bucket named by its counts.
func FeatureName(v *board.Variant, i int) string {
	names := learnedKatroNames[:]
	if v.Family() == board.Hoyito {
		names = learnedHoyitoNames[:]
	}
	if i < NumScalar {
		if i < len(names) {
			return names[i]
		}
		return "unused"
	}
	nb := Buckets(v.Family())
	k, b := (i-NumScalar)/nb, (i-NumScalar)%nb
	return "h" + itoa(k+1) + ":" + bucketName(v.Family(), b+1)
}

var (
	learnedKatroNames  = [...]string{"seeds", "mobility", "front", "exposed", "singles", "threats", "tempo"}
	learnedHoyitoNames = [...]string{"captured", "row", "threes", "moves", "across", "tempo"}
)

// bucketName writes the counts of bucket b, such as "5-6" or "10+".
func bucketName(f board.Family, b int) string {
	t := bucketTable(f)
	lo, hi := -1, -1
	for c := range t {
		if int(t[c]) == b {
			if lo < 0 {
				lo = c
			}
			hi = c
		}
	}
	switch {
	case hi == len(t)-1:
		return itoa(lo) + "+"
	case lo == hi:
		return itoa(lo)
	}
	return itoa(lo) + "-" + itoa(hi)
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// HandParams returns learned-evaluation weights equal to the hand-made
// evaluation: each hand term's weight in both phases and every other
// feature at zero. The tuner starts from them.
func HandParams(f board.Family) Params {
	w := DefaultWeights(f)
	p := Params{Family: f, Command: "the hand-made weights"}
	n := int(numKatro)
	if f == board.Hoyito {
		n = int(numHoyito)
	}
	for t := 0; t < n; t++ {
		p.MG[t], p.EG[t] = int32(w[t]), int32(w[t])
	}
	return p
}

// NewLearned returns an Evaluator that scores with the learned evaluation
// and the given weights, which must be of v's family.
func NewLearned(v *board.Variant, w *Params) *Evaluator {
	e := NewWithWeights(v, DefaultWeights(v.Family()))
	e.params = *w
	e.learned = &e.params
	for i := range e.packed {
		e.packed[i] = pack(w.MG[i], w.EG[i])
	}
	if v.Family() == board.Hoyito {
		n, nb := v.CircuitLen(), Buckets(board.Hoyito)
		for j := 0; j < n; j++ {
			for b := 0; b < nb; b++ {
				e.across[j*nb+b] = e.packed[NumScalar+j*nb+b] - e.packed[NumScalar+(j+n/2)%n*nb+b]
			}
		}
	}
	return e
}

// pack returns mg·2^32 + eg. Sums of packed pairs (times small integers)
// are unpacked by unpack as long as each half stays within 32 bits.
func pack(mg, eg int32) int64 { return int64(mg)<<32 + int64(eg) }

// unpack splits a sum of packed pairs.
func unpack(x int64) (mg, eg int64) {
	eg = int64(int32(uint32(x)))
	return (x - eg) >> 32, eg
}

// taper blends middle-game and end-game sums by the phase. Division
// truncates toward zero, so negated sums give the negated score.
func taper(mg, eg int64, phase int) int {
	return int((mg*int64(phase) + eg*int64(PhaseMax-phase)) / PhaseMax)
}

// Learned returns the evaluator's learned weights, or nil when it uses
// the hand-made evaluation.
func (e *Evaluator) Learned() *Params { return e.learned }

// Features computes the learned evaluation's features of p into a.
// It allocates nothing.
func (e *Evaluator) Features(p *board.Position, a *Active) {
	var f features
	e.scan(p, a, &f)
	me, opp := p.Side(), p.Side().Other()
	for t := 0; t < NumScalar; t++ {
		a.add(t, f[me][t]-f[opp][t])
	}
}

// scan puts the table entries of p into a, sets its phase, and computes
// every scalar feature for each side into f.
func (e *Evaluator) scan(p *board.Position, a *Active, f *features) {
	a.N = 0
	if e.family == board.Hoyito {
		e.hoyitoScan(p, a, f)
	} else {
		e.katroScan(p, a, f)
	}
	f[p.Side()][e.tempo()] = 1
}

// tempo returns the tempo feature of the evaluator's family.
func (e *Evaluator) tempo() Feature {
	if e.family == board.Hoyito {
		return LHTempo
	}
	return LKTempo
}

// Weight returns feature i's weight at phase ph, blended between its
// middle-game and end-game weights.
func (w *Params) Weight(i, ph int) int {
	return taper(int64(w.MG[i]), int64(w.EG[i]), ph)
}

// ExactWeight returns feature i's weight at phase ph as it multiplies a
// feature's value: the blend (MG·ph + EG·(PhaseMax − ph)) / PhaseMax before
// Weight truncates it, exact in a float64 (a multiple of 1/PhaseMax).
func (w *Params) ExactWeight(i, ph int) float64 {
	return float64(int64(w.MG[i])*int64(ph)+int64(w.EG[i])*int64(PhaseMax-ph)) / PhaseMax
}

// HoleValuesTerm names the last line of the learned evaluation's
// breakdown: the seed-count tables, a weight per hole and seed count (not
// the endgame tables of package tables).
const HoleValuesTerm = "hole values"

// Score returns the learned evaluation of features a with weights w: the
// middle-game and end-game sums of weight times value, blended by the
// phase (truncated toward zero).
func (w *Params) Score(a *Active) int {
	var mg, eg int64
	for _, x := range a.Entries[:a.N] {
		mg += int64(w.MG[x.Index]) * int64(x.Value)
		eg += int64(w.EG[x.Index]) * int64(x.Value)
	}
	return taper(mg, eg, a.Phase)
}

func (a *Active) add(i int, v int) {
	if v != 0 {
		a.Entries[a.N] = Entry{int16(i), int16(v)}
		a.N++
	}
}

// learnedBreakdown is Breakdown for the learned evaluation: every scalar
// feature with its weight blended by the position's phase, then one line
// "hole values" for the seed-count tables, whose values are each side's
// sum of its holes' blended table weights and whose score is the rest of
// the total (the tables' share and the rounding of the blend).
func (e *Evaluator) learnedBreakdown(p *board.Position) []TermValue {
	var a Active
	var f features
	e.scan(p, &a, &f)
	w := e.learned
	me, opp := p.Side(), p.Side().Other()
	names := learnedKatroNames[:]
	if e.family == board.Hoyito {
		names = learnedHoyitoNames[:]
	}
	out := make([]TermValue, 0, len(names)+1)
	rest := e.Evaluate(p)
	for t, name := range names {
		d := int64(f[me][t] - f[opp][t])
		sc := taper(int64(w.MG[t])*d, int64(w.EG[t])*d, a.Phase)
		rest -= sc
		out = append(out, TermValue{Name: name, South: f[board.South][t], North: f[board.North][t],
			Weight: w.Weight(t, a.Phase), ExactWeight: w.ExactWeight(t, a.Phase), Score: sc})
	}
	var tables [2]int
	for _, x := range a.Entries[:a.N] {
		s := me
		if x.Value < 0 {
			s = opp
		}
		tables[s] += w.Weight(int(x.Index), a.Phase)
	}
	return append(out, TermValue{Name: HoleValuesTerm, South: tables[board.South], North: tables[board.North],
		Weight: 1, ExactWeight: 1, Score: rest})
}

// BuiltinParams returns the learned weights built into the program for
// v (see the generated files weights_*.go). They were fitted on one board
// of each family; on the family's other boards BuiltinParams returns the
// hand-made weights (HandParams), with which the learned evaluation scores
// exactly as the hand-made one.
func BuiltinParams(v *board.Variant) Params {
	if v.Family() == board.Hoyito && v.Name() == board.NameHoyito3 {
		return builtinHoyito()
	}
	if v.Name() == board.NameKatro {
		return builtinKatro()
	}
	hp := HandParams(v.Family())
	hp.Variant = v.Name()
	hp.Command = "the hand-made weights (the built-in learned weights are for katro and hoyito3)"
	return hp
}
