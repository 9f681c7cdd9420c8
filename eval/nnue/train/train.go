package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
)

// Config sets a training run.
type Config struct {
	// Lambda is the weight of the search's score in the target; the game
	// result has 1 − Lambda (see the package documentation).
	Lambda float64
	// Scale is the score scale in hundredths of a seed: a score s means
	// σ(s/Scale). 0 takes 1/K of the family's built-in WDL model.
	Scale    float64
	Epochs   int     // at most this many passes over the training set
	Batch    int     // positions per optimiser step
	Rate     float64 // Adam's step size
	Patience int     // stop after this many epochs without a better validation loss; 0 never
	// Drop multiplies the step size after every epoch whose validation
	// loss is not the best so far (reduce on plateau); 1 (or 0) keeps it.
	Drop       float64
	ValidShare float64 // share of the games held out for validation, below 1
	Seed       uint64  // for the initial weights, the split and the order of positions
	Threads    int     // goroutines computing a batch's gradient (the result does not depend on it)
	// Checkpoint, if set, is a file written after every epoch and read
	// at the start: a run resumes from it.
	Checkpoint string
	// Progress, if set, receives reports during and after each epoch.
	Progress func(Progress)
}

// DefaultConfig returns the settings of sower train.
func DefaultConfig() Config {
	return Config{Lambda: 0.75, Epochs: 30, Batch: 1024, Rate: 0.001, Patience: 5, Drop: 1, ValidShare: 0.1, Seed: 1, Threads: 2}
}

// Progress reports a run's course.
type Progress struct {
	Epoch, Epochs int
	Done          float64       // the share of the epoch done
	TimeLeft      time.Duration // estimated, for the remaining epochs at most
	EpochEnd      bool          // the epoch is complete: the losses are set
	Train, Valid  float64       // the epoch's losses
	Best          bool          // the best validation loss so far
	Rate          float64       // the step size for the next epoch
	Resumed       bool          // the run resumed from the checkpoint before this epoch
}

// Result is a finished (or interrupted) run.
type Result struct {
	Net          *Float  // the weights of the best validation loss
	StartLoss    float64 // the validation loss of the initial weights
	Loss         float64 // the best validation loss
	Epochs       int     // epochs completed
	Train, Valid int     // positions in each set
	StoppedEarly bool    // patience ran out
	Interrupted  bool    // the context was cancelled: the checkpoint holds the last complete epoch
	Scale        float64 // the score scale used
}

// sigmoid is the logistic function.
func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// target returns a sample's target: its exact result, or the blend of
// the search's score and the game's result.
func (c *Config) target(s *sample) float64 {
	if s.exact {
		return float64(s.result)
	}
	return c.Lambda*sigmoid(float64(s.score)/c.Scale) + (1-c.Lambda)*float64(s.result)
}

// check reports bad settings.
func (c *Config) check() error {
	switch {
	case math.IsNaN(c.Lambda) || c.Lambda < 0 || c.Lambda > 1:
		return fmt.Errorf("train: lambda %g: want 0 to 1", c.Lambda)
	case math.IsNaN(c.Scale) || math.IsInf(c.Scale, 0) || c.Scale < 0:
		return fmt.Errorf("train: scale %g: want 0 (the WDL model's) or more", c.Scale)
	case c.Epochs < 0:
		return fmt.Errorf("train: epochs %d: want 0 or more", c.Epochs)
	case c.Batch < 1:
		return fmt.Errorf("train: batch %d: want 1 or more", c.Batch)
	case math.IsNaN(c.Rate) || c.Rate <= 0 || math.IsInf(c.Rate, 0):
		return fmt.Errorf("train: rate %g: want more than 0", c.Rate)
	case c.Patience < 0:
		return fmt.Errorf("train: patience %d: want 0 or more", c.Patience)
	case math.IsNaN(c.Drop) || c.Drop < 0 || c.Drop > 1:
		return fmt.Errorf("train: drop %g: want more than 0, at most 1", c.Drop)
	case math.IsNaN(c.ValidShare) || c.ValidShare < 0 || c.ValidShare >= 1:
		return fmt.Errorf("train: validation share %g: want 0 or more, below 1", c.ValidShare)
	}
	return nil
}

// mix is SplitMix64's finaliser.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// split assigns whole games to the validation set by a hash of the game.
func (d *Dataset) split(share float64, seed uint64) (train, valid []int32) {
	for i := range d.samples {
		h := mix(d.samples[i].group ^ seed*0x9e3779b97f4a7c15)
		if float64(h>>11)/(1<<53) < share {
			valid = append(valid, int32(i))
		} else {
			train = append(train, int32(i))
		}
	}
	return train, valid
}

// loss returns the mean loss of n over the samples idx.
func (d *Dataset) loss(n *Float, idx []int32, c *Config) float64 {
	var a activations
	sum := 0.0
	for _, i := range idx {
		s := &d.samples[i]
		us, them := d.inputsOf(s)
		p := sigmoid(float64(n.forward(us, them, &a)) * 100 / c.Scale)
		e := p - c.target(s)
		sum += e * e
	}
	return sum / float64(max(len(idx), 1))
}

// chunks is the number of parts a batch's gradient is summed in, each
// by one goroutine, then added in order: the sum does not depend on the
// number of threads.
const chunks = 4

// state is what a checkpoint keeps: everything a run needs to go on.
type state struct {
	Family    board.Family
	Config    string // the settings that must match to resume
	Samples   int
	Exact     int // samples labelled with an exact result
	Epoch     int // epochs completed
	Params    []float32
	M1, M2    []float32 // Adam's moments
	Step      int       // Adam's steps
	Best      []float32
	BestLoss  float64
	StartLoss float64
	Stale     int
	Rate      float64 // the step size now (0 in checkpoints from before Drop: the configured one)
	TrainLoss float64
	Stopped   bool
}

// key returns the settings a checkpoint must share with a run to resume.
func (c *Config) key() string {
	k := fmt.Sprintf("lambda %g scale %g batch %d rate %g valid %g seed %d", c.Lambda, c.Scale, c.Batch, c.Rate, c.ValidShare, c.Seed)
	if c.Drop != 1 {
		k += fmt.Sprintf(" drop %g", c.Drop)
	}
	return k
}

// Train fits a network to d. With a checkpoint file that exists, it
// resumes the run saved there (refusing one of other settings or data).
// When ctx is cancelled it stops within a batch and returns the best
// weights so far with Interrupted set; the checkpoint holds the last
// complete epoch.
func Train(ctx context.Context, d *Dataset, cfg Config) (Result, error) {
	if err := cfg.check(); err != nil {
		return Result{}, err
	}
	if d.Len() == 0 {
		return Result{}, errors.New("train: no positions")
	}
	if cfg.Scale == 0 {
		cfg.Scale = 1 / eval.BuiltinWDL(d.family).K
	}
	if cfg.Drop == 0 {
		cfg.Drop = 1
	}
	train, valid := d.split(cfg.ValidShare, cfg.Seed)
	if len(train) == 0 {
		return Result{}, errors.New("train: every game went to the validation set; lower the share or add games")
	}
	if len(valid) == 0 {
		if cfg.ValidShare > 0 {
			return Result{}, fmt.Errorf("train: a validation share of %g held out no game; add games or raise it", cfg.ValidShare)
		}
		valid = train
	}
	res := Result{Train: len(train), Valid: len(valid), Scale: cfg.Scale}
	st, resumed, err := start(d, &cfg, valid)
	if err != nil {
		return res, err
	}
	net := NewFloat(d.family, st.Params)
	if st.Rate == 0 {
		st.Rate = cfg.Rate
	}
	opt := adam{rate: float32(st.Rate), m1: st.M1, m2: st.M2, t: st.Step}
	threads := max(cfg.Threads, 1)
	grads := make([]*Float, chunks)
	for i := range grads {
		grads[i] = NewFloat(d.family, nil)
	}
	order := make([]int32, len(train))
	began, doneSteps := time.Now(), 0
	totalSteps := (cfg.Epochs - st.Epoch) * ((len(train) + cfg.Batch - 1) / cfg.Batch)
	for ep := st.Epoch + 1; ep <= cfg.Epochs && !st.Stopped; ep++ {
		copy(order, train)
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(ep)))
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for b := 0; b < len(order); b += cfg.Batch {
			if ctx.Err() != nil {
				res.Interrupted = true
				break
			}
			batch := order[b:min(b+cfg.Batch, len(order))]
			d.gradient(net, batch, &cfg, grads, threads)
			for _, g := range grads[1:] {
				for i, v := range g.Params {
					grads[0].Params[i] += v
				}
			}
			opt.step(net.Params, grads[0].Params)
			net.clip()
			doneSteps++
			if cfg.Progress != nil && doneSteps%50 == 0 {
				el := time.Since(began)
				left := time.Duration(float64(el) / float64(doneSteps) * float64(totalSteps-doneSteps))
				cfg.Progress(Progress{Epoch: ep, Epochs: cfg.Epochs, Done: float64(b+len(batch)) / float64(len(order)), TimeLeft: left, Resumed: resumed})
			}
		}
		if res.Interrupted {
			break
		}
		p := Progress{Epoch: ep, Epochs: cfg.Epochs, Done: 1, EpochEnd: true, Resumed: resumed}
		p.Train, p.Valid = d.loss(net, train, &cfg), d.loss(net, valid, &cfg)
		if p.Valid < st.BestLoss {
			st.BestLoss, st.Stale, p.Best = p.Valid, 0, true
			copy(st.Best, net.Params)
		} else {
			st.Stale++
			st.Rate *= cfg.Drop
			opt.rate = float32(st.Rate)
		}
		st.Epoch, st.Step, st.TrainLoss = ep, opt.t, p.Train
		st.Stopped = cfg.Patience > 0 && st.Stale >= cfg.Patience
		p.Rate = st.Rate
		if cfg.Checkpoint != "" {
			if err := st.save(cfg.Checkpoint); err != nil {
				return res, err
			}
		}
		if cfg.Progress != nil {
			p.TimeLeft = time.Duration(float64(time.Since(began)) / float64(max(doneSteps, 1)) * float64(totalSteps-doneSteps))
			cfg.Progress(p)
		}
		resumed = false
	}
	res.Net = NewFloat(d.family, st.Best)
	res.StartLoss, res.Loss, res.Epochs, res.StoppedEarly = st.StartLoss, st.BestLoss, st.Epoch, st.Stopped
	return res, nil
}

// start returns the run's state: the checkpoint's, if there is one, or
// fresh weights.
func start(d *Dataset, cfg *Config, valid []int32) (*state, bool, error) {
	if cfg.Checkpoint != "" {
		st, err := load(cfg.Checkpoint)
		if err != nil {
			return nil, false, err
		}
		if st != nil {
			switch {
			case st.Family != d.family || len(st.Params) != NumParams(d.family):
				return nil, false, fmt.Errorf("train: checkpoint %s is for %s", cfg.Checkpoint, st.Family)
			case st.Config != cfg.key():
				return nil, false, fmt.Errorf("train: checkpoint %s was made with other settings (%s); remove it or use them", cfg.Checkpoint, st.Config)
			case st.Samples != d.Len():
				return nil, false, fmt.Errorf("train: checkpoint %s was made on %d positions, the data has %d", cfg.Checkpoint, st.Samples, d.Len())
			case st.Exact != d.Exact():
				return nil, false, fmt.Errorf("train: checkpoint %s was made with %d positions labelled by the tables, this run has %d", cfg.Checkpoint, st.Exact, d.Exact())
			}
			return st, true, nil
		}
	}
	n := NewFloat(d.family, nil)
	n.Init(rand.New(rand.NewPCG(cfg.Seed, 0x6e6e7565)))
	k := len(n.Params)
	st := &state{Family: d.family, Config: cfg.key(), Samples: d.Len(), Exact: d.Exact(), Params: n.Params,
		M1: make([]float32, k), M2: make([]float32, k), Best: append([]float32(nil), n.Params...)}
	st.StartLoss = d.loss(n, valid, cfg)
	st.BestLoss = st.StartLoss
	return st, false, nil
}

// gradient computes the batch's gradient into grads, chunk by chunk.
func (d *Dataset) gradient(n *Float, batch []int32, cfg *Config, grads []*Float, threads int) {
	per := (len(batch) + chunks - 1) / chunks
	scale := float32(1 / float64(len(batch)))
	work := func(c int) {
		g := grads[c]
		clear(g.Params)
		var a activations
		lo, hi := min(c*per, len(batch)), min((c+1)*per, len(batch))
		for _, i := range batch[lo:hi] {
			s := &d.samples[i]
			us, them := d.inputsOf(s)
			y := float64(n.forward(us, them, &a))
			k := 100 / cfg.Scale
			p := sigmoid(y * k)
			dy := float32(2*(p-cfg.target(s))*p*(1-p)*k) * scale
			n.backward(us, them, &a, dy, g)
		}
	}
	if threads == 1 {
		for c := range chunks {
			work(c)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int, chunks)
	for c := range chunks {
		next <- c
	}
	close(next)
	for range min(threads, chunks) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				work(c)
			}
		}()
	}
	wg.Wait()
}

// adam is the Adam optimiser.
type adam struct {
	rate   float32
	t      int
	m1, m2 []float32
}

func (a *adam) step(w, g []float32) {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	a.t++
	c1 := float32(1 - math.Pow(b1, float64(a.t)))
	c2 := float32(1 - math.Pow(b2, float64(a.t)))
	for i, gi := range g {
		if gi == 0 && a.m1[i] == 0 {
			continue
		}
		a.m1[i] = b1*a.m1[i] + (1-b1)*gi
		a.m2[i] = b2*a.m2[i] + (1-b2)*gi*gi
		w[i] -= a.rate * (a.m1[i] / c1) / (float32(math.Sqrt(float64(a.m2[i]/c2))) + eps)
	}
}
