package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
)

// Dataset holds training positions as their learned-evaluation features
// and labels.
type Dataset struct {
	v       *board.Variant
	ev      *eval.Evaluator
	entries []eval.Entry
	samples []sample
}

// sample is one position: its features are entries[off : off+n].
type sample struct {
	off    uint32
	n      uint8
	phase  uint8
	result float32 // the game's result for the side to move: 1, 0.5 or 0
	score  float32 // the search score, hundredths of a seed
	group  uint64  // the game it comes from: validation takes whole games
}

// NewDataset returns an empty dataset for v.
func NewDataset(v *board.Variant) *Dataset {
	hp := eval.HandParams(v.Family())
	return &Dataset{v: v, ev: eval.NewLearned(v, &hp)}
}

// Len returns the number of positions.
func (d *Dataset) Len() int { return len(d.samples) }

// Add adds a record; file tells records of different files apart, whose
// game numbers may be the same.
func (d *Dataset) Add(r *Record, file int) {
	var a eval.Active
	d.ev.Features(&r.Pos, &a)
	d.AddFeatures(a.Entries[:a.N], a.Phase, r.Target(), float64(r.Score), uint64(file)<<32|uint64(r.Game))
}

// AddFeatures adds a position given by its features and phase, with the
// result for the side to move (0 to 1), the search score and the group
// (game) it belongs to.
func (d *Dataset) AddFeatures(es []eval.Entry, phase int, result, score float64, group uint64) {
	d.samples = append(d.samples, sample{off: uint32(len(d.entries)), n: uint8(len(es)), phase: uint8(phase),
		result: float32(result), score: float32(score), group: group})
	d.entries = append(d.entries, es...)
}

// Config sets how Tune fits.
type Config struct {
	// Lambda is the weight of the game result in the target; the search
	// score, through the sigmoid, has 1 − Lambda.
	Lambda float64
	// K is the sigmoid's scale, per hundredth of a seed; 0 fits it first
	// on the start weights (FitK).
	K        float64
	Epochs   int     // at most this many passes over the training set
	Batch    int     // positions per step
	Rate     float64 // Adam's step size, in hundredths of a seed
	Patience int     // stop after this many epochs without a better validation loss
	// ValidShare is the share of the games held out for validation. With
	// 0 the training set is the validation set (early stopping follows
	// the training loss); a share that holds out no game is an error.
	ValidShare float64
	Seed       uint64 // for the split and the order of the positions
	Start      eval.Params
	// ScalarsOnly fits only the scalar features; the seed-count tables
	// keep their start weights.
	ScalarsOnly bool
	// Log, if set, receives each epoch's losses.
	Log func(Epoch)
}

// DefaultConfig returns the settings of sower tune.
func DefaultConfig(f board.Family) Config {
	return Config{Lambda: 0.5, Epochs: 200, Batch: 4096, Rate: 1, Patience: 10, ValidShare: 0.1, Seed: 1, Start: eval.HandParams(f)}
}

// Epoch reports the losses after one pass over the training set.
type Epoch struct {
	N            int
	Train, Valid float64
	Best         bool // the best validation loss so far: these weights are kept
}

// Result is what Tune found.
type Result struct {
	Params        eval.Params // the weights with the best validation loss, rounded
	K             float64
	Train, Valid  int     // positions in each set
	StartLoss     float64 // the validation loss of the start weights
	Loss          float64 // the validation loss of Params (as rounded)
	Epochs        int
	StoppedEarly  bool
	ValidationSet int // number of games held out
}

// model is the floating-point form of eval.Params.
type model struct {
	mg, eg []float64
}

func newModel(p *eval.Params, n int) model {
	m := model{make([]float64, n), make([]float64, n)}
	for i := range n {
		m.mg[i], m.eg[i] = float64(p.MG[i]), float64(p.EG[i])
	}
	return m
}

func (m *model) params(f board.Family, command string) eval.Params {
	p := eval.Params{Family: f, Command: command}
	for i := range m.mg {
		p.MG[i] = int32(math.Round(m.mg[i]))
		p.EG[i] = int32(math.Round(m.eg[i]))
	}
	return p
}

// eval returns the model's evaluation of s.
func (d *Dataset) eval(m *model, s *sample) float64 {
	ph := float64(s.phase) / eval.PhaseMax
	var mg, eg float64
	for _, x := range d.entries[s.off : s.off+uint32(s.n)] {
		mg += m.mg[x.Index] * float64(x.Value)
		eg += m.eg[x.Index] * float64(x.Value)
	}
	return mg*ph + eg*(1-ph)
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// target returns s's target for lambda and k.
func target(s *sample, lambda, k float64) float64 {
	return lambda*float64(s.result) + (1-lambda)*sigmoid(k*float64(s.score))
}

// loss returns the mean squared error of the model over the samples idx.
func (d *Dataset) loss(m *model, idx []int32, lambda, k float64) float64 {
	if len(idx) == 0 {
		return 0
	}
	sum := 0.0
	for _, i := range idx {
		s := &d.samples[i]
		e := sigmoid(k*d.eval(m, s)) - target(s, lambda, k)
		sum += e * e
	}
	return sum / float64(len(idx))
}

// FitK returns the sigmoid scale K that best predicts the game results
// from the evaluation with weights p (Texel tuning's first step), by a
// golden-section search on log K.
func (d *Dataset) FitK(p *eval.Params) float64 {
	m := newModel(p, eval.NumFeatures(d.v))
	all := make([]int32, len(d.samples))
	for i := range all {
		all[i] = int32(i)
	}
	f := func(lk float64) float64 { return d.loss(&m, all, 1, math.Exp(lk)) }
	return math.Exp(golden(math.Log(1e-5), math.Log(1.0), 60, f))
}

// held reports whether game g goes to the validation set: a hash of the
// game, so that validation takes whole games.
func held(g uint64, share float64, seed uint64) bool {
	h := mix(g ^ seed*0x9e3779b97f4a7c15)
	return float64(h>>11)/(1<<53) < share
}

// split assigns whole games to the validation set (see held).
func (d *Dataset) split(share float64, seed uint64) (train, valid []int32, validGames int) {
	seen := map[uint64]bool{}
	for i := range d.samples {
		g := d.samples[i].group
		if held(g, share, seed) {
			valid = append(valid, int32(i))
			seen[g] = true
		} else {
			train = append(train, int32(i))
		}
	}
	return train, valid, len(seen)
}

// Sizes counts the positions and games of a dataset and of the training
// and validation sets Tune makes of it.
type Sizes struct {
	Positions, Games           int
	TrainPositions, TrainGames int
	ValidPositions, ValidGames int
}

// Sizes returns the sizes of d and of the sets Tune makes of it with this
// validation share and seed, without fitting anything: a caller can refuse
// a dataset too small before any work.
func (d *Dataset) Sizes(share float64, seed uint64) Sizes {
	var z Sizes
	seen := map[uint64]bool{}
	for i := range d.samples {
		g := d.samples[i].group
		v := held(g, share, seed)
		if v {
			z.ValidPositions++
		} else {
			z.TrainPositions++
		}
		if seen[g] {
			continue
		}
		seen[g] = true
		z.Games++
		if v {
			z.ValidGames++
		} else {
			z.TrainGames++
		}
	}
	z.Positions = len(d.samples)
	return z
}

// mix is SplitMix64's finaliser.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Tune fits the weights to the dataset: K first (unless set), then Adam on
// mini-batches, epoch by epoch, keeping the weights of the best validation
// loss and stopping after Patience epochs without one. It stops early,
// with the best weights so far, when ctx is cancelled.
func Tune(ctx context.Context, d *Dataset, cfg Config) (Result, error) {
	if d.Len() == 0 {
		return Result{}, errors.New("tune: no positions")
	}
	if cfg.Start.Family != d.v.Family() {
		return Result{}, fmt.Errorf("tune: start weights are for %s, the data for %s", cfg.Start.Family, d.v.Family())
	}
	if cfg.Batch < 1 || cfg.Epochs < 0 || cfg.Rate <= 0 || cfg.Lambda < 0 || cfg.Lambda > 1 || cfg.ValidShare < 0 || cfg.ValidShare >= 1 {
		return Result{}, fmt.Errorf("tune: bad settings %+v", cfg)
	}
	var res Result
	res.K = cfg.K
	if res.K <= 0 {
		res.K = d.FitK(&cfg.Start)
	}
	train, valid, vg := d.split(cfg.ValidShare, cfg.Seed)
	if len(train) == 0 {
		return res, errors.New("tune: every game went to the validation set; lower the validation share or add games")
	}
	if len(valid) == 0 {
		if cfg.ValidShare > 0 {
			return res, fmt.Errorf("tune: a validation share of %g held out none of the %d games; add games or raise the share", cfg.ValidShare, d.Sizes(0, 0).Games)
		}
		valid = train // ValidShare 0, nothing held out: stop on the training loss
	}
	res.Train, res.Valid, res.ValidationSet = len(train), len(valid), vg
	n := eval.NumFeatures(d.v)
	m := newModel(&cfg.Start, n)
	best := newModel(&cfg.Start, n)
	res.StartLoss = d.loss(&m, valid, cfg.Lambda, res.K)
	bestLoss := res.StartLoss
	opt := newAdam(n, cfg.Rate)
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x74756e65))
	grad := model{make([]float64, n), make([]float64, n)}
	stale := 0
	for ep := 1; ep <= cfg.Epochs; ep++ {
		rng.Shuffle(len(train), func(i, j int) { train[i], train[j] = train[j], train[i] })
		for b := 0; b < len(train); b += cfg.Batch {
			if ctx.Err() != nil {
				break
			}
			batch := train[b:min(b+cfg.Batch, len(train))]
			clear(grad.mg)
			clear(grad.eg)
			for _, i := range batch {
				s := &d.samples[i]
				ph := float64(s.phase) / eval.PhaseMax
				sg := sigmoid(res.K * d.eval(&m, s))
				g := 2 * (sg - target(s, cfg.Lambda, res.K)) * sg * (1 - sg) * res.K / float64(len(batch))
				for _, x := range d.entries[s.off : s.off+uint32(s.n)] {
					v := g * float64(x.Value)
					grad.mg[x.Index] += v * ph
					grad.eg[x.Index] += v * (1 - ph)
				}
			}
			if cfg.ScalarsOnly {
				clear(grad.mg[eval.NumScalar:])
				clear(grad.eg[eval.NumScalar:])
			}
			opt.step(&m, &grad)
		}
		if ctx.Err() != nil {
			break
		}
		e := Epoch{N: ep, Train: d.loss(&m, train, cfg.Lambda, res.K), Valid: d.loss(&m, valid, cfg.Lambda, res.K)}
		res.Epochs = ep
		if e.Valid < bestLoss {
			bestLoss, e.Best, stale = e.Valid, true, 0
			copy(best.mg, m.mg)
			copy(best.eg, m.eg)
		} else {
			stale++
		}
		if cfg.Log != nil {
			cfg.Log(e)
		}
		if cfg.Patience > 0 && stale >= cfg.Patience {
			res.StoppedEarly = true
			break
		}
	}
	res.Params = best.params(d.v.Family(), cfg.Start.Command)
	rounded := newModel(&res.Params, n)
	res.Loss = d.loss(&rounded, valid, cfg.Lambda, res.K)
	return res, nil
}

// adam is the Adam optimiser over a model's weights.
type adam struct {
	rate   float64
	t      int
	m1, m2 model
}

func newAdam(n int, rate float64) *adam {
	z := func() model { return model{make([]float64, n), make([]float64, n)} }
	return &adam{rate: rate, m1: z(), m2: z()}
}

func (a *adam) step(m, g *model) {
	const b1, b2, eps = 0.9, 0.999, 1e-12
	a.t++
	c1 := 1 - math.Pow(b1, float64(a.t))
	c2 := 1 - math.Pow(b2, float64(a.t))
	upd := func(w, g, m1, m2 []float64) {
		for i := range w {
			if g[i] == 0 && m1[i] == 0 {
				continue
			}
			m1[i] = b1*m1[i] + (1-b1)*g[i]
			m2[i] = b2*m2[i] + (1-b2)*g[i]*g[i]
			w[i] -= a.rate * (m1[i] / c1) / (math.Sqrt(m2[i]/c2) + eps)
		}
	}
	upd(m.mg, g.mg, a.m1.mg, a.m2.mg)
	upd(m.eg, g.eg, a.m1.eg, a.m2.eg)
}
