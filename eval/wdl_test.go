package eval

import (
	"math"
	"strings"
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
		if m.K <= 0 || m.Band < 0 || m.Table.Check() != nil {
			t.Fatalf("%s: model %+v", name, m)
		}
		if !m.Table.Empty() {
			checkTableModel(t, name, m)
			continue
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

// checkTableModel checks a built-in model with a table: every forecast
// adds up to 1000 with no negative share, each within a per mille of its
// chance, and the chances are the table's at its knots and at 0. (A
// table follows what was seen, so it need not rise with the score nor
// mirror itself.)
func checkTableModel(t *testing.T, name string, m WDLModel) {
	t.Helper()
	for s := -20000; s <= 20000; s += 7 {
		f := m.PerMille(s)
		w, d, l := m.Chances(float64(s))
		if f.Win < 0 || f.Draw < 0 || f.Loss < 0 || f.Win+f.Draw+f.Loss != 1000 || d < 0 || math.Abs(w+d+l-1) > 1e-12 ||
			math.Abs(1000*w-float64(f.Win)) >= 1 || math.Abs(1000*l-float64(f.Loss)) >= 1 {
			t.Fatalf("%s at %d: %+v for chances %g %g %g", name, s, f, w, d, l)
		}
	}
	for i := range m.Table.Win {
		w, _, l := m.Chances(float64(KnotScore(i)))
		if KnotScore(i) == 0 {
			w, _, l = m.Chances(1e-9)
		}
		if math.Abs(w-float64(m.Table.Win[i])/WDLUnit) > 1e-6 || math.Abs(l-float64(m.Table.Loss[i])/WDLUnit) > 1e-6 {
			t.Fatalf("%s at knot %d: chances %g, %g", name, KnotScore(i), w, l)
		}
	}
}

// A table's chances by hand: at a knot the knot's, halfway between two
// knots their mean, beyond the span the last knot's, at exactly 0 its
// own; the logistic's K and band change nothing.
func TestWDLTableByHand(t *testing.T) {
	var m WDLModel
	m.K, m.Band = 0.003, 350
	if !m.Table.Empty() {
		t.Fatal("the zero table is not empty")
	}
	for i := range m.Table.Win {
		m.Table.Win[i] = uint16(100 * i)   // 0.01 a knot
		m.Table.Loss[i] = uint16(5000 - i) // 0.5 less a hundredth of a per cent a knot
	}
	m.Table.Win0, m.Table.Loss0 = 600, 700
	last := WDLKnots - 1
	for _, tc := range []struct {
		score     float64
		win, loss float64
		what      string
	}{
		{-WDLSpan, 0, 0.5, "the first knot"},
		{-WDLSpan - 5000, 0, 0.5, "beyond the first knot"},
		{-WDLSpan + WDLStep/2, 0.005, 0.49995, "halfway to the second knot"},
		{WDLSpan, 0.01 * float64(last), 0.5 - 0.0001*float64(last), "the last knot"},
		{WDLSpan + 1, 0.01 * float64(last), 0.5 - 0.0001*float64(last), "beyond the last knot"},
		{0, 0.06, 0.07, "exactly 0"},
		{1, 0.16 + 0.0001, 0.4984 - 0.000001, "just above 0 (knot 16 to 17)"},
		{-250, 0.135, 0.49865, "between knots 13 and 14"},
	} {
		w, d, l := m.Chances(tc.score)
		if math.Abs(w-tc.win) > 1e-9 || math.Abs(l-tc.loss) > 1e-9 || math.Abs(w+d+l-1) > 1e-12 {
			t.Errorf("%s (%g): chances %g %g %g, want win %g loss %g", tc.what, tc.score, w, d, l, tc.win, tc.loss)
		}
	}
	if err := m.Table.Check(); err != nil {
		t.Fatal(err)
	}
	bad := m.Table
	bad.Loss[5] = WDLUnit - bad.Win[5] + 1
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), "-1100") {
		t.Errorf("a knot past a whole: %v", err)
	}
	bad = m.Table
	bad.Win0, bad.Loss0 = WDLUnit, 1
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), "exactly 0") {
		t.Errorf("the chances at 0 past a whole: %v", err)
	}
}
