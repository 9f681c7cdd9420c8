package tables

import (
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestVerdicts checks each move's verdict against its child position,
// looked up on its own in final margins (captures and board together), and
// the order against the position's own entry, under both repetition rules.
func TestVerdicts(t *testing.T) {
	for _, c := range []struct {
		name string
		rep  board.Repetition
	}{{"off", board.RepetitionOff}, {"threefold", board.RepetitionThreefold}} {
		t.Run(c.name, func(t *testing.T) {
			r := board.DefaultRules()
			r.Repetition = c.rep
			tb, v := buildSet(t, r, 8)
			rng := rand.New(rand.NewPCG(24, uint64(c.rep)))
			for i := 0; i < 2000; i++ {
				cells := randomBoard(rng, 8)
				p := position(t, v, &cells, board.Side(rng.IntN(2)))
				vs, err := tb.Verdicts(&p)
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				checkVerdicts(t, tb, &p, vs)
			}
		})
	}
}

// checkVerdicts checks the verdicts of p's moves.
func checkVerdicts(t *testing.T, tb *Tables, p *board.Position, vs []Verdict) {
	t.Helper()
	legal := p.LegalMoves()
	if len(vs) != len(legal) {
		t.Fatalf("%s: %d verdicts for %d legal moves", p, len(vs), len(legal))
	}
	seen := map[board.Move]bool{}
	for _, v := range vs {
		seen[v.Move] = true
		c := *p
		c.Play(v.Move)
		final, ok := finalMargin(tb, &c)
		switch {
		case !ok: // the game ends at once: Moves scores it by the rules
		case c.Side() == p.Side() && v.Margin != final:
			t.Fatalf("%s %s (a capture): margin %d, the child's final margin is %d", p, v.Move, v.Margin, final)
		case c.Side() != p.Side() && v.Margin != -final:
			t.Fatalf("%s %s: margin %d, the child's final margin is %d for the opponent", p, v.Move, v.Margin, final)
		}
		if v.Lo > v.Margin || v.Margin > v.Hi {
			t.Fatalf("%s %s: margin %d outside the bounds [%d, %d]", p, v.Move, v.Margin, v.Lo, v.Hi)
		}
	}
	if len(seen) != len(legal) {
		t.Fatalf("%s: verdicts name %d distinct moves of %d", p, len(seen), len(legal))
	}
	e, _ := tb.Probe(p)
	cur := CaptureMargin(p)
	if p.Variant().Rules().Repetition == board.RepetitionOff {
		value, _ := tb.Value(p)
		if vs[0].Margin != cur+value || !vs[0].Best || !vs[0].Exact {
			t.Fatalf("%s: first verdict %+v, the position's final margin is %d", p, vs[0], cur+value)
		}
		for i, v := range vs {
			if v.Best != (v.Margin == vs[0].Margin) || (i > 0 && v.Margin > vs[i-1].Margin) {
				t.Fatalf("%s: verdicts out of order or best marked wrong: %+v", p, vs)
			}
		}
		return
	}
	if vs[0].Lo != cur+e.Lo || !vs[0].Best {
		t.Fatalf("%s: first verdict %+v, the position's bounds are [%d, %d]", p, vs[0], cur+e.Lo, cur+e.Hi)
	}
	for i, v := range vs {
		if v.Exact != (v.Lo == v.Hi) || (i > 0 && v.Best && !vs[i-1].Best) || (i > 0 && v.Best == vs[i-1].Best && v.Lo > vs[i-1].Lo) {
			t.Fatalf("%s: verdicts out of order or exactness wrong: %+v", p, vs)
		}
	}
}

// finalMargin returns the exact final margin of p under Repetition off for
// its side to move, and false when p is not in the tables (no seeds left,
// or above them).
func finalMargin(tb *Tables, p *board.Position) (int, bool) {
	v, ok := tb.Value(p)
	return CaptureMargin(p) + v, ok
}
