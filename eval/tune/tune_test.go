package tune

import (
	"bytes"
	"context"
	"go/parser"
	"go/token"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
)

// synthetic builds a dataset of n positions with random sparse features
// (of the first nf features) and phases, labelled by the known weights
// truth: the search score is truth's evaluation, and the result is drawn
// as a win with probability sigmoid(k·score), else a loss.
func synthetic(v *board.Variant, truth *eval.Params, nf, n int, k float64, seed uint64) *Dataset {
	rng := rand.New(rand.NewPCG(seed, 5))
	d := NewDataset(v)
	for i := range n {
		var es []eval.Entry
		for f := 0; f < nf; f++ {
			if rng.IntN(2) == 0 {
				es = append(es, eval.Entry{Index: int16(f), Value: int16(rng.IntN(7) - 3)})
			}
		}
		a := eval.Active{N: len(es), Phase: rng.IntN(eval.PhaseMax + 1)}
		copy(a.Entries[:], es)
		score := float64(truth.Score(&a))
		result := 0.0
		if rng.Float64() < 1/(1+math.Exp(-k*score)) {
			result = 1
		}
		d.AddFeatures(es, a.Phase, result, score, uint64(i/10))
	}
	return d
}

// TestRecoversKnownWeights fits weights to data made with known weights,
// starting from zero: on the search score alone (lambda 0) they must come
// back within 2 hundredths of a seed, on the results alone (lambda 1)
// within 15% of the largest weight.
func TestRecoversKnownWeights(t *testing.T) {
	v, _ := board.New(board.NameKatro)
	const nf, k = 6, 0.01
	truth := &eval.Params{Family: board.Katro}
	for i, w := range []int32{80, -40, 25, 0, 60, -10} {
		truth.MG[i], truth.EG[i] = w, w/2+10
	}
	for _, c := range []struct {
		lambda, tol float64
		n           int
	}{{0, 2, 20000}, {1, 12, 60000}} {
		if testing.Short() && c.lambda == 1 {
			continue
		}
		d := synthetic(v, truth, nf, c.n, k, 1)
		cfg := DefaultConfig(board.Katro)
		cfg.Start = eval.Params{Family: board.Katro}
		cfg.Lambda, cfg.K, cfg.Rate, cfg.Batch, cfg.Patience = c.lambda, k, 2, 512, 5
		res, err := Tune(context.Background(), d, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < nf; i++ {
			if math.Abs(float64(res.Params.MG[i]-truth.MG[i])) > c.tol || math.Abs(float64(res.Params.EG[i]-truth.EG[i])) > c.tol {
				t.Errorf("lambda %g: feature %d fitted %d/%d, truth %d/%d", c.lambda, i, res.Params.MG[i], res.Params.EG[i], truth.MG[i], truth.EG[i])
			}
		}
		if res.Loss >= res.StartLoss {
			t.Errorf("lambda %g: validation loss %g did not fall from %g", c.lambda, res.Loss, res.StartLoss)
		}
	}
}

// TestScalarsOnly checks that the tables keep their start weights when
// only the scalar terms are fitted.
func TestScalarsOnly(t *testing.T) {
	v, _ := board.New(board.NameKatro)
	truth := &eval.Params{Family: board.Katro}
	truth.MG[0], truth.MG[eval.NumScalar+2] = 50, 40
	truth.EG[0], truth.EG[eval.NumScalar+2] = 50, 40
	d := synthetic(v, truth, eval.NumScalar+4, 5000, 0.01, 4)
	cfg := DefaultConfig(board.Katro)
	cfg.Start = eval.Params{Family: board.Katro}
	cfg.Start.MG[eval.NumScalar+2] = 7
	cfg.Lambda, cfg.K, cfg.Epochs, cfg.ScalarsOnly = 0, 0.01, 5, true
	res, err := Tune(context.Background(), d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Params.MG[0] == 0 {
		t.Error("the scalar term was not fitted")
	}
	for i := eval.NumScalar; i < eval.MaxFeatures; i++ {
		if res.Params.MG[i] != cfg.Start.MG[i] || res.Params.EG[i] != cfg.Start.EG[i] {
			t.Fatalf("table weight %d moved to %d/%d from %d/%d", i, res.Params.MG[i], res.Params.EG[i], cfg.Start.MG[i], cfg.Start.EG[i])
		}
	}
}

// TestFitK recovers the scale of the sigmoid that drew the results.
func TestFitK(t *testing.T) {
	v, _ := board.New(board.NameKatro)
	truth := &eval.Params{Family: board.Katro}
	for i, w := range []int32{80, -40, 25, 60} {
		truth.MG[i], truth.EG[i] = w, w
	}
	for _, k := range []float64{0.004, 0.02} {
		d := synthetic(v, truth, 4, 40000, k, 2)
		if got := d.FitK(truth); math.Abs(got-k) > 0.15*k {
			t.Errorf("K fitted %g, drawn with %g", got, k)
		}
	}
}

// TestSizes checks that Sizes counts the sets split makes: positions by
// counting them, games by the groups of their positions.
func TestSizes(t *testing.T) {
	v, _ := board.New(board.NameKatro)
	d := synthetic(v, &eval.Params{}, 3, 2005, 0.01, 3) // 201 games of 10 positions, the last of 5
	for _, share := range []float64{0, 0.2, 0.5} {
		train, valid, validGames := d.split(share, 7)
		trainGames := map[uint64]bool{}
		for _, i := range train {
			trainGames[d.samples[i].group] = true
		}
		want := Sizes{Positions: 2005, Games: 201, TrainPositions: len(train), TrainGames: len(trainGames),
			ValidPositions: len(valid), ValidGames: validGames}
		if got := d.Sizes(share, 7); got != want || got.TrainGames+got.ValidGames != 201 {
			t.Errorf("share %g: %+v, want %+v", share, got, want)
		}
	}
}

// TestTuneRefusesEmptyValidation checks that a share above 0 that holds
// out no game is an error, not a silent validation on the training set,
// which only a share of 0 gives.
func TestTuneRefusesEmptyValidation(t *testing.T) {
	v, _ := board.New(board.NameKatro)
	d := synthetic(v, &eval.Params{}, 3, 10, 0.01, 3) // one game
	cfg := DefaultConfig(board.Katro)
	cfg.K, cfg.Epochs = 0.01, 1
	cfg.ValidShare = 1e-9
	if _, err := Tune(context.Background(), d, cfg); err == nil || !strings.Contains(err.Error(), "held out none of the 1 games") {
		t.Errorf("share %g of one game: %v", cfg.ValidShare, err)
	}
	cfg.ValidShare = 0
	if res, err := Tune(context.Background(), d, cfg); err != nil || res.Valid != res.Train || res.ValidationSet != 0 {
		t.Errorf("share 0: %+v, %v", res, err)
	}
}

// TestSplitByGame checks that the validation set takes whole games and
// about the share asked.
func TestSplitByGame(t *testing.T) {
	v, _ := board.New(board.NameKatro)
	d := synthetic(v, &eval.Params{}, 3, 20000, 0.01, 3)
	train, valid, games := d.split(0.2, 1)
	inValid := map[uint64]bool{}
	for _, i := range valid {
		inValid[d.samples[i].group] = true
	}
	for _, i := range train {
		if inValid[d.samples[i].group] {
			t.Fatalf("game %d is in both sets", d.samples[i].group)
		}
	}
	if share := float64(len(valid)) / float64(d.Len()); share < 0.15 || share > 0.25 || games != len(inValid) {
		t.Errorf("validation share %.3f of the positions, %d games (counted %d)", share, games, len(inValid))
	}
}

// TestWriteGo checks that the generated weights file is Go source that
// holds the weights and the command line.
func TestWriteGo(t *testing.T) {
	v, _ := board.New(board.NameHoyito3)
	p := eval.HandParams(board.Hoyito)
	p.MG[eval.NumScalar+3] = -17
	p.Command = `sower tune --game hoyito3 --data "a b.dat"`
	var b bytes.Buffer
	if err := WriteGo(&b, v, &p); err != nil {
		t.Fatal(err)
	}
	src := b.String()
	if _, err := parser.ParseFile(token.NewFileSet(), "w.go", src, 0); err != nil {
		t.Fatalf("generated source does not parse: %v\n%s", err, src)
	}
	for _, want := range []string{"func builtinHoyito() Params", "Variant: \"hoyito3\"", `--data \"a b.dat\"`, "11: -17, // h1:4", "0: 100, // captured"} {
		if !strings.Contains(src, want) {
			t.Errorf("generated source lacks %q:\n%s", want, src)
		}
	}
}
