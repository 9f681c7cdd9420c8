package tune

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
)

// wdlData returns n positions with scores uniform in ±3000 whose results
// are drawn from the model truth, ten positions a game.
func wdlData(t *testing.T, truth eval.WDLModel, n int, seed uint64) *Dataset {
	t.Helper()
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 11))
	d := NewDataset(v)
	for i := range n {
		score := float64(rng.IntN(6001) - 3000)
		w, dr, _ := truth.Chances(score)
		result := 0.0
		switch x := rng.Float64(); {
		case x < w:
			result = 1
		case x < w+dr:
			result = 0.5
		}
		d.AddFeatures(nil, 0, result, score, uint64(i/10))
	}
	return d
}

// FitWDL finds the model the results were drawn from, with and without
// draws.
func TestFitWDL(t *testing.T) {
	truths := []eval.WDLModel{{K: 0.002, Band: 150}, {K: 0.0015, Band: 0}, {K: 0.004, Band: 400}}
	if testing.Short() {
		truths = truths[:2]
	}
	for _, truth := range truths {
		m, loss := wdlData(t, truth, 15_000, 3).FitWDL()
		if math.Abs(m.K-truth.K) > 0.08*truth.K || math.Abs(m.Band-truth.Band) > 0.1*truth.Band+15 {
			t.Errorf("drawn from %+v, fitted %+v", truth, m)
		}
		if truth.Band == 0 && m.Band != 0 {
			t.Errorf("no draws, but a band of %g", m.Band)
		}
		if loss <= 0 || loss > math.Log(3) {
			t.Errorf("%+v: log loss %g", truth, loss)
		}
	}
}

// The model the results were drawn from is calibrated: in every bin with
// enough positions the forecast and observed scores and draws agree
// within sampling error. A model twice as steep is not: its extreme bins
// forecast far more than is seen, and the measure shows it.
func TestCalibrate(t *testing.T) {
	truth := eval.WDLModel{K: 0.002, Band: 150}
	d := wdlData(t, truth, 40_000, 4)
	c := d.Calibrate(truth, 10)
	if c.N != 40_000 || c.Games != 4000 || len(c.Bins) != 10 {
		t.Fatalf("%d positions, %d games, %d bins", c.N, c.Games, len(c.Bins))
	}
	total := 0
	for _, b := range c.Bins {
		total += b.N
		if b.N > 0 && (b.Predicted < b.Lo || b.Predicted > b.Hi) {
			t.Errorf("bin %.1f–%.1f: mean forecast %.3f lies outside it", b.Lo, b.Hi, b.Predicted)
		}
		if b.N < 500 {
			continue
		}
		// Four standard errors of a mean of results in [0, 1].
		tol := 4 * 0.5 / math.Sqrt(float64(b.N))
		if math.Abs(b.Predicted-b.Observed) > tol || math.Abs(b.PredictedDraw-b.ObservedDraw) > tol {
			t.Errorf("bin %.1f–%.1f (%d): forecast %.3f draws %.3f, observed %.3f draws %.3f", b.Lo, b.Hi, b.N, b.Predicted, b.PredictedDraw, b.Observed, b.ObservedDraw)
		}
	}
	if total != c.N {
		t.Errorf("the bins hold %d positions of %d", total, c.N)
	}
	if math.Abs(c.Draws-c.PredictedDraws) > 0.01 {
		t.Errorf("draws: %.3f observed, %.3f forecast", c.Draws, c.PredictedDraws)
	}
	steep := d.Calibrate(eval.WDLModel{K: 2 * truth.K, Band: truth.Band}, 10)
	top := steep.Bins[9]
	if top.N < 500 || top.Predicted-top.Observed < 0.03 {
		t.Errorf("a model twice as steep looks calibrated in the top bin: %+v", top)
	}
	if steep.Brier <= c.Brier || steep.LogLoss <= c.LogLoss {
		t.Errorf("Brier %.4f, log loss %.4f for the steep model; %.4f, %.4f for the true one", steep.Brier, steep.LogLoss, c.Brier, c.LogLoss)
	}
	var b bytes.Buffer
	if err := c.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if rows := strings.Count(b.String(), "\n| 0."); rows != 10 {
		t.Errorf("the table has %d bin rows, want 10:\n%s", rows, b.String())
	}
}

// Three positions counted by hand: with K = ln 3 / 100 and no band, scores
// +100 and −100 forecast 3/4 and 1/4; the first is won, the second drawn,
// and a third at +100 lost.
func TestCalibrateByHand(t *testing.T) {
	v, err := board.New(board.NameKatro)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDataset(v)
	d.AddFeatures(nil, 0, 1, 100, 1)
	d.AddFeatures(nil, 0, 0.5, -100, 1)
	d.AddFeatures(nil, 0, 0, 100, 2)
	c := d.Calibrate(eval.WDLModel{K: math.Log(3) / 100}, 10)
	lo, hi := c.Bins[2], c.Bins[7]
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if c.Games != 2 || lo.N != 1 || hi.N != 2 || lo.Games != 1 || hi.Games != 2 || !near(lo.Predicted, 0.25) || !near(lo.Observed, 0.5) ||
		!near(lo.ObservedDraw, 1) || !near(hi.Predicted, 0.75) || !near(hi.Observed, 0.5) {
		t.Errorf("%+v", c)
	}
	// (3/4−1)² + (1/4−½)² + (3/4−0)² over 3.
	if want := (1.0/16 + 1.0/16 + 9.0/16) / 3; !near(c.Brier, want) {
		t.Errorf("Brier %g, want %g", c.Brier, want)
	}
}

// FitWDLTable by hand: the positions near a knot give it their shares of
// wins and losses, weighted by nearness; knots without any are
// interpolated between their fitted neighbours or take the nearest's;
// the positions scored exactly 0 give the chances at 0 and nothing else;
// a position beyond the span counts at the last knot.
func TestFitWDLTableByHand(t *testing.T) {
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDataset(v)
	add := func(score, result float64) { d.AddFeatures(nil, 0, result, score, uint64(d.Len())) }
	for _, r := range []float64{1, 1, 0.5, 0} {
		add(300, r)
	}
	add(350, 1) // half to the knot at 300, half to the one at 400
	add(-500, 0)
	add(-500, 0)
	add(0, 0.5)
	add(0, 1)
	add(5000, 0) // at the knot at +1600
	m := d.FitWDLTable(eval.WDLModel{K: 0.003, Band: 100})
	if m.K != 0.003 || m.Band != 100 {
		t.Errorf("the logistic changed: %+v", m)
	}
	knot := func(score int) int { return (score + eval.WDLSpan) / eval.WDLStep }
	for _, tc := range []struct {
		score     int
		win, loss float64
	}{
		{-1600, 0, 1}, {-600, 0, 1}, {-500, 0, 1}, // the first fitted knot, and before it
		{-100, 2.5 / 4.5 / 2, (1 + 1/4.5) / 2}, // halfway from −500 to 300
		{300, 2.5 / 4.5, 1 / 4.5},
		{400, 1, 0},
		{1000, 0.5, 0.5}, // halfway from 400 to 1600
		{1600, 0, 1},
	} {
		k := knot(tc.score)
		if w, l := float64(m.Table.Win[k])/eval.WDLUnit, float64(m.Table.Loss[k])/eval.WDLUnit; math.Abs(w-tc.win) > 1e-4 || math.Abs(l-tc.loss) > 1e-4 {
			t.Errorf("knot %+d: win %g loss %g, want %g and %g", tc.score, w, l, tc.win, tc.loss)
		}
	}
	if m.Table.Win0 != eval.WDLUnit/2 || m.Table.Loss0 != 0 {
		t.Errorf("at exactly 0: win %d loss %d, want %d and 0", m.Table.Win0, m.Table.Loss0, eval.WDLUnit/2)
	}
	if err := m.Table.Check(); err != nil {
		t.Error(err)
	}
	if e := NewDataset(v).FitWDLTable(m); e != m {
		t.Error("an empty dataset changed the model")
	}
	// Only positions scored 0: every knot takes their chances.
	zeros := NewDataset(v)
	for i, r := range []float64{1, 0, 0, 0.5} {
		zeros.AddFeatures(nil, 0, r, 0, uint64(i))
	}
	z := zeros.FitWDLTable(eval.WDLModel{K: 0.003})
	for k := range z.Table.Win {
		if z.Table.Win[k] != eval.WDLUnit/4 || z.Table.Loss[k] != eval.WDLUnit/2 {
			t.Fatalf("only zeros: knot %+d win %d loss %d", eval.KnotScore(k), z.Table.Win[k], z.Table.Loss[k])
		}
	}
	if z.Table.Win0 != eval.WDLUnit/4 || z.Table.Loss0 != eval.WDLUnit/2 {
		t.Errorf("only zeros: at 0 win %d loss %d", z.Table.Win0, z.Table.Loss0)
	}
}

// FitWDLTable finds a table the results were drawn from, one no logistic
// follows (the chance of a win falls over a stretch of rising scores, and
// draws cluster off the middle): every knot within sampling error, and on
// fresh results from the same table it loses little against the truth and
// much less than the best logistic.
func TestFitWDLTable(t *testing.T) {
	truth := eval.WDLModel{K: 0.003, Band: 300}
	for i := range truth.Table.Win {
		s := float64(eval.KnotScore(i))
		w := 0.5 + 0.45*math.Tanh(s/600) - 0.2*math.Exp(-(s-400)*(s-400)/(2*150*150))
		dr := 0.1 + 0.4*math.Exp(-(math.Abs(s)-500)*(math.Abs(s)-500)/(2*200*200))
		w = min(max(w, 0), 1-dr)
		truth.Table.Win[i] = uint16(math.Round(w * eval.WDLUnit))
		truth.Table.Loss[i] = uint16(math.Round((1 - w - dr) * eval.WDLUnit))
	}
	truth.Table.Win0, truth.Table.Loss0 = 1000, 1000
	fit := wdlData(t, truth, 30_000, 5)
	logistic, _ := fit.FitWDL()
	m := fit.FitWDLTable(logistic)
	worst := 0.0
	for i := range m.Table.Win {
		worst = max(worst, math.Abs(float64(m.Table.Win[i])-float64(truth.Table.Win[i]))/eval.WDLUnit,
			math.Abs(float64(m.Table.Loss[i])-float64(truth.Table.Loss[i]))/eval.WDLUnit)
	}
	// About 500 positions weigh on a knot inside the span: a share's
	// standard error is at most 0.022.
	if worst > 0.08 {
		t.Errorf("a knot fitted %.3f away from the truth", worst)
	}
	fresh := wdlData(t, truth, 30_000, 6)
	truthLoss, tableLoss, logLoss := fresh.WDLLoss(truth), fresh.WDLLoss(m), fresh.WDLLoss(logistic)
	if tableLoss > truthLoss+0.01 || logLoss < tableLoss+0.02 {
		t.Errorf("log loss on fresh results: truth %.4f, fitted table %.4f, best logistic %.4f", truthLoss, tableLoss, logLoss)
	}
	t.Logf("worst knot %.3f; log loss: truth %.4f, table %.4f, logistic %.4f", worst, truthLoss, tableLoss, logLoss)
}
