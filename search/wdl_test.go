package search

import (
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
)

// Which reports are certain and which get the model's forecast. The model
// is so flat (K 10⁻⁵) that its forecast is never near certain, even at
// the largest score short of decisive, so every case tells the two apart.
func TestInfoWDL(t *testing.T) {
	m := eval.WDLModel{K: 1e-5, Band: 50}
	for _, tc := range []struct {
		name string
		info Info
		want eval.WDL
	}{
		{"Katro win", Info{Family: board.Katro, Bound: BoundExact, Score: KatroWin(5), Proven: true}, eval.CertainWin},
		{"Katro loss", Info{Family: board.Katro, Bound: BoundExact, Score: -KatroWin(6), Proven: true}, eval.CertainLoss},
		{"Katro win found mid-iteration", Info{Family: board.Katro, Bound: BoundExact, Score: KatroWin(9)}, eval.CertainWin},
		{"Hoyito III win by exactly 3", Info{Family: board.Hoyito, Bound: BoundExact, Score: HoyitoEnd(3, 4), Proven: true}, eval.CertainWin},
		{"Hoyito III win by at least 3", Info{Family: board.Hoyito, Score: HoyitoEnd(3, 4), Bound: BoundLower}, eval.CertainWin},
		{"Hoyito III loss by at least 1", Info{Family: board.Hoyito, Score: HoyitoEnd(-1, 4), Bound: BoundUpper}, eval.CertainLoss},
		{"a win at most", Info{Family: board.Hoyito, Score: HoyitoEnd(3, 4), Bound: BoundUpper}, m.PerMille(int(DecisiveMin - 1))},
		{"a loss at least", Info{Family: board.Katro, Score: -KatroWin(7), Bound: BoundLower}, m.PerMille(int(-(DecisiveMin - 1)))},
		{"proven draw", Info{Family: board.Hoyito, Bound: BoundExact, Score: 0, Proven: true}, eval.CertainDraw},
		{"even, unproven", Info{Family: board.Hoyito, Bound: BoundExact, Score: 0}, m.PerMille(0)},
		{"a lower bound", Info{Family: board.Katro, Score: 250, Bound: BoundLower}, m.PerMille(250)},
		{"an upper bound", Info{Family: board.Hoyito, Score: -1250, Bound: BoundUpper}, m.PerMille(-1250)},
	} {
		if got := tc.info.WDL(m); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
		if f := m.PerMille(int(DecisiveMin - 1)); f.Win > 600 {
			t.Fatalf("the model is not flat: %+v", f)
		}
	}
}
