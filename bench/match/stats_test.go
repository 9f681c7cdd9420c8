package match

import (
	"math"
	"math/rand/v2"
	"testing"
)

func near(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= tol
}

// TestWDL checks the Elo line against values worked out by hand.
//
// 6 wins, 2 losses, 2 draws (n = 10):
//
//	μ      = (6 + 2/2) / 10                                = 0.7
//	Elo    = −400·log10(1/0.7 − 1) = 400·log10(7/3)        = 400·0.367977 = 147.19
//	σ²     = 0.6·(1 − 0.7)² + 0.2·(0 − 0.7)² + 0.2·(0.5 − 0.7)²
//	       = 0.6·0.09 + 0.2·0.49 + 0.2·0.04 = 0.054 + 0.098 + 0.008 = 0.16
//	se     = √(0.16/10) = √0.016                            = 0.126491
//	μ ± 1.959964·se = 0.7 ± 0.247918                        = 0.452082 … 0.947918
//	Elo(0.947918) = 400·log10(0.947918/0.052082) = 400·log10(18.2005) = 504.03
//	Elo(0.452082) = 400·log10(0.452082/0.547918) = 400·log10(0.825090) = −33.40
//	margin = (504.03 + 33.40) / 2                           = 268.72
//	LOS    = ½·(1 + erf((6 − 2)/√(2·8))) = ½·(1 + erf(1)) = ½·(1 + 0.842701) = 0.921350
//	draws  = 2/10                                           = 0.2
//
// 3 wins, 3 losses, 4 draws: μ = ½, Elo 0; σ² = 0.3·¼ + 0.3·¼ + 0 = 0.15,
// se = √0.015 = 0.122474, interval ½ ± 0.240045 = 0.259955 … 0.740045,
// Elo(0.740045) = 400·log10(0.740045/0.259955) = 400·log10(2.846818) =
// 400·0.454361 = 181.74, and by symmetry the margin is 181.74; LOS =
// ½·(1 + erf(0)) = ½.
func TestWDL(t *testing.T) {
	tests := []struct {
		name                    string
		r                       WDL
		score, elo, margin, los float64
		draws                   float64
	}{
		{"6-2-2", WDL{6, 2, 2}, 0.7, 147.19, 268.72, 0.921350, 0.2},
		{"3-3-4", WDL{3, 3, 4}, 0.5, 0, 181.74, 0.5, 0.4},
		{"mirror", WDL{2, 6, 2}, 0.3, -147.19, 268.72, 1 - 0.921350, 0.2},
		// All draws: no decisive game, LOS ½, σ = 0 so the interval is a point.
		{"draws", WDL{0, 0, 5}, 0.5, 0, 0, 0.5, 1},
		// A clean sweep: infinite Elo, no interval.
		{"sweep", WDL{4, 0, 0}, 1, math.Inf(1), math.NaN(), 0.5 * (1 + math.Erf(4/math.Sqrt(8))), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.r
			if got := r.Score(); !near(got, tc.score, 1e-9) {
				t.Errorf("score %v, want %v", got, tc.score)
			}
			if got := r.Elo(); !near(got, tc.elo, 0.01) {
				t.Errorf("elo %v, want %v", got, tc.elo)
			}
			if got := r.ErrorMargin(); !near(got, tc.margin, 0.01) {
				t.Errorf("margin %v, want %v", got, tc.margin)
			}
			if got := r.LOS(); !near(got, tc.los, 1e-6) {
				t.Errorf("LOS %v, want %v", got, tc.los)
			}
			if got := r.DrawRatio(); !near(got, tc.draws, 1e-9) {
				t.Errorf("draw ratio %v, want %v", got, tc.draws)
			}
		})
	}
}

func TestEloScoreRoundTrip(t *testing.T) {
	for _, e := range []float64{-400, -100, -5, 0, 5, 100, 400} {
		if got := EloFromScore(ScoreFromElo(e)); !near(got, e, 1e-9) {
			t.Errorf("EloFromScore(ScoreFromElo(%v)) = %v", e, got)
		}
	}
	// 400 Elo is a 10:1 expectation: 10/11.
	if got := ScoreFromElo(400); !near(got, 10.0/11, 1e-12) {
		t.Errorf("ScoreFromElo(400) = %v, want 10/11", got)
	}
}

// normalApproxLLR is the normal approximation of the log-likelihood ratio
// (fastchess's formula), which the exact ratio must approach when the pairs
// are many: N·(μ1 − μ0)·(2μ̂ − μ0 − μ1)/(2σ̂²).
func normalApproxLLR(t SPRT, p Penta) float64 {
	n, mu, v := 0.0, 0.0, 0.0
	for k, c := range p {
		n += float64(c)
		mu += float64(c) * float64(k) / 4
	}
	mu /= n
	for k, c := range p {
		d := float64(k)/4 - mu
		v += float64(c) * d * d
	}
	v /= n
	mu0, mu1 := ScoreFromElo(t.Elo0), ScoreFromElo(t.Elo1)
	if t.Model == Normalized {
		sd := math.Sqrt(2 * v)
		mu0, mu1 = 0.5+t.Elo0*sd/eloScale, 0.5+t.Elo1*sd/eloScale
	}
	return n * (mu1 - mu0) * (2*mu - mu0 - mu1) / (2 * v)
}

// TestLLR checks the log-likelihood ratio: few pairs decide nothing,
// one-sided results decide, and with many pairs the exact ratio meets the
// normal approximation worked out independently.
func TestLLR(t *testing.T) {
	norm := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: Normalized}
	logi := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05, Model: Logistic}
	lo, hi := norm.Bounds()
	if !near(lo, -2.944439, 1e-6) || !near(hi, 2.944439, 1e-6) {
		t.Errorf("bounds %v %v, want ±2.944439", lo, hi)
	}
	for _, s := range []SPRT{norm, logi} {
		t.Run(s.Model.String(), func(t *testing.T) {
			if llr := s.LLR(Penta{}); llr != 0 {
				t.Errorf("no pairs: LLR %v, want 0", llr)
			}
			// One or two pairs are no evidence, whatever they are (the
			// normal approximation accepts H1 after one pair of wins).
			for _, p := range []Penta{{0, 0, 0, 0, 1}, {0, 0, 0, 1, 0}, {1, 0, 0, 0, 0}, {0, 0, 0, 0, 2}} {
				if d := s.Decide(s.LLR(p)); d != Continue {
					t.Errorf("%v: %v after %d pairs, want continue", p, d, p.Pairs())
				}
			}
			if s.LLR(Penta{0, 0, 0, 0, 1}) <= 0 || s.LLR(Penta{1, 0, 0, 0, 0}) >= 0 {
				t.Errorf("a pair of wins should count for H1 and a pair of losses against it")
			}
			// Lopsided results decide, given enough pairs: every pair alike
			// is about as likely under either hypothesis (a distribution
			// with the hypothesis's mean that puts half its weight on
			// the outcome), so it takes a few hundred.
			if d := s.Decide(s.LLR(Penta{0, 0, 0, 0, 300})); d != AcceptH1 {
				t.Errorf("300 double wins: %v, want H1", d)
			}
			if d := s.Decide(s.LLR(Penta{300, 0, 0, 0, 0})); d != AcceptH0 {
				t.Errorf("300 double losses: %v, want H0", d)
			}
			if d := s.Decide(s.LLR(Penta{10, 40, 80, 120, 80})); d != AcceptH1 {
				t.Errorf("330 pairs at 66%%: %v, want H1", d)
			}
			// Many pairs of every kind, scoring near the hypotheses, where
			// the quadratic approximation holds: within 2% of it.
			for _, p := range []Penta{{100, 300, 1000, 310, 110}, {45, 200, 500, 190, 60}, {1000, 3000, 10000, 3100, 1100}} {
				exact, approx := s.LLR(p), normalApproxLLR(s, p)
				if math.Abs(exact-approx) > 0.02*math.Abs(approx)+0.01 {
					t.Errorf("%v: LLR %v, normal approximation %v", p, exact, approx)
				}
			}
		})
	}
}

// TestMLE checks the constrained maximum-likelihood distributions behind
// LLR: each is a distribution, meets its constraint, and no small move that
// keeps the constraint raises the likelihood.
func TestMLE(t *testing.T) {
	loglik := func(pdf, q [5]float64) float64 {
		s := 0.0
		for k := range q {
			if q[k] <= 0 {
				return math.Inf(-1)
			}
			s += pdf[k] * math.Log(q[k])
		}
		return s
	}
	stats := func(q [5]float64) (sum, mu, sigma float64) {
		for k := range q {
			sum += q[k]
			mu += q[k] * float64(k) / 4
		}
		for k := range q {
			d := float64(k)/4 - mu
			sigma += q[k] * d * d
		}
		return sum, mu, math.Sqrt(sigma)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pdfs := [][5]float64{{0.1, 0.1, 0.4, 0.2, 0.2}, {0.001, 0.001, 0.7, 0.001, 0.297}, {0.3, 0.2, 0.2, 0.2, 0.1}}
	for _, pdf := range pdfs {
		for _, s := range []float64{0.45, 0.5, 0.5144, 0.6} {
			q := mleMean(pdf, s)
			sum, mu, _ := stats(q)
			if !near(sum, 1, 1e-9) || !near(mu, s, 1e-9) {
				t.Fatalf("mleMean(%v, %v) = %v: sum %v, mean %v", pdf, s, q, sum, mu)
			}
			best := loglik(pdf, q)
			for range 200 {
				// A direction d with Σd = 0 and Σd·a = 0 keeps both.
				var d [5]float64
				for k := range d {
					d[k] = rng.NormFloat64()
				}
				// Project out the constant and the linear score.
				for _, basis := range [][5]float64{{1, 1, 1, 1, 1}, {-2, -1, 0, 1, 2}} {
					dot, nn := 0.0, 0.0
					for k := range d {
						dot += d[k] * basis[k]
						nn += basis[k] * basis[k]
					}
					for k := range d {
						d[k] -= dot / nn * basis[k]
					}
				}
				var r [5]float64
				for k := range r {
					r[k] = q[k] + 1e-4*d[k]
				}
				if l := loglik(pdf, r); l > best+1e-12 {
					t.Fatalf("mleMean(%v, %v): %v has a higher likelihood than %v", pdf, s, r, q)
				}
			}
		}
		for _, tv := range []float64{0, 0.0123, 0.05, -0.05} {
			q := mleTValue(pdf, tv)
			sum, mu, sigma := stats(q)
			if !near(sum, 1, 1e-9) || !near((mu-0.5)/sigma, tv, 1e-7) {
				t.Fatalf("mleTValue(%v, %v) = %v: sum %v, t-value %v", pdf, tv, q, sum, (mu-0.5)/sigma)
			}
			// Compare with points on the constraint's surface nearby: move
			// along a random direction, then restore the t-value by moving
			// the mean along (−2, −1, 0, 1, 2) (found by bisection).
			best := loglik(pdf, q)
			for range 100 {
				var d [5]float64
				for k := range d {
					d[k] = rng.NormFloat64() * 1e-4
				}
				mean := 0.0
				for k := range d {
					mean += d[k]
				}
				for k := range d {
					d[k] -= mean / 5
				}
				tAt := func(c float64) (float64, [5]float64) {
					var r [5]float64
					for k := range r {
						r[k] = q[k] + d[k] + c*float64(k-2)
					}
					_, mu, sigma := stats(r)
					return (mu-0.5)/sigma - tv, r
				}
				a, b := -1e-3, 1e-3
				fa, _ := tAt(a)
				for range 100 {
					m := (a + b) / 2
					fm, _ := tAt(m)
					if (fm > 0) == (fa > 0) {
						a, fa = m, fm
					} else {
						b = m
					}
				}
				_, r := tAt((a + b) / 2)
				if l := loglik(pdf, r); l > best+1e-10 {
					t.Fatalf("mleTValue(%v, %v): %v has a higher likelihood than %v", pdf, tv, r, q)
				}
			}
		}
	}
}

func TestParseSPRT(t *testing.T) {
	tests := []struct {
		in   string
		want SPRT
		bad  bool
	}{
		{"elo0=0 elo1=5 alpha=0.05 beta=0.05", SPRT{0, 5, 0.05, 0.05, Normalized}, false},
		{"elo0=-3,elo1=1,alpha=0.1,beta=0.1,model=logistic", SPRT{-3, 1, 0.1, 0.1, Logistic}, false},
		{"elo1=10", SPRT{0, 10, 0.05, 0.05, Normalized}, false},
		{"", SPRT{}, true},
		{"elo0=5 elo1=0", SPRT{}, true},
		{"alpha=0.7", SPRT{}, true},
		{"elo0=x", SPRT{}, true},
		{"foo=1", SPRT{}, true},
		{"model=bayes", SPRT{}, true},
		{"elo0", SPRT{}, true},
		{"elo0=-1e9 elo1=1e9", SPRT{}, true},
		{"elo0=0 elo1=1001", SPRT{}, true},
		{"elo0=-1000 elo1=1000 model=logistic", SPRT{-1000, 1000, 0.05, 0.05, Logistic}, false},
	}
	for _, tc := range tests {
		got, err := ParseSPRT(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("ParseSPRT(%q) error %v, want error %v", tc.in, err, tc.bad)
			continue
		}
		if !tc.bad && got != tc.want {
			t.Errorf("ParseSPRT(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestPentaAdd(t *testing.T) {
	var p Penta
	for _, pair := range [][2]float64{{0, 0}, {0, 0.5}, {1, 0}, {0.5, 0.5}, {1, 0.5}, {1, 1}} {
		p.Add(pair[0], pair[1])
	}
	if want := (Penta{1, 1, 2, 1, 1}); p != want {
		t.Errorf("got %v, want %v", p, want)
	}
}

// TestEloText checks the Elo difference as the reports write it: never
// "nan", an unbounded margin as "inf", and no difference without games.
func TestEloText(t *testing.T) {
	for _, c := range []struct {
		r    WDL
		want string
	}{
		{WDL{}, "none (no games)"},
		{WDL{Wins: 7}, "inf +/- inf"},
		{WDL{Losses: 3}, "-inf +/- inf"},
		{WDL{Wins: 6, Draws: 1}, "445.6 +/- inf"},
		// μ = ½, σ = ½, 1.96·σ/√6 = 0.4001: Elo(0.9001) = 400·log10(9.01) = 381.8.
		{WDL{Wins: 3, Losses: 3}, "0.0 +/- 381.8"},
	} {
		if got := eloText(c.r); got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
}
