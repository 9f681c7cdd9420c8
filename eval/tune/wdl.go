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
// dataset's search scores and game results by least squares: the knots'
// chances of a win, and of a loss, that make the table's forecasts (its
// linear interpolation between the knots) nearest to the results seen,
// in the sum of squared differences over the positions (see knotSystem).
// A position beyond the last knot counts at it. Knots that no position
// is near lie on the straight line between their fitted neighbours, or
// level with the nearest one beyond them; chances are then kept at 0 or
// more, and a win and a loss that add up to more than 1 are scaled down
// together. The positions scored exactly 0 are counted apart, for the
// table's chances at 0; without any, those are the knot's. An empty
// dataset returns m unchanged.
//
// Least squares, rather than each knot's share of the results weighted
// by the positions' nearness, matters where positions crowd between
// knots: Hoyito III's scores gather near the multiples of a capture
// (400), and the nearness shares pulled the forecasts between the
// crowds towards them (docs/tuning.md).
func (d *Dataset) FitWDLTable(m eval.WDLModel) eval.WDLModel {
	var sys knotSystem
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
		sys.add(float64(s.score), float64(s.result))
	}
	if sys.n == 0 && zero == 0 {
		return m
	}
	var win, loss [eval.WDLKnots]float64
	if sys.n == 0 {
		for k := range win {
			win[k], loss[k] = win0/zero, loss0/zero
		}
	} else {
		win, loss = sys.solve()
	}
	m.Table = eval.WDLTable{}
	for k := range win {
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
// each at least 0 and their sum at most a whole (scaled down together
// when it is more).
func tableUnits(win, loss float64) (uint16, uint16) {
	win, loss = max(win, 0), max(loss, 0)
	if sum := win + loss; sum > 1 {
		win, loss = win/sum, loss/sum
	}
	w := uint16(math.Round(win * eval.WDLUnit))
	return w, min(uint16(math.Round(loss*eval.WDLUnit)), eval.WDLUnit-w)
}

// knotSystem holds the normal equations of the least-squares fit of a
// WDLTable's knots. A position at score x between knots k and k+1, a
// fraction f of the way, is forecast (1−f)·t[k] + f·t[k+1]; the fit
// minimises, for the wins (y 1 for a win, else 0) and apart for the
// losses,
//
//	Σ over positions ((1−f)·t[k] + f·t[k+1] − y)²
//	  + μ · Σ over knots with positions near (t[k] − share[k])²
//	  + λ · Σ over k (t[k+1] − t[k])²
//
// whose matrix is tridiagonal. The second sum is a prior worth one
// position (μ = knotPrior) at each knot that positions lie within a step
// of, towards their share of the results weighted by nearness (1 at the
// knot, falling to 0 a step away; the table's fit before least squares):
// it is lost among the hundreds of positions of a knot in use, and keeps
// a knot that a few positions barely reach from swinging beyond 0 or 1
// to fit them. The third, with λ = knotPenalty, moves no knot that
// positions are near; it decides the knots they leave free (a straight
// line across a gap, level beyond the last fitted knot).
type knotSystem struct {
	diag, off [eval.WDLKnots]float64 // the matrix: (k, k) and (k, k+1)
	// win and loss are the right-hand sides: the nearness weights of the
	// won and of the lost positions within a step of each knot (so that
	// win/near and loss/near are the prior's shares).
	win, loss [eval.WDLKnots]float64
	near      [eval.WDLKnots]float64 // the nearness weights of all of them
	n         float64                // positions
}

// The weights of the prior and of the smoothness (see knotSystem).
const (
	knotPrior   = 1
	knotPenalty = 1e-9
)

// add counts a position at score with result (1, ½ or 0).
func (s *knotSystem) add(score, result float64) {
	k, f := eval.KnotOf(score)
	a, b := 1-f, f
	s.diag[k] += a * a
	s.diag[k+1] += b * b
	s.off[k] += a * b
	s.near[k] += a
	s.near[k+1] += b
	switch result {
	case 1:
		s.win[k] += a
		s.win[k+1] += b
	case 0:
		s.loss[k] += a
		s.loss[k+1] += b
	}
	s.n++
}

// solve returns the knots' chances of a win and of a loss, unclamped, by
// the Thomas algorithm (the matrix is symmetric positive definite once a
// position has been added).
func (s *knotSystem) solve() (win, loss [eval.WDLKnots]float64) {
	const n = eval.WDLKnots
	diag, off := s.diag, s.off
	rw, rl := s.win, s.loss
	for k := range n {
		if s.near[k] > 0 {
			diag[k] += knotPrior
			rw[k] += knotPrior * s.win[k] / s.near[k]
			rl[k] += knotPrior * s.loss[k] / s.near[k]
		}
		if k < n-1 {
			diag[k] += knotPenalty
			diag[k+1] += knotPenalty
			off[k] -= knotPenalty
		}
	}
	var c [n]float64
	for k := range n {
		m := diag[k]
		if k > 0 {
			m -= off[k-1] * c[k-1]
			rw[k] -= off[k-1] * rw[k-1]
			rl[k] -= off[k-1] * rl[k-1]
		}
		c[k] = off[k] / m
		rw[k] /= m
		rl[k] /= m
	}
	win[n-1], loss[n-1] = rw[n-1], rl[n-1]
	for k := n - 2; k >= 0; k-- {
		win[k] = rw[k] - c[k]*win[k+1]
		loss[k] = rl[k] - c[k]*loss[k+1]
	}
	return win, loss
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
