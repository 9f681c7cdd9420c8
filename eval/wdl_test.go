package eval

import (
	"math"
	"testing"

	"github.com/sower-engine/sower/board"
)

// Hand-computed forecasts: with K = ln 3 / 100, σ(K·100) = 3/4, so with no
// band a score of +100 is 750 wins in 1000 and 250 losses; with a band of
// 100, a score of 0 gives win = loss = σ(−ln 3) = 1/4 and the draw the
// rest.
func TestWDLModelByHand(t *testing.T) {
	k := math.Log(3) / 100
	for _, tc := range []struct {
		m     WDLModel
		score int
		want  WDL
	}{
		{WDLModel{K: k}, 100, WDL{750, 0, 250}},
		{WDLModel{K: k}, -100, WDL{250, 0, 750}},
		{WDLModel{K: k}, 0, WDL{500, 0, 500}},
		{WDLModel{K: k, Band: 100}, 0, WDL{250, 500, 250}},
		// score 200, band 100: win σ(ln 3) = 3/4, loss σ(−3 ln 3) = 1/28.
		{WDLModel{K: k, Band: 100}, 200, WDL{750, 214, 36}},
	} {
		if got := tc.m.PerMille(tc.score); got != tc.want {
			t.Errorf("%+v at %d: %+v, want %+v", tc.m, tc.score, got, tc.want)
		}
	}
}

// Rounding gives exactly 1000 by the largest remainders.
func TestPerMilleRounding(t *testing.T) {
	for _, tc := range []struct {
		w, d, l float64
		want    WDL
	}{
		{0.3335, 0.3335, 0.333, WDL{334, 333, 333}},
		{0.9996, 0.0003, 0.0001, WDL{1000, 0, 0}},
		{0.0004, 0.0005, 0.9991, WDL{0, 1, 999}},
		{1, 0, 0, WDL{1000, 0, 0}},
	} {
		if got := perMille(tc.w, tc.d, tc.l); got != tc.want {
			t.Errorf("perMille(%g, %g, %g) = %+v, want %+v", tc.w, tc.d, tc.l, got, tc.want)
		}
	}
}

// Every forecast of the built-in models adds up to 1000 with no negative
// share, each within a per mille of its chance; the chance of a win rises
// and that of a loss falls with the score, and a score and its negation
// mirror each other (to a per mille of rounding).
func TestBuiltinWDL(t *testing.T) {
	for _, name := range board.Names() {
		v, err := board.New(name)
		if err != nil {
			t.Fatal(err)
		}
		m := BuiltinWDL(v.Family())
		if m.K <= 0 || m.Band < 0 {
			t.Fatalf("%s: model %+v", name, m)
		}
		prevWin, prevLoss := -1.0, 2.0
		for s := -20000; s <= 20000; s += 7 {
			f := m.PerMille(s)
			if f.Win < 0 || f.Draw < 0 || f.Loss < 0 || f.Win+f.Draw+f.Loss != 1000 {
				t.Fatalf("%s at %d: %+v", name, s, f)
			}
			w, d, l := m.Chances(float64(s))
			if w < prevWin || l > prevLoss || d < 0 || math.Abs(w+d+l-1) > 1e-12 {
				t.Fatalf("%s at %d: chances %g %g %g after win %g, loss %g", name, s, w, d, l, prevWin, prevLoss)
			}
			if math.Abs(1000*w-float64(f.Win)) >= 1 || math.Abs(1000*l-float64(f.Loss)) >= 1 {
				t.Fatalf("%s at %d: %+v for chances %g %g %g", name, s, f, w, d, l)
			}
			prevWin, prevLoss = w, l
			r := m.PerMille(-s)
			if d := f.Win - r.Loss; d < -1 || d > 1 {
				t.Fatalf("%s: %+v at %d, %+v at %d", name, f, s, r, -s)
			}
		}
		if f := m.PerMille(0); f.Win != f.Loss {
			t.Errorf("%s: an even score forecasts %+v", name, f)
		}
		if e := m.Expected(0); math.Abs(e-0.5) > 1e-12 {
			t.Errorf("%s: an even score expects %g", name, e)
		}
	}
}
