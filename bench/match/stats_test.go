package match

import (
	"math"
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

// TestLLR checks the pentanomial log-likelihood ratio against values
// worked out by hand.
//
// Pairs [LL, LD, WL+DD, WD, WW] = [1, 1, 4, 2, 2], N = 10, per-game scores
// x = 0, ¼, ½, ¾, 1:
//
//	μ̂  = (0 + 0.25 + 4·0.5 + 2·0.75 + 2·1) / 10 = 5.75/10 = 0.575
//	σ̂² = (1·0.575² + 1·0.325² + 4·0.075² + 2·0.175² + 2·0.425²) / 10
//	    = (0.330625 + 0.105625 + 0.0225 + 0.06125 + 0.36125) / 10 = 0.088125
//
// Normalized elo0=0 elo1=5:
//
//	μ0 = ½
//	μ1 = ½ + 5·√(2·0.088125)·ln10/800 = ½ + 5·0.419821·0.00287823 = 0.5060417
//	LLR = 10·(μ1 − μ0)·(2μ̂ − μ0 − μ1)/(2σ̂²)
//	    = 10·0.0060417·(1.15 − 1.0060417)/0.17625 = 0.049348
//
// Logistic elo0=0 elo1=5:
//
//	μ1 = 1/(1 + 10^(−5/400)) = 1/(1 + 0.971628) = 0.5071951
//	LLR = 10·0.0071951·(1.15 − 1.0071951)/0.17625 = 0.058297
//
// Bounds for α = β = 0.05: ln(0.05/0.95) = −2.944439, ln(0.95/0.05) = 2.944439.
func TestLLR(t *testing.T) {
	norm := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: Normalized}
	logi := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: Logistic}
	tests := []struct {
		name string
		t    SPRT
		p    Penta
		llr  float64
		tol  float64
		want Decision
	}{
		{"normalized", norm, Penta{1, 1, 4, 2, 2}, 0.049348, 1e-6, Continue},
		{"logistic", logi, Penta{1, 1, 4, 2, 2}, 0.058297, 1e-6, Continue},
		{"no pairs", norm, Penta{}, 0, 0, Continue},
		// Even results [1, 1, 6, 1, 1]: μ̂ = (0.25 + 3 + 0.75 + 1)/10 = ½,
		// σ̂² = (0.25 + 0.0625 + 0 + 0.0625 + 0.25)/10 = 0.0625,
		// μ1 − μ0 = 5·√0.125·ln10/800 = 5·0.353553·0.00287823 = 0.00508805,
		// LLR = 10·0.00508805·(1 − 1.00508805)/0.125 = −0.00207106.
		{"even", norm, Penta{1, 1, 6, 1, 1}, -0.00207106, 1e-7, Continue},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			llr := tc.t.LLR(tc.p)
			if !near(llr, tc.llr, tc.tol) {
				t.Errorf("LLR %v, want %v", llr, tc.llr)
			}
			if d := tc.t.Decide(llr); d != tc.want {
				t.Errorf("decision %v, want %v", d, tc.want)
			}
		})
	}
	lo, hi := norm.Bounds()
	if !near(lo, -2.944439, 1e-6) || !near(hi, 2.944439, 1e-6) {
		t.Errorf("bounds %v %v, want ±2.944439", lo, hi)
	}
	// One-sided results decide: empty classes are regularized, so the
	// variance stays positive and the ratio is large.
	if d := norm.Decide(norm.LLR(Penta{0, 0, 0, 0, 20})); d != AcceptH1 {
		t.Errorf("20 double wins: %v, want H1", d)
	}
	if d := norm.Decide(norm.LLR(Penta{20, 0, 0, 0, 0})); d != AcceptH0 {
		t.Errorf("20 double losses: %v, want H0", d)
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
