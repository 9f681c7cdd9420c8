package tune

import (
	"fmt"
	"io"
	"math"

	"github.com/sower-engine/sower/eval"
)

// FitWDL fits a win/draw/loss model (eval.WDLModel) to the dataset's
// search scores and game results by maximum likelihood: the K and Band
// that make the results seen the most probable, by golden-section
// searches on log K and, for each K, on Band. A dataset without draws
// fits Band 0. It returns the model and its mean log loss (the mean of
// −ln of the probability it gave each position's result).
func (d *Dataset) FitWDL() (eval.WDLModel, float64) {
	draws := false
	for i := range d.samples {
		if d.samples[i].result == 0.5 {
			draws = true
			break
		}
	}
	bandAt := func(k float64) (float64, float64) {
		if !draws {
			return 0, d.wdlLoss(eval.WDLModel{K: k})
		}
		b := golden(0, 5000, 30, func(b float64) float64 { return d.wdlLoss(eval.WDLModel{K: k, Band: b}) })
		return b, d.wdlLoss(eval.WDLModel{K: k, Band: b})
	}
	lk := golden(math.Log(1e-5), math.Log(0.1), 30, func(lk float64) float64 {
		_, loss := bandAt(math.Exp(lk))
		return loss
	})
	m := eval.WDLModel{K: math.Exp(lk)}
	m.Band, _ = bandAt(m.K)
	return m, d.wdlLoss(m)
}

// golden returns the x in [lo, hi] that minimises f, by n steps of a
// golden-section search (f is taken to have one minimum there).
func golden(lo, hi float64, n int, f func(float64) float64) float64 {
	g := (math.Sqrt(5) - 1) / 2
	a, b := hi-g*(hi-lo), lo+g*(hi-lo)
	fa, fb := f(a), f(b)
	for range n {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - g*(hi-lo)
			fa = f(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + g*(hi-lo)
			fb = f(b)
		}
	}
	return (lo + hi) / 2
}

// wdlLoss returns m's mean log loss over the dataset.
func (d *Dataset) wdlLoss(m eval.WDLModel) float64 {
	if len(d.samples) == 0 {
		return 0
	}
	sum := 0.0
	for i := range d.samples {
		s := &d.samples[i]
		sum -= math.Log(max(chance(m, float64(s.score), float64(s.result)), 1e-15))
	}
	return sum / float64(len(d.samples))
}

// chance returns the probability m gives to result (1, ½ or 0) at score.
func chance(m eval.WDLModel, score, result float64) float64 {
	w, dr, l := m.Chances(score)
	switch result {
	case 1:
		return w
	case 0:
		return l
	}
	return dr
}

// Calibration compares a win/draw/loss model's forecasts with the results
// of the games, over positions grouped by the expected score the model
// forecasts.
type Calibration struct {
	Model eval.WDLModel
	Bins  []CalibrationBin
	N     int     // positions
	Games int     // games they come from
	Brier float64 // mean of (expected score − result)²
	// LogLoss is the mean of −ln of the chance given to the result.
	LogLoss float64
	// Draws is the share of positions from drawn games; PredictedDraws
	// the mean forecast draw chance.
	Draws, PredictedDraws float64
}

// CalibrationBin is one group of positions: those whose forecast expected
// score (win + draw/2, side to move) lies in [Lo, Hi).
type CalibrationBin struct {
	Lo, Hi float64
	N      int
	// Games is the number of games the positions come from: the positions
	// of one game are alike, so a bin's sampling error is nearer that of
	// Games results than that of N.
	Games     int
	Predicted float64 // mean forecast expected score
	Observed  float64 // mean result: 1 a win, ½ a draw, 0 a loss
	// PredictedDraw is the mean forecast draw chance, ObservedDraw the
	// share of drawn games.
	PredictedDraw, ObservedDraw float64
}

// Calibrate measures how well m forecasts the dataset's game results from
// its search scores, in n bins of expected score of equal width (the last
// includes 1).
func (d *Dataset) Calibrate(m eval.WDLModel, n int) Calibration {
	c := Calibration{Model: m, Bins: make([]CalibrationBin, n), N: len(d.samples)}
	for i := range c.Bins {
		c.Bins[i].Lo, c.Bins[i].Hi = float64(i)/float64(n), float64(i+1)/float64(n)
	}
	games := map[uint64]bool{}
	binGames := make([]map[uint64]bool, n)
	for i := range binGames {
		binGames[i] = map[uint64]bool{}
	}
	for i := range d.samples {
		s := &d.samples[i]
		games[s.group] = true
		score, result := float64(s.score), float64(s.result)
		w, dr, _ := m.Chances(score)
		e := w + dr/2
		k := min(int(e*float64(n)), n-1)
		binGames[k][s.group] = true
		b := &c.Bins[k]
		b.N++
		b.Predicted += e
		b.Observed += result
		b.PredictedDraw += dr
		c.PredictedDraws += dr
		if result == 0.5 {
			b.ObservedDraw++
			c.Draws++
		}
		c.Brier += (e - result) * (e - result)
		c.LogLoss -= math.Log(max(chance(m, score, result), 1e-15))
	}
	c.Games = len(games)
	for i := range c.Bins {
		c.Bins[i].Games = len(binGames[i])
		if b := &c.Bins[i]; b.N > 0 {
			k := float64(b.N)
			b.Predicted, b.Observed, b.PredictedDraw, b.ObservedDraw = b.Predicted/k, b.Observed/k, b.PredictedDraw/k, b.ObservedDraw/k
		}
	}
	if c.N > 0 {
		k := float64(c.N)
		c.Brier, c.LogLoss, c.Draws, c.PredictedDraws = c.Brier/k, c.LogLoss/k, c.Draws/k, c.PredictedDraws/k
	}
	return c
}

// WriteMarkdown writes the calibration as a Markdown table, a row a bin,
// followed by a line of totals.
func (c *Calibration) WriteMarkdown(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "model K %.6f, band %.0f; %d positions of %d games\n\n", c.Model.K, c.Model.Band, c.N, c.Games); err != nil {
		return err
	}
	if _, err := fmt.Fprintln(w, "| forecast expected score | positions | games | forecast | observed | forecast draws | observed draws |\n|---|---|---|---|---|---|---|"); err != nil {
		return err
	}
	for _, b := range c.Bins {
		var err error
		if b.N == 0 {
			_, err = fmt.Fprintf(w, "| %.1f–%.1f | 0 | 0 | | | | |\n", b.Lo, b.Hi)
		} else {
			_, err = fmt.Fprintf(w, "| %.1f–%.1f | %d | %d | %.3f | %.3f | %.3f | %.3f |\n", b.Lo, b.Hi, b.N, b.Games, b.Predicted, b.Observed, b.PredictedDraw, b.ObservedDraw)
		}
		if err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "\nBrier score %.4f, log loss %.4f; draws %.3f observed, %.3f forecast\n", c.Brier, c.LogLoss, c.Draws, c.PredictedDraws)
	return err
}
