package gui

import (
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

// TestTablesPly plays a Hoyito III game inside the tables to its end,
// under both repetition rules: every ply whose position after it the
// tables know exactly is scored with their result (marked exact,
// credited to the tables, no depth), the value the tables' own entry
// gives; the ply that ends the game with the game's final margin (exact,
// credited to the result, no depth); any other ply keeps its own score
// (none, for a person's move).
func TestTablesPly(t *testing.T) {
	dir := TableDir(t)
	s, err := New(Config{Engines: []Engine{{Name: "e", Command: []string{"e"}}}, TablePath: dir, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.closeTables)
	addr := serve(t, s)
	const fen = "1,1,0,0,1,2/0,1,1,0,0,1 N 4 36 42"
	for _, rep := range []board.Repetition{board.RepetitionOff, board.RepetitionThreefold} {
		t.Run(rep.String(), func(t *testing.T) {
			v, tb := openTables(t, dir, rep)
			start, err := v.ParsePosition(fen)
			if err != nil {
				t.Fatal(err)
			}
			// The last legal move at every ply, to the end.
			g := board.NewGame(start)
			var moves []string
			var after []board.Position
			for len(moves) < 400 && !g.Status().Over() {
				pos := g.Position()
				ms := pos.LegalMoves()
				mv := ms[len(ms)-1]
				g.Play(mv)
				moves = append(moves, mv.String())
				after = append(after, g.Position())
			}
			p := open(t, addr)
			p.send(map[string]any{"type": "new", "game": "hoyito3", "south": "human", "north": "human", "fen": fen, "moves": strings.Join(moves, " "), "repetition": rep.String()})
			p.await("the game", func(p *page) bool { return len(p.last.Moves) == len(moves) })
			exact, ended := 0, false
			for i, pm := range p.last.Moves {
				q := after[i]
				var val *tableValue
				if i == len(moves)-1 && g.Status().Over() {
					// The ply that ends the game: its score is the
					// game's final margin, exact, by the result.
					st := g.Status()
					want := 100 * (st.Seeds[board.South] - st.Seeds[board.North])
					if pm.Source != "result" || pm.Eval == nil || pm.Eval.CP == nil || *pm.Eval.CP != want || !pm.Eval.Proven || !pm.Eval.Exact || pm.Depth != 0 {
						t.Fatalf("ply %d %s ends the game %v: score %+v from %q depth %d, want the final margin %d, exact, from the result", i+1, pm.Move, st.Seeds, pm.Eval, pm.Source, pm.Depth, want/100)
					}
					ended = true
					continue
				}
				if pm.Source == "tables" {
					exact++
					if pm.Eval == nil || pm.Eval.CP == nil || !pm.Eval.Proven || !pm.Eval.Exact || pm.Depth != 0 {
						t.Fatalf("ply %d %s: tables' score %+v depth %d, want an exact, proven margin with no depth", i+1, pm.Move, pm.Eval, pm.Depth)
					}
					val = &tableValue{Margin: *pm.Eval.CP / 100, Text: signed(*pm.Eval.CP/100) + " seeds", Words: marginText(*pm.Eval.CP / 100)}
				} else if pm.Eval != nil {
					t.Fatalf("ply %d %s: a person's move scored %+v from %q", i+1, pm.Move, pm.Eval, pm.Source)
				}
				checkValue(t, tb, &q, val)
			}
			if exact == 0 {
				t.Fatalf("no ply of %v scored by the tables", moves)
			}
			if !ended {
				t.Fatalf("the game %v did not end inside the tables", moves)
			}
		})
	}
}
