package gui

import (
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestSowingSteps plays random games of every variant and checks that
// the trace of every move ends where the rules do, lap by lap.
func TestSowingSteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	opp := board.DefaultRules()
	opp.CaptureSide = board.CaptureOpponent
	variants := []*board.Variant{}
	for _, name := range board.Names() {
		v, err := board.New(name)
		if err != nil {
			t.Fatal(err)
		}
		variants = append(variants, v)
	}
	h, err := board.NewWithRules(board.NameHoyito3, opp)
	if err != nil {
		t.Fatal(err)
	}
	variants = append(variants, h)
	games := 20
	if testing.Short() {
		games = 4
	}
	for _, v := range variants {
		traced, laps, captures := 0, 0, 0
		for range games {
			g := board.NewGame(v.Start())
			for !g.Status().Over() {
				p := g.Position()
				ms := p.LegalMoves()
				m := ms[rng.IntN(len(ms))]
				if m.IsHole() {
					steps := sowingSteps(p.String(), v, m)
					if steps == nil {
						t.Fatalf("%s: no trace of %s in %s", v.Name(), m, p.String())
					}
					if steps[0].Kind != "lift" || steps[0].Hole != m.String() {
						t.Fatalf("%s: trace of %s starts %+v", v.Name(), m, steps[0])
					}
					traced++
					for _, s := range steps {
						switch s.Kind {
						case "lap":
							laps++
						case "capture":
							captures++
						}
					}
				}
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
			}
		}
		if laps <= traced || captures == 0 {
			t.Errorf("%s: %d moves, %d laps, %d captures: want relay laps and captures", v.Name(), traced, laps, captures)
		}
	}
	if sowingSteps("nonsense", variants[0], board.HoleMove(0, 0)) != nil {
		t.Error("a trace from bad notation")
	}
}
