package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/sower-engine/sower/bench/timecontrol"
)

// z975 is the 97.5% quantile of the standard normal distribution: a 95%
// two-sided interval is the mean ± z975 standard errors.
const z975 = 1.959963984540054

// eloScale is 800/ln 10, the slope that turns a score's distance from 1/2
// (in standard deviations) into normalized Elo.
const eloScale = 800 / math.Ln10

// WDL counts games from engine1's point of view.
type WDL struct {
	Wins, Losses, Draws int
}

// Games returns the number of games counted.
func (r WDL) Games() int { return r.Wins + r.Losses + r.Draws }

// Score returns engine1's mean score per game, draws counting half (NaN
// before any game).
func (r WDL) Score() float64 {
	n := float64(r.Games())
	return (float64(r.Wins) + float64(r.Draws)/2) / n
}

// Elo returns the logistic Elo difference that the score implies (see
// EloFromScore): +Inf when engine1 won every game, -Inf when it lost every
// game.
func (r WDL) Elo() float64 { return EloFromScore(r.Score()) }

// stdErr returns the standard error of the mean score: the per-game
// standard deviation of the results (1, ½ and 0 with their observed
// frequencies) over √n.
func (r WDL) stdErr() float64 {
	n := float64(r.Games())
	mu := r.Score()
	w, l, d := float64(r.Wins)/n, float64(r.Losses)/n, float64(r.Draws)/n
	v := w*(1-mu)*(1-mu) + l*mu*mu + d*(0.5-mu)*(0.5-mu)
	return math.Sqrt(v / n)
}

// ErrorMargin returns the half-width of the 95% interval of the Elo
// difference, computed as cutechess-cli does: the score's 95% interval
// μ ± 1.96·σ/√n is mapped to Elo and halved,
//
//	(Elo(μ + 1.96·σ/√n) − Elo(μ − 1.96·σ/√n)) / 2
//
// where σ² is the variance of one game's result. It is NaN when the
// interval leaves (0, 1), as it does after a clean sweep.
func (r WDL) ErrorMargin() float64 {
	mu, se := r.Score(), r.stdErr()
	lo, hi := mu-z975*se, mu+z975*se
	if lo <= 0 || hi >= 1 {
		return math.NaN()
	}
	return (EloFromScore(hi) - EloFromScore(lo)) / 2
}

// LOS returns the likelihood of superiority, the probability that engine1
// is the stronger, as a fraction: ½·(1 + erf((W − L)/√(2(W + L)))). Draws
// do not enter it. It is ½ when no game was decisive.
func (r WDL) LOS() float64 {
	wl := float64(r.Wins + r.Losses)
	if wl == 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf(float64(r.Wins-r.Losses)/math.Sqrt(2*wl)))
}

// DrawRatio returns the fraction of games drawn.
func (r WDL) DrawRatio() float64 { return float64(r.Draws) / float64(r.Games()) }

// EloFromScore returns the logistic Elo difference at which the stronger
// side's expected score is s: −400·log10(1/s − 1).
func EloFromScore(s float64) float64 { return -400 * math.Log10(1/s-1) }

// ScoreFromElo returns the expected score at a logistic Elo difference:
// 1 / (1 + 10^(−elo/400)).
func ScoreFromElo(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// Penta counts game pairs (the two games of one opening, colours swapped)
// by engine1's points in the pair: index 0 is two losses, 1 a loss and a
// draw, 2 a win and a loss or two draws, 3 a win and a draw, 4 two wins.
// Index k is worth k/4 per game.
type Penta [5]int

// Pairs returns the number of pairs counted.
func (p Penta) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Add counts a pair in which engine1 scored a and b (each 0, ½ or 1).
func (p *Penta) Add(a, b float64) { p[int(math.Round(2*(a+b)))]++ }

// Model is the Elo model in which the SPRT bounds elo0 and elo1 are given.
type Model uint8

// The SPRT models.
const (
	// Normalized Elo: the score difference in units of its standard
	// deviation (fastchess's default; independent of the draw rate).
	Normalized Model = iota
	// Logistic Elo, as in the Elo line of the report.
	Logistic
)

// String returns "normalized" or "logistic".
func (m Model) String() string {
	if m == Logistic {
		return "logistic"
	}
	return "normalized"
}

// Decision is the state of a sequential test.
type Decision uint8

// Decisions.
const (
	Continue Decision = iota // neither bound reached
	AcceptH0                 // llr at or below the lower bound: not elo1 or better
	AcceptH1                 // llr at or above the upper bound: not elo0 or worse
)

// String returns "continue", "H0" or "H1".
func (d Decision) String() string {
	switch d {
	case AcceptH0:
		return "H0"
	case AcceptH1:
		return "H1"
	}
	return "continue"
}

// SPRT is a sequential probability ratio test of H0: elo = Elo0 against
// H1: elo = Elo1 with error rates Alpha (false H1) and Beta (false H0).
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
	Model       Model
}

// DefaultSPRT returns the usual test: elo0=0 elo1=5 alpha=0.05 beta=0.05
// in normalized Elo.
func DefaultSPRT() SPRT { return SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05} }

// ParseSPRT reads "elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized|logistic]":
// key=value fields separated by spaces or commas, in any order; a key
// left out keeps its value from DefaultSPRT.
func ParseSPRT(s string) (SPRT, error) {
	t := DefaultSPRT()
	pairs, err := timecontrol.KeyValues(s, "sprt", "elo0=X elo1=Y alpha=A beta=B")
	if err != nil {
		return t, err
	}
	for _, kv := range pairs {
		k, v := kv[0], kv[1]
		if strings.EqualFold(k, "model") {
			switch strings.ToLower(v) {
			case "normalized":
				t.Model = Normalized
			case "logistic":
				t.Model = Logistic
			default:
				return t, fmt.Errorf("sprt model %q: want normalized or logistic", v)
			}
			continue
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return t, fmt.Errorf("sprt %s=%q: not a number", k, v)
		}
		switch strings.ToLower(k) {
		case "elo0":
			t.Elo0 = x
		case "elo1":
			t.Elo1 = x
		case "alpha":
			t.Alpha = x
		case "beta":
			t.Beta = x
		default:
			return t, fmt.Errorf("sprt: unknown key %q (want elo0, elo1, alpha, beta, model)", k)
		}
	}
	return t, t.Check()
}

// maxSPRTElo bounds the Elo of an SPRT's hypotheses: past it a game pair
// is next to certain and the test cannot tell the hypotheses apart.
const maxSPRTElo = 1000

// Check reports a test that cannot work: a bound that is not a number
// within ±1000, elo1 not above elo0, or an error rate outside (0, ½).
func (t SPRT) Check() error {
	for _, b := range []struct {
		name string
		x    float64
	}{{"elo0", t.Elo0}, {"elo1", t.Elo1}} {
		if !(math.Abs(b.x) <= maxSPRTElo) {
			return fmt.Errorf("sprt: %s %g: want a number from -%d to %d", b.name, b.x, maxSPRTElo, maxSPRTElo)
		}
	}
	switch {
	case t.Elo1 <= t.Elo0:
		return fmt.Errorf("sprt: elo1 (%g) must be greater than elo0 (%g)", t.Elo1, t.Elo0)
	case !(t.Alpha > 0 && t.Alpha < 0.5):
		return fmt.Errorf("sprt: alpha %g: want a value between 0 and 0.5", t.Alpha)
	case !(t.Beta > 0 && t.Beta < 0.5):
		return fmt.Errorf("sprt: beta %g: want a value between 0 and 0.5", t.Beta)
	}
	return nil
}

// String writes the test as ParseSPRT reads it.
func (t SPRT) String() string {
	return fmt.Sprintf("elo0=%g elo1=%g alpha=%g beta=%g model=%s", t.Elo0, t.Elo1, t.Alpha, t.Beta, t.Model)
}

// Bounds returns Wald's bounds on the log-likelihood ratio:
// ln(β/(1−α)) below, ln((1−β)/α) above.
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// regularize is the count given to an empty pentanomial class, so that
// every outcome keeps a little probability (as fishtest does).
const regularize = 1e-3

// LLR returns the generalized log-likelihood ratio of the pairs p, computed
// as fishtest does it (Michel Van den Bergh's GSPRT): the pairs are N draws
// from a multinomial distribution over the per-game scores a_k = k/4
// (k = 0…4) with observed frequencies p̂_k (empty classes count 0.001).
// Under each hypothesis the distribution is the one of largest likelihood
// among those the hypothesis allows, and
//
//	LLR = N · Σ p̂_k · ln(p1_k / p0_k)
//
// The hypotheses fix, for the logistic model, the mean score per game,
//
//	μi = 1 / (1 + 10^(−eloi/400))
//
// and for the normalized model the t-value of a pair,
//
//	(μ − ½) / σ = √2 · eloi / (800/ln 10)
//
// (σ the standard deviation of one pair's score per game; √2·σ is one
// game's). It is 0 before the first pair.
//
// The exact likelihood, unlike the normal approximation
// N·(μ1 − μ0)·(2μ̂ − μ0 − μ1)/(2σ̂²) that fastchess uses, stays small while
// the pairs are few: one pair of wins is no evidence, whereas the
// approximation, dividing by the near-zero variance of a single sample,
// accepts H1 after it. For many pairs the two agree.
func (t SPRT) LLR(p Penta) float64 {
	if p.Pairs() == 0 {
		return 0
	}
	var pdf [5]float64
	total := 0.0
	for k, c := range p {
		pdf[k] = float64(c)
		if c == 0 {
			pdf[k] = regularize
		}
		total += pdf[k]
	}
	for k := range pdf {
		pdf[k] /= total
	}
	var p0, p1 [5]float64
	switch t.Model {
	case Logistic:
		p0 = mleMean(pdf, ScoreFromElo(t.Elo0))
		p1 = mleMean(pdf, ScoreFromElo(t.Elo1))
	default:
		p0 = mleTValue(pdf, math.Sqrt2*t.Elo0/eloScale)
		p1 = mleTValue(pdf, math.Sqrt2*t.Elo1/eloScale)
	}
	llr := 0.0
	for k := range pdf {
		llr += pdf[k] * math.Log(p1[k]/p0[k])
	}
	return total * llr
}

// pentaScore returns the per-game score of pentanomial class k.
func pentaScore(k int) float64 { return float64(k) / 4 }

// mleMean returns the distribution q over the pentanomial classes that
// maximizes Σ pdf_k·ln q_k under Σ q_k·a_k = s: q_k = pdf_k / (1 + x·(a_k − s))
// (see reweight).
func mleMean(pdf [5]float64, s float64) [5]float64 {
	var b [5]float64
	for k := range b {
		b[k] = pentaScore(k) - s
	}
	return reweight(pdf, b)
}

// reweight returns the distribution of largest likelihood for pdf under
// Σ q_k·b_k = 0: q_k = pdf_k / (1 + x·b_k), x the root of the secular
// equation.
func reweight(pdf, b [5]float64) [5]float64 {
	x := secular(pdf, b)
	var q [5]float64
	for k := range q {
		q[k] = pdf[k] / (1 + x*b[k])
	}
	return q
}

// mleTValue returns the distribution q over the pentanomial classes that
// maximizes Σ pdf_k·ln q_k under (μ_q − ½)/σ_q = tv, by fishtest's fixed
// point: with μ and σ of the current q, the constraint is linearized to
// Σ q_k·b_k = 0 with b_k = a_k − ½ − tv·σ·(1 + ((μ − a_k)/σ)²)/2, which
// mleMean's method solves; a few rounds converge.
func mleTValue(pdf [5]float64, tv float64) [5]float64 {
	q := [5]float64{0.2, 0.2, 0.2, 0.2, 0.2}
	for range 50 {
		mu, v := 0.0, 0.0
		for k := range q {
			mu += q[k] * pentaScore(k)
		}
		for k := range q {
			d := pentaScore(k) - mu
			v += q[k] * d * d
		}
		sigma := math.Sqrt(v)
		var b [5]float64
		for k := range b {
			z := (mu - pentaScore(k)) / sigma
			b[k] = pentaScore(k) - 0.5 - tv*sigma*(1+z*z)/2
		}
		next := reweight(pdf, b)
		change := 0.0
		for k := range q {
			change = max(change, math.Abs(next[k]-q[k]))
		}
		q = next
		if change < 1e-12 {
			break
		}
	}
	return q
}

// secular returns the x in (−1/max b, −1/min b) where
//
//	Σ pdf_k·b_k / (1 + x·b_k) = 0
//
// the Lagrange condition of maximizing Σ pdf_k·ln q_k under Σ q_k·b_k = 0.
// The left side falls strictly with x on that interval, from +∞ to −∞, so
// bisection finds the root. It needs min b < 0 < max b (a mean strictly
// inside the scores' range); otherwise it returns the nearest end.
func secular(pdf, b [5]float64) float64 {
	bmin, bmax := b[0], b[0]
	for _, v := range b {
		bmin, bmax = min(bmin, v), max(bmax, v)
	}
	if bmin >= 0 || bmax <= 0 {
		return 0
	}
	lo, hi := -1/bmax, -1/bmin
	f := func(x float64) float64 {
		s := 0.0
		for k := range b {
			s += pdf[k] * b[k] / (1 + x*b[k])
		}
		return s
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}

// Decide compares llr with the bounds.
func (t SPRT) Decide(llr float64) Decision {
	lo, hi := t.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}
