package match

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFitRatingsByHand checks the fit on cases worked out by hand.
func TestFitRatingsByHand(t *testing.T) {
	// 3 points of 4: the difference at which 3/4 is expected,
	// 400·log10(3), and the standard error of the difference
	// 1/(c·√(n·p·(1−p))) with c = ln 10/400, n = 4, p = 3/4.
	d := 400 * math.Log10(3)
	se := 400 / math.Ln10 / math.Sqrt(4*0.75*0.25)
	threeOfFour := WDL{Wins: 3, Losses: 1}

	r, err := FitRatings(2, []Result{{0, 1, threeOfFour}}, -1)
	if err != nil || r.Prior {
		t.Fatalf("two engines: %+v, %v", r, err)
	}
	if !near(r.Elo[0], d/2, 1e-6) || !near(r.Elo[1], -d/2, 1e-6) {
		t.Errorf("two engines, the mean at 0: %v, want ±%.4f", r.Elo, d/2)
	}
	// With the mean held, each rating is half the difference.
	if !near(r.Margin[0], z975*se/2, 1e-6) || !near(r.Margin[1], z975*se/2, 1e-6) {
		t.Errorf("two engines, margins %v, want %.4f", r.Margin, z975*se/2)
	}

	r, _ = FitRatings(2, []Result{{0, 1, threeOfFour}}, 1)
	if !near(r.Elo[0], d, 1e-6) || r.Elo[1] != 0 || !near(r.Margin[0], z975*se, 1e-6) || r.Margin[1] != 0 {
		t.Errorf("two engines, the second at 0: %v ± %v, want %.4f ± %.4f and 0 ± 0", r.Elo, r.Margin, d, z975*se)
	}

	// A chain: A 3/4 against B, B 3/4 against C, A and C never met. The
	// fit splits into the two pairs.
	chain := []Result{{0, 1, threeOfFour}, {1, 2, threeOfFour}}
	r, _ = FitRatings(3, chain, -1)
	for i, want := range []float64{d, 0, -d} {
		if !near(r.Elo[i], want, 1e-6) {
			t.Errorf("chain: %v, want %.4f, 0, %.4f", r.Elo, d, -d)
		}
	}
	r, _ = FitRatings(3, chain, 1)
	if !near(r.Margin[0], z975*se, 1e-6) || !near(r.Margin[2], z975*se, 1e-6) || r.Margin[1] != 0 {
		t.Errorf("chain, B at 0: margins %v, want %.4f, 0, %.4f", r.Margin, z975*se, z975*se)
	}

	// A cycle of three equal results: all equal.
	r, _ = FitRatings(3, []Result{{0, 1, threeOfFour}, {1, 2, threeOfFour}, {2, 0, threeOfFour}}, -1)
	for i := range 3 {
		if !near(r.Elo[i], 0, 1e-9) {
			t.Errorf("cycle: %v, want zeros", r.Elo)
		}
	}

	// Draws count half: 2 wins and 2 draws are 3 points of 4, as 3 wins
	// and a loss are.
	r, _ = FitRatings(2, []Result{{0, 1, WDL{Wins: 2, Draws: 2}}}, 1)
	if !near(r.Elo[0], d, 1e-6) {
		t.Errorf("2 wins and 2 draws: %v, want %.4f", r.Elo, d)
	}
}

// TestFitRatingsDegenerate checks what has no finite fit or no fit at
// all: a clean sweep gets BayesElo's virtual draws, an engine without
// games no rating.
func TestFitRatingsDegenerate(t *testing.T) {
	// 2 wins of 2 and a virtual draw: 2.5 of 3, the difference
	// 400·log10(5).
	r, err := FitRatings(3, []Result{{0, 1, WDL{Wins: 2}}}, 1)
	if err != nil || !r.Prior {
		t.Fatalf("a sweep: %+v, %v; want the prior", r, err)
	}
	if !near(r.Elo[0], 400*math.Log10(5), 1e-6) || r.Rated[2] || !math.IsNaN(r.Elo[2]) {
		t.Errorf("a sweep: %v rated %v, want %.4f, 0, unrated", r.Elo, r.Rated, 400*math.Log10(5))
	}
	// The anchor without games: nobody is rated.
	r, _ = FitRatings(3, []Result{{0, 1, WDL{Wins: 1, Losses: 1}}}, 2)
	if r.Rated[0] || r.Rated[1] || r.Rated[2] {
		t.Errorf("anchor without games: rated %v", r.Rated)
	}
	if _, err := FitRatings(2, []Result{{0, 2, WDL{Wins: 1}}}, -1); err == nil {
		t.Error("a result of an engine out of range: no error")
	}
	if _, err := FitRatings(2, nil, 2); err == nil {
		t.Error("an anchor out of range: no error")
	}
}

// slowFit maximizes the same likelihood by plain gradient ascent, step
// by small step, with the mean held at 0: a slow computation that shares
// nothing with FitRatings but the model.
func slowFit(n int, results []Result) []float64 {
	elo := make([]float64, n)
	for range 200000 {
		grad := make([]float64, n)
		for _, r := range results {
			g := float64(r.WDL.Games())
			s := float64(r.WDL.Wins) + float64(r.WDL.Draws)/2
			p := 1 / (1 + math.Pow(10, (elo[r.B]-elo[r.A])/400))
			grad[r.A] += s - g*p
			grad[r.B] -= s - g*p
		}
		mean := 0.0
		for i := range elo {
			elo[i] += 2 * grad[i]
			mean += elo[i] / float64(n)
		}
		for i := range elo {
			elo[i] -= mean
		}
	}
	return elo
}

// TestFitRatingsAgainstGradient checks the fit of a random round robin
// against slowFit.
func TestFitRatingsAgainstGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const n = 5
	strength := []float64{150, 60, 0, -40, -200}
	var results []Result
	for a := range n {
		for b := a + 1; b < n; b++ {
			var w WDL
			p := ScoreFromElo(strength[a] - strength[b])
			for range 30 {
				switch x := rng.Float64(); {
				case x < 0.15:
					w.Draws++
				case x < 0.15+0.85*p:
					w.Wins++
				default:
					w.Losses++
				}
			}
			results = append(results, Result{a, b, w})
		}
	}
	got, err := FitRatings(n, results, -1)
	if err != nil || got.Prior {
		t.Fatalf("%+v, %v", got, err)
	}
	want := slowFit(n, results)
	for i := range n {
		if !near(got.Elo[i], want[i], 1e-3) {
			t.Errorf("engine %d: %.4f, the gradient ascent %.4f", i, got.Elo[i], want[i])
		}
	}
	// The same fit anchored at engine 2 is the same ratings shifted.
	anchored, _ := FitRatings(n, results, 2)
	for i := range n {
		if !near(anchored.Elo[i], got.Elo[i]-got.Elo[2], 1e-6) {
			t.Errorf("anchored at engine 2: %v, want %v shifted", anchored.Elo, got.Elo)
		}
	}
}
