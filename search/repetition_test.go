package search

import (
	"context"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestRepetitionOption searches one position under both settings of the
// Repetition option, with a history in which its child Y (after a1)
// occurred twice since the last capture. Under threefold, a1 repeats Y a
// third time and ends the game, each side adding its row; under off, Y is
// an ordinary position, a repetition ends nothing and the value is the
// one without any history. The values come from the exact reference
// solver (which reads every game end from board.Status); the search, at
// a depth past the no-capture limit, and the solver must find them, and a
// search of a1 alone at depth 1 must score Y as the game's end under
// threefold only.
func TestRepetitionOption(t *testing.T) {
	for _, c := range []struct {
		rep   board.Repetition
		ended bool // a1 ends the game by repetition
	}{{board.RepetitionThreefold, true}, {board.RepetitionOff, false}} {
		t.Run(c.rep.String(), func(t *testing.T) {
			r := board.DefaultRules()
			r.Repetition, r.NoCaptureLimit = c.rep, 10
			v, err := board.NewWithRules(board.NameHoyito3, r)
			if err != nil {
				t.Fatal(err)
			}
			p, err := v.ParsePosition("2,0,2,1,1,0/1,0,0,1,0,0 S 36 4 2")
			if err != nil {
				t.Fatal(err)
			}
			a1, err := v.ParseMove("a1")
			if err != nil {
				t.Fatal(err)
			}
			y := after(t, p, a1)
			k := y.Key()
			hist := []uint64{k, k}
			twice, ok1 := exactWithin(t, p, hist, 2*mix(k), 1_000_000)
			fresh, ok2 := exactWithin(t, p, nil, 0, 1_000_000)
			if !ok1 || !ok2 {
				t.Fatal("the reference needs too many nodes")
			}
			st := y.Status(with(hist, p.Key()))
			if st.Over() != c.ended || (c.ended && st.Reason != board.ReasonRepeat) {
				t.Fatalf("after a1: status %+v, want a repetition end: %v", st, c.ended)
			}
			switch {
			case c.ended && twice == fresh:
				t.Fatalf("test position: the history does not change the value (%d)", twice)
			case !c.ended && twice != fresh:
				t.Errorf("Repetition off: the reference finds %d with Y twice before and %d without", twice, fresh)
			}

			e, err := NewEngine(1)
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Search(context.Background(), p, hist, Limits{Depth: 40}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Info.Score.Margin(); !res.Info.Score.Decisive() || got != twice {
				t.Errorf("search: %s, want the exact margin %d", res.Info.Score.UCI(board.Hoyito), twice)
			}
			sv, err := Solve(context.Background(), p, SolveConfig{History: hist, HashMiB: 1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if sv.Lo != twice || sv.Hi != twice {
				t.Errorf("solve: [%d, %d], want %d", sv.Lo, sv.Hi, twice)
			}

			// a1 alone at depth 1: the repetition is a game end, scored
			// by the rows; without it Y is searched and evaluated.
			me, them := p.Side(), p.Side().Other()
			rows := HoyitoEnd(y.Captured(me)+y.SeedsOf(me)-y.Captured(them)-y.SeedsOf(them), 1)
			res, err = e.Search(context.Background(), p, hist, Limits{Depth: 1, SearchMoves: []board.Move{a1}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Info.Score == rows; got != c.ended {
				t.Errorf("a1 at depth 1: %s; scored as the repetition end (%s): %v, want %v",
					res.Info.Score.UCI(board.Hoyito), rows.UCI(board.Hoyito), got, c.ended)
			}
		})
	}
}

// TestRepetitionOffSearcher: with Repetition off a third occurrence on
// the path is not a repetition for the search, and the watch over the
// tables' bounds sees none.
func TestRepetitionOffSearcher(t *testing.T) {
	for _, rep := range []board.Repetition{board.RepetitionThreefold, board.RepetitionOff} {
		r := board.DefaultRules()
		r.Repetition = rep
		v, err := board.NewWithRules(board.NameHoyito3, r)
		if err != nil {
			t.Fatal(err)
		}
		e, err := NewEngine(MinHashMiB)
		if err != nil {
			t.Fatal(err)
		}
		root := v.Start()
		const k = 12345
		e.s.reset(context.Background(), e.tt, &root, []uint64{k, 7, k}, Limits{}, Callbacks{})
		e.s.watch.reset(e.s.keys)
		threefold := rep == board.RepetitionThreefold
		if got := e.s.repeated(k); got != threefold {
			t.Errorf("%v: repeated %v, want %v", rep, got, threefold)
		}
		if got := e.s.watch.clean(3); got == threefold {
			t.Errorf("%v: clean %v, want %v", rep, got, !threefold)
		}
	}
}
