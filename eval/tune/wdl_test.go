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

// FitWDLTable by hand: the knots are fitted by least squares, so that
// positions between two knots are forecast their results (where a
// weighting by nearness would not: below); knots without positions near
// them lie on the line between their fitted neighbours or level beyond
// them; the positions scored exactly 0 give the chances at 0 and nothing
// else; a position beyond the span counts at the last knot.
func TestFitWDLTableByHand(t *testing.T) {
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDataset(v)
	// Each position 2,000 times, so that the prior of one position at a
	// knot (knotPrior) moves no knot by more than 1e-4.
	add := func(score, result float64) {
		for range 2000 {
			d.AddFeatures(nil, 0, result, score, uint64(d.Len()))
		}
	}
	// A quarter of the way from 300 to 400, three wins in four; three
	// quarters of the way, one. The line through them: 1 at 300, 0 at 400
	// (nearness weights would give the knot at 300 (0.75·3 + 0.25·1) /
	// (0.75·4 + 0.25·4) = 0.625 wins).
	for _, r := range []float64{1, 1, 1, 0} {
		add(325, r)
	}
	for _, r := range []float64{1, 0, 0, 0} {
		add(375, r)
	}
	add(-500, 0)
	add(-500, 0)
	add(0, 0.5)
	add(0, 1)
	add(5000, 1) // at the knot at +1600
	m := d.FitWDLTable(eval.WDLModel{K: 0.003, Band: 100})
	if m.K != 0.003 || m.Band != 100 {
		t.Errorf("the logistic changed: %+v", m)
	}
	knot := func(score int) int { return (score + eval.WDLSpan) / eval.WDLStep }
	for _, tc := range []struct {
		score     int
		win, loss float64
	}{
		{-1600, 0, 1}, {-600, 0, 1}, {-500, 0, 1}, // the first fitted knot, and level before it
		{-100, 0.5, 0.5}, // halfway from −500 to 300
		{300, 1, 0},
		{400, 0, 1},
		{1000, 0.5, 0.5}, // halfway from 400 to 1600
		{1600, 1, 0},
	} {
		k := knot(tc.score)
		if w, l := float64(m.Table.Win[k])/eval.WDLUnit, float64(m.Table.Loss[k])/eval.WDLUnit; math.Abs(w-tc.win) > 2e-4 || math.Abs(l-tc.loss) > 2e-4 {
			t.Errorf("knot %+d: win %g loss %g, want %g and %g", tc.score, w, l, tc.win, tc.loss)
		}
	}
	if w, _, _ := m.Chances(325); math.Abs(w-0.75) > 2e-4 {
		t.Errorf("at +325 the table forecasts %g wins, the positions there won 0.75", w)
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
	// A win alone halfway between two knots: least squares alone would
	// be content with any two knots that average 1 (the smoothness then
	// picks 0 at +300, on the line from −500, and 2 at +400); the prior
	// of one position at each knot towards its share (1 at both) puts
	// both at 1, and the win is forecast.
	alone := NewDataset(v)
	for i := range 2000 {
		alone.AddFeatures(nil, 0, 0, -500, uint64(i))
	}
	alone.AddFeatures(nil, 0, 1, 350, 2000)
	a := alone.FitWDLTable(eval.WDLModel{K: 0.003})
	for _, tc := range []struct {
		score     int
		win, loss float64
	}{{-500, 0, 1}, {-100, 0.5, 0.5}, {300, 1, 0}, {400, 1, 0}, {1600, 1, 0}} {
		k := knot(tc.score)
		if w, l := float64(a.Table.Win[k])/eval.WDLUnit, float64(a.Table.Loss[k])/eval.WDLUnit; math.Abs(w-tc.win) > 2e-4 || math.Abs(l-tc.loss) > 2e-4 {
			t.Errorf("a win alone at +350: knot %+d: win %g loss %g, want %g and %g", tc.score, w, l, tc.win, tc.loss)
		}
	}
	// A win and a loss that add up to more than a whole are scaled down
	// together; chances below 0 are 0.
	for _, tc := range []struct {
		win, loss float64
		w, l      uint16
	}{{0.9, 0.3, 7500, 2500}, {1.2, -0.1, 10000, 0}, {-0.2, 0.4, 0, 4000}, {0.3, 0.5, 3000, 5000}} {
		if w, l := tableUnits(tc.win, tc.loss); w != tc.w || l != tc.l {
			t.Errorf("tableUnits(%g, %g) = %d, %d, want %d, %d", tc.win, tc.loss, w, l, tc.w, tc.l)
		}
	}
}

// The tridiagonal solution of the least-squares fit equals the minimum
// found another way: coordinate descent on the sum of squares itself,
// prior and smoothness included, computed from the positions
// (Gauss–Seidel), on random positions that crowd in places and leave
// gaps.
func TestKnotSystemSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for round := range 5 {
		type pos struct{ score, result float64 }
		var ps []pos
		var sys knotSystem
		for range 200 + rng.IntN(300) {
			var score float64
			switch rng.IntN(3) {
			case 0: // a crowd near a multiple of 400
				score = float64(400*(rng.IntN(7)-3)) + rng.NormFloat64()*30
			case 1:
				score = rng.Float64()*2400 - 1200 // leaves the outer knots empty
			default:
				score = rng.Float64()*600 + 200
			}
			result := []float64{0, 0.5, 1}[rng.IntN(3)]
			if score == 0 {
				continue
			}
			ps = append(ps, pos{score, result})
			sys.add(score, result)
		}
		win, loss := sys.solve()
		for side, got := range [2][eval.WDLKnots]float64{win, loss} {
			want := 1.0
			if side == 1 {
				want = 0
			}
			// The prior's shares, from the positions.
			var near, nearY [eval.WDLKnots]float64
			for _, p := range ps {
				j, f := eval.KnotOf(p.score)
				y := 0.0
				if p.result == want {
					y = 1
				}
				near[j] += 1 - f
				near[j+1] += f
				nearY[j] += (1 - f) * y
				nearY[j+1] += f * y
			}
			var x [eval.WDLKnots]float64
			for sweep := 0; sweep < 200000; sweep++ {
				change := 0.0
				for k := range x {
					num, den := 0.0, 0.0
					for _, p := range ps {
						j, f := eval.KnotOf(p.score)
						var w, other float64
						switch k {
						case j:
							w, other = 1-f, f*x[j+1]
						case j + 1:
							w, other = f, (1-f)*x[j]
						default:
							continue
						}
						y := 0.0
						if p.result == want {
							y = 1
						}
						num += w * (y - other)
						den += w * w
					}
					if near[k] > 0 {
						num += knotPrior * nearY[k] / near[k]
						den += knotPrior
					}
					if k > 0 {
						num += knotPenalty * x[k-1]
						den += knotPenalty
					}
					if k < len(x)-1 {
						num += knotPenalty * x[k+1]
						den += knotPenalty
					}
					next := num / den
					change = max(change, math.Abs(next-x[k]))
					x[k] = next
				}
				if change < 1e-13 {
					break
				}
			}
			for k := range x {
				if !(math.Abs(x[k]-got[k]) <= 1e-6) { // NaN fails too
					t.Fatalf("round %d, side %d, knot %+d: tridiagonal %.9f, coordinate descent %.9f", round, side, eval.KnotScore(k), got[k], x[k])
				}
			}
		}
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
	// About 500 positions lie within a step of a knot inside the span. A
	// share among them would have a standard error of at most 0.022; the
	// least-squares knot, which undoes its neighbours' overlap, about 1.6
	// times that (the inverse of the interpolation's tridiagonal matrix,
	// 2/3 and 1/6 a step, has √3 on its diagonal, against 2/3 for the
	// nearness weights): at most 0.035, and the worst of 66 some 2.5 of
	// those.
	if worst > 0.12 {
		t.Errorf("a knot fitted %.3f away from the truth", worst)
	}
	fresh := wdlData(t, truth, 30_000, 6)
	truthLoss, tableLoss, logLoss := fresh.WDLLoss(truth), fresh.WDLLoss(m), fresh.WDLLoss(logistic)
	if tableLoss > truthLoss+0.01 || logLoss < tableLoss+0.02 {
		t.Errorf("log loss on fresh results: truth %.4f, fitted table %.4f, best logistic %.4f", truthLoss, tableLoss, logLoss)
	}
	t.Logf("worst knot %.3f; log loss: truth %.4f, table %.4f, logistic %.4f", worst, truthLoss, tableLoss, logLoss)
}
