package eval

import (
	"testing"

	"github.com/sower-engine/sower/board"
)

// BenchmarkEvaluate measures one evaluation on positions from the middle
// of a game of each family, with the hand-made and the learned
// evaluations:
//
//	go test -run '^$' -bench Evaluate ./eval/
func BenchmarkEvaluate(b *testing.B) {
	for _, c := range []struct{ game, fen string }{
		{board.NameKatro, "4,1,5,0,1,5/1,0,7,3,0,9/0,4,7,3,2,0/0,2,2,1,1,1/0,1,1,3,1,1/1,1,1,1,1,1 N 0"},
		{board.NameHoyito3, "2,6,0,2,1,0/4,4,0,2,2,1 N 16 8 0"},
	} {
		v, _ := board.New(c.game)
		p, err := v.ParsePosition(c.fen)
		if err != nil {
			b.Fatal(err)
		}
		for _, kind := range []string{"hand", "learned"} {
			e := NewWithWeights(v, DefaultWeights(v.Family()))
			if kind == "learned" {
				e = NewLearned(v, new(BuiltinParams(v)))
			}
			b.Run(c.game+"/"+kind, func(b *testing.B) {
				b.ReportAllocs()
				s := 0
				for b.Loop() {
					s += e.Evaluate(&p)
				}
				_ = s
			})
		}
	}
}
