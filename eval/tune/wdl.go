package tune

import (
	"fmt"
	"io"
	"math"
	"sort"

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
			return 0, d.WDLLoss(eval.WDLModel{K: k})
		}
		b := golden(0, 5000, 30, func(b float64) float64 { return d.WDLLoss(eval.WDLModel{K: k, Band: b}) })
		return b, d.WDLLoss(eval.WDLModel{K: k, Band: b})
	}
	lk := golden(math.Log(1e-5), math.Log(0.1), 30, func(lk float64) float64 {
		_, loss := bandAt(math.Exp(lk))
		return loss
	})
	m := eval.WDLModel{K: math.Exp(lk)}
	m.Band, _ = bandAt(m.K)
	return m, d.WDLLoss(m)
}

// FitWDLTable returns m with a table (eval.WDLTable) fitted to the
// dataset's search scores and game results: at each knot, the shares of
// wins and of losses among the positions whose score lies within a step
// of it, each position weighted by its nearness (1 at the knot, falling
// linearly to 0 a step away: the weights of the table's interpolation);
// a position beyond the last knot counts at it. A knot that no position
// is near takes the value interpolated between its nearest fitted
// neighbours, or the nearest one's beyond them. The positions scored
// exactly 0 are counted apart, for the table's chances at 0 (the knot at
// 0 is their neighbours'); without any, those are the knot's. An empty
// dataset returns m unchanged.
func (d *Dataset) FitWDLTable(m eval.WDLModel) eval.WDLModel {
	var weight, win, loss [eval.WDLKnots]float64
	var zero, win0, loss0 float64
	for i := range d.samples {
		s := &d.samples[i]
		if s.score == 0 {
			zero++
			switch s.result {
			case 1:
				win0++
			case 0:
				loss0++
			}
			continue
		}
		x := (min(max(float64(s.score), -eval.WDLSpan), eval.WDLSpan) + eval.WDLSpan) / eval.WDLStep
		k := min(int(x), eval.WDLKnots-2)
		f := x - float64(k)
		for j, w := range [2]float64{1 - f, f} {
			weight[k+j] += w
			switch s.result {
			case 1:
				win[k+j] += w
			case 0:
				loss[k+j] += w
			}
		}
	}
	var fitted []int
	for k := range weight {
		if weight[k] > 0 {
			win[k], loss[k] = win[k]/weight[k], loss[k]/weight[k]
			fitted = append(fitted, k)
		}
	}
	if len(fitted) == 0 && zero == 0 {
		return m
	}
	switch {
	case len(fitted) == 0:
		for k := range win {
			win[k], loss[k] = win0/zero, loss0/zero
		}
	default:
		fillGaps(&win, &loss, fitted)
	}
	m.Table = eval.WDLTable{}
	for k := range weight {
		m.Table.Win[k], m.Table.Loss[k] = tableUnits(win[k], loss[k])
	}
	if zero > 0 {
		m.Table.Win0, m.Table.Loss0 = tableUnits(win0/zero, loss0/zero)
	} else {
		m.Table.Win0, m.Table.Loss0 = m.Table.Win[eval.WDLKnots/2], m.Table.Loss[eval.WDLKnots/2]
	}
	return m
}

// tableUnits rounds the chances of a win and a loss to a table's units,
// their sum at most a whole.
func tableUnits(win, loss float64) (uint16, uint16) {
	w := uint16(math.Round(win * eval.WDLUnit))
	return w, min(uint16(math.Round(loss*eval.WDLUnit)), eval.WDLUnit-w)
}

// fillGaps gives the knots not in fitted (ascending, not empty) the
// values interpolated between their nearest fitted neighbours, or the
// nearest one's beyond the first or the last.
func fillGaps(win, loss *[eval.WDLKnots]float64, fitted []int) {
	for k := range win {
		next := sort.SearchInts(fitted, k)
		switch {
		case next < len(fitted) && fitted[next] == k:
		case next == 0:
			win[k], loss[k] = win[fitted[0]], loss[fitted[0]]
		case next == len(fitted):
			last := fitted[len(fitted)-1]
			win[k], loss[k] = win[last], loss[last]
		default:
			a, b := fitted[next-1], fitted[next]
			f := float64(k-a) / float64(b-a)
			win[k] = win[a]*(1-f) + win[b]*f
			loss[k] = loss[a]*(1-f) + loss[b]*f
		}
	}
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

// WDLLoss returns m's mean log loss over the dataset: the mean of −ln of
// the chance it gives each position's result.
func (d *Dataset) WDLLoss(m eval.WDLModel) float64 {
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

// WriteTable writes m's table (eval.WDLTable), a line a knot and one for
// exactly 0: the score and the chances of a win, a draw and a loss.
func WriteTable(w io.Writer, m eval.WDLModel) error {
	line := func(name string, win, loss uint16) error {
		_, err := fmt.Fprintf(w, "%9s  win %.4f  draw %.4f  loss %.4f\n", name,
			float64(win)/eval.WDLUnit, float64(eval.WDLUnit-int(win)-int(loss))/eval.WDLUnit, float64(loss)/eval.WDLUnit)
		return err
	}
	t := &m.Table
	for i := range t.Win {
		if err := line(fmt.Sprintf("%+d", eval.KnotScore(i)), t.Win[i], t.Loss[i]); err != nil {
			return err
		}
	}
	return line("exactly 0", t.Win0, t.Loss0)
}

// WriteMarkdown writes the calibration as a Markdown table, a row a bin,
// followed by a line of totals.
func (c *Calibration) WriteMarkdown(w io.Writer) error {
	table := ""
	if !c.Model.Table.Empty() {
		table = " (forecast by its table)"
	}
	if _, err := fmt.Fprintf(w, "model K %.6f, band %.0f%s; %d positions of %d games\n\n", c.Model.K, c.Model.Band, table, c.N, c.Games); err != nil {
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
