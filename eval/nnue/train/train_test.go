package train

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
)

// knownScore is the synthetic target: 60 hundredths of a seed for each
// non-empty hole of the side to move's row, less 60 for each of the
// opponent's. It is a sum over the network's inputs (the bucket of every
// non-empty hole), so the network can represent it within its clipped
// activations' linear range.
func knownScore(p *board.Position) int {
	v := p.Variant()
	s := 0
	for _, h := range v.Holes() {
		if p.Count(h) == 0 {
			continue
		}
		if v.Owner(h) == p.Side() {
			s += 60
		} else {
			s -= 60
		}
	}
	return s
}

// syntheticPositions plays random Hoyito III games and returns their
// positions.
func syntheticPositions(t testing.TB, n int, seed uint64) []board.Position {
	t.Helper()
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []board.Position
	for len(out) < n {
		p := v.Start()
		var hist []uint64
		for ply := 0; ply < 80 && !p.Status(hist).Over() && len(out) < n; ply++ {
			out = append(out, p)
			moves := p.LegalMoves()
			if len(moves) == 0 {
				break
			}
			hist = append(hist, p.Key())
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
	return out
}

func syntheticSet(t testing.TB, ps []board.Position) *Dataset {
	t.Helper()
	d := NewDataset(board.Hoyito)
	for i := range ps {
		// Ten positions a game, for the split.
		if err := d.Add(&ps[i], knownScore(&ps[i]), 0.5, uint64(i/10)); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

func syntheticConfig() Config {
	c := DefaultConfig()
	c.Lambda, c.Scale = 1, 200
	c.Epochs, c.Batch, c.Rate, c.Patience = 40, 32, 0.003, 0
	c.ValidShare, c.Seed, c.Threads = 0.2, 7, 2
	return c
}

// TestLearnsKnownFunction trains on positions scored by knownScore, the
// target being the score alone (λ = 1, Scale 200). The threshold: the
// sigmoid's slope is at most 1/(4·200) per hundredth of a seed, so a
// network whose every score is within 25 hundredths of a seed (a quarter
// of a seed, less than half of one hole's 60) has a loss below
// (25/800)² ≈ 0.00098. The initial weights' loss is checked to be far
// above it, so the threshold measures learning.
func TestLearnsKnownFunction(t *testing.T) {
	const threshold = 0.00098
	ps := syntheticPositions(t, 3000, 1)
	d := syntheticSet(t, ps)
	res, err := Train(context.Background(), d, syntheticConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("validation loss %.6f, from %.6f, after %d epochs (%d training, %d validation positions)", res.Loss, res.StartLoss, res.Epochs, res.Train, res.Valid)
	if res.StartLoss < 10*threshold {
		t.Fatalf("the initial loss %.6f is already near the threshold", res.StartLoss)
	}
	if res.Loss >= threshold {
		t.Errorf("validation loss %.6f, want below %.6f", res.Loss, threshold)
	}
	checkQuantised(t, res.Net, ps)
}

// quantisationBound returns a worst-case bound, in hundredths of a seed,
// on the difference between the quantised network's score and 100 × the
// float network's output, for a position with at most n active inputs per
// perspective: every weight is rounded to the nearest multiple of its
// scale's unit (half a unit of error each), the hidden layer's division
// rounds (half a unit of QA), the score rounds (half a hundredth), and the
// clipped activations pass errors on without growing them.
func quantisationBound(f *Float, n int) float64 {
	eA := float64(n+1) * 0.5 / nnue.QA
	var eY float64 = 0.5 / (nnue.QA * nnue.QB)
	for j := 0; j < L1; j++ {
		eZ := 0.5 / (nnue.QA * nnue.QB)
		for _, w := range f.Dense[j*2*H : (j+1)*2*H] {
			eZ += 0.5/nnue.QB + math.Abs(float64(w))*eA
		}
		eY += 0.5/nnue.QB + math.Abs(float64(f.Out[j]))*(eZ+0.5/nnue.QA)
	}
	return 100*eY + 0.5
}

// checkQuantised checks every position: the quantised network's score is
// within the worst-case bound of the float network's, and on average
// within 2 hundredths of a seed (rounding errors are unbiased and mostly
// cancel; the worst case adds them all up).
func checkQuantised(t *testing.T, f *Float, ps []board.Position) {
	t.Helper()
	q := f.Quantise("test")
	m, err := nnue.NewModel(q, ps[0].Variant())
	if err != nil {
		t.Fatal(err)
	}
	d := NewDataset(f.Family)
	var a activations
	sum, worst := 0.0, 0.0
	for i := range ps {
		if err := d.Add(&ps[i], 0, 0, 0); err != nil {
			t.Fatal(err)
		}
		us, them := d.inputsOf(&d.samples[i])
		want := 100 * float64(f.forward(us, them, &a))
		got := float64(m.EvaluatePosition(&ps[i]))
		diff := math.Abs(got - want)
		if b := quantisationBound(f, max(len(us), len(them))); diff > b {
			t.Fatalf("%s: quantised %v, float %.2f: off by more than the bound %.2f", ps[i].String(), got, want, b)
		}
		sum += diff
		worst = max(worst, diff)
	}
	mean := sum / float64(len(ps))
	t.Logf("quantised against float: mean difference %.2f, largest %.2f hundredths of a seed", mean, worst)
	if mean > 2 {
		t.Errorf("mean difference %.2f hundredths of a seed, want at most 2", mean)
	}
}

// TestDeterministicAndResumable trains four epochs in one run, in one
// run with one thread, and in two runs through a checkpoint: the weights
// are the same bit for bit.
func TestDeterministicAndResumable(t *testing.T) {
	d := syntheticSet(t, syntheticPositions(t, 600, 2))
	cfg := syntheticConfig()
	cfg.Epochs = 4
	whole, err := Train(context.Background(), d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	one := cfg
	one.Threads = 1
	single, err := Train(context.Background(), d, one)
	if err != nil {
		t.Fatal(err)
	}
	ck := filepath.Join(t.TempDir(), "ck")
	half := cfg
	half.Epochs, half.Checkpoint = 2, ck
	if _, err := Train(context.Background(), d, half); err != nil {
		t.Fatal(err)
	}
	rest := cfg
	rest.Checkpoint = ck
	var resumed bool
	rest.Progress = func(p Progress) { resumed = resumed || p.Resumed }
	second, err := Train(context.Background(), d, rest)
	if err != nil {
		t.Fatal(err)
	}
	if !resumed {
		t.Error("the second run did not resume")
	}
	for name, r := range map[string]Result{"one thread": single, "resumed": second} {
		if r.Epochs != whole.Epochs || r.Loss != whole.Loss || !equal(r.Net.Params, whole.Net.Params) {
			t.Errorf("%s: %d epochs, loss %v; the whole run %d epochs, loss %v", name, r.Epochs, r.Loss, whole.Epochs, whole.Loss)
		}
	}
	// Other settings do not resume from the checkpoint.
	other := rest
	other.Lambda = 0.5
	if _, err := Train(context.Background(), d, other); err == nil {
		t.Error("a checkpoint of other settings resumed")
	}
}

func equal(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

func TestInterrupted(t *testing.T) {
	d := syntheticSet(t, syntheticPositions(t, 200, 3))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Train(ctx, d, syntheticConfig())
	if err != nil {
		t.Fatal(err)
	}
	if !res.Interrupted || res.Epochs != 0 || res.Net == nil {
		t.Errorf("interrupted run: %+v", res)
	}
}

func TestBadSettings(t *testing.T) {
	d := syntheticSet(t, syntheticPositions(t, 100, 4))
	for _, mod := range []func(*Config){
		func(c *Config) { c.Lambda = 2 },
		func(c *Config) { c.Batch = 0 },
		func(c *Config) { c.Rate = 0 },
		func(c *Config) { c.ValidShare = 1 },
		func(c *Config) { c.Scale = math.NaN() },
		func(c *Config) { c.Drop = 1.5 },
		func(c *Config) { c.Drop = -0.5 },
	} {
		c := syntheticConfig()
		mod(&c)
		if _, err := Train(context.Background(), d, c); err == nil {
			t.Errorf("settings %+v accepted", c)
		}
	}
	if _, err := Train(context.Background(), NewDataset(board.Katro), syntheticConfig()); err == nil {
		t.Error("an empty dataset accepted")
	}
}

// TestDropOnPlateau trains with a step size large enough for the
// validation loss to stall, and Drop 0.5: after every epoch without a
// better validation loss the step size is halved, after the others it is
// kept; a run resumed from a checkpoint in the middle goes on with the
// lowered step size and ends with the same weights bit for bit.
func TestDropOnPlateau(t *testing.T) {
	d := syntheticSet(t, syntheticPositions(t, 600, 5))
	cfg := syntheticConfig()
	cfg.Epochs, cfg.Rate, cfg.Drop = 12, 0.05, 0.5
	rate, stale := cfg.Rate, 0
	cfg.Progress = func(p Progress) {
		if !p.EpochEnd {
			return
		}
		if !p.Best {
			rate *= cfg.Drop
			stale++
		}
		if p.Rate != rate {
			t.Errorf("epoch %d (best %v): rate %g, want %g", p.Epoch, p.Best, p.Rate, rate)
		}
	}
	whole, err := Train(context.Background(), d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if stale == 0 || stale == cfg.Epochs {
		t.Fatalf("%d of %d epochs without a better validation loss: the test needs some of each", stale, cfg.Epochs)
	}
	ck := filepath.Join(t.TempDir(), "ck")
	half := cfg
	half.Epochs, half.Checkpoint, half.Progress = 6, ck, nil
	if _, err := Train(context.Background(), d, half); err != nil {
		t.Fatal(err)
	}
	rest := cfg
	rest.Checkpoint, rest.Progress = ck, nil
	second, err := Train(context.Background(), d, rest)
	if err != nil {
		t.Fatal(err)
	}
	if second.Loss != whole.Loss || !equal(second.Net.Params, whole.Net.Params) {
		t.Errorf("resumed: loss %v, the whole run %v", second.Loss, whole.Loss)
	}
	keep := cfg
	keep.Drop, keep.Checkpoint, keep.Progress = 1, ck, nil
	if _, err := Train(context.Background(), d, keep); err == nil {
		t.Error("a checkpoint made with Drop 0.5 resumed with Drop 1")
	}
}
