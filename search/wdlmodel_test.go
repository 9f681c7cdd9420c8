package search

import (
	"context"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
	"github.com/sower-engine/sower/eval/nnue/nnuetest"
)

// TestWDLModel checks that a search reports the win/draw/loss model of
// the evaluation it played with: the linear evaluation's built-in model,
// a network's own when it records one, and the built-in one for a
// network without a model or one not trained for the board.
func TestWDLModel(t *testing.T) {
	own := eval.WDLModel{K: 0.0042, Band: 123}
	for _, tc := range []struct {
		name   string
		game   string
		net    bool
		model  eval.WDLModel
		boards uint8
		want   eval.WDLModel
	}{
		{"linear", board.NameKatro, false, eval.WDLModel{}, 0, eval.BuiltinWDL(board.Katro)},
		{"linear hoyito3", board.NameHoyito3, false, eval.WDLModel{}, 0, eval.BuiltinWDL(board.Hoyito)},
		{"network without a model", board.NameKatro, true, eval.WDLModel{}, 0, eval.BuiltinWDL(board.Katro)},
		{"network with a model", board.NameKatro, true, own, 0, own},
		{"network with a model, hoyito3", board.NameHoyito3, true, own, 0, own},
		{"network not trained for the board", board.NameKatro, true, own, 2, eval.BuiltinWDL(board.Katro)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := board.New(tc.game)
			if err != nil {
				t.Fatal(err)
			}
			e := newSteadyEngine(t)
			if tc.net {
				n := nnuetest.RandomNet(v.Family(), 3)
				n.WDL, n.Boards = tc.model, tc.boards
				if err := e.SetNet(v.Family(), n); err != nil {
					t.Fatal(err)
				}
			}
			if got := NetWDLModel(e.Net(v.Family()), v); got != tc.want {
				t.Errorf("NetWDLModel %+v, want %+v", got, tc.want)
			}
			var infos []Info
			res, err := e.SearchWith(context.Background(), v.Start(), nil, Limits{Depth: 3}, Callbacks{Info: func(i Info) { infos = append(infos, i) }})
			if err != nil {
				t.Fatal(err)
			}
			if len(infos) == 0 {
				t.Fatal("no report")
			}
			for _, i := range append(infos, res.Info) {
				if i.WDLModel != tc.want || i.Model() != tc.want {
					t.Fatalf("a report's model is %+v, want %+v", i.WDLModel, tc.want)
				}
			}
		})
	}
	if got := (&Info{Family: board.Hoyito}).Model(); got != eval.BuiltinWDL(board.Hoyito) {
		t.Errorf("a report without a model: %+v", got)
	}
}
