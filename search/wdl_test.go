package search

import (
	"context"
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

// Proven is set on the reports of iterations that proved the root's value
// and on no other: the Hoyito III endgames of margins.txt searched to
// their exact margins, a Katro win, a drawn endgame, a game already over;
// and not the start positions searched a few plies deep.
func TestInfoProven(t *testing.T) {
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	rules := v.Rules()
	rules.NoCaptureLimit = 8
	short, err := board.NewWithRules(board.NameHoyito3, rules)
	if err != nil {
		t.Fatal(err)
	}
	small, err := board.New(board.NameKatro4x4)
	if err != nil {
		t.Fatal(err)
	}
	katro, err := board.New(board.NameKatro)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		v      *board.Variant
		fen    string
		lim    Limits
		proven bool
		want   eval.WDL // with the built-in model
	}{
		{short, "2,0,0,0,2,2/2,2,1,1,0,0 S 32 4 5", Limits{Nodes: 100_000}, true, eval.CertainWin},
		{short, "0,3,0,2,1,0/1,3,0,1,1,0 S 12 24 5", Limits{Nodes: 100_000}, true, eval.CertainLoss},
		{short, "0,0,0,0,2,2/2,2,0,0,0,0 S 20 20 6", Limits{Depth: 6}, true, eval.CertainDraw},
		{v, "0,0,0,0,0,0/0,0,0,0,0,0 N 24 24 7", Limits{Depth: 3}, true, eval.CertainDraw},
		{small, "0,0,0,3/1,0,0,0/0,0,0,1/26,0,0,1 S 0", Limits{Depth: 8}, true, eval.CertainWin},
		{v, v.Start().String(), Limits{Depth: 3}, false, eval.WDL{}},
		{katro, katro.Start().String(), Limits{Depth: 3}, false, eval.WDL{}},
	} {
		p, err := tc.v.ParsePosition(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		res, err := newEngine(t).Search(context.Background(), p, nil, tc.lim, nil)
		if err != nil {
			t.Fatal(err)
		}
		i := res.Info
		if i.Proven != tc.proven {
			t.Errorf("%s %s: proven %v, score %s bound %d", tc.v.Name(), tc.fen, i.Proven, i.Score.UCI(i.Family), i.Bound)
		}
		if got := i.WDL(eval.BuiltinWDL(i.Family)); tc.proven && got != tc.want {
			t.Errorf("%s %s: wdl %+v, want %+v", tc.v.Name(), tc.fen, got, tc.want)
		}
	}
}
