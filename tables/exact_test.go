package tables

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestExactMargin checks ExactMargin on random 8-seed positions against
// the independent solver (brute_test.go) under threefold repetition: known
// exactly when the bounds meet and the no-capture clock leaves time for
// their distances, then the captures' margin plus the bound; under
// Repetition off always, the value at the clock. Positions outside the
// tables and variants of other rules are never known.
func TestExactMargin(t *testing.T) {
	rules := board.DefaultRules()
	tb, v := buildSet(t, rules, 8)
	b8 := bruteLayer(t, v, 8, nil, false)
	offRules := rules
	offRules.Repetition = board.RepetitionOff
	off, err := board.NewWithRules(board.NameHoyito3, offRules)
	if err != nil {
		t.Fatal(err)
	}
	other, err := board.NewWithRules(board.NameHoyito3, board.Rules{CaptureSide: board.CaptureOpponent, NoCaptureLimit: rules.NoCaptureLimit})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(8, 9))
	exact, open := 0, 0
	for i := 0; i < 3000; i++ {
		c := randomBoard(rng, 8)
		side := board.Side(rng.IntN(2))
		clock := rng.IntN(rules.NoCaptureLimit)
		south := 4 * rng.IntN(11)
		f := strings.TrimSuffix(fen(&c, side), " 40 0 0") + fmt.Sprintf(" %d %d %d", south, 40-south, clock)
		p, err := v.ParsePosition(f)
		if err != nil {
			continue // the side to move has no seeds
		}
		bv := b8[keyOf(&p)]
		left := rules.NoCaptureLimit - clock
		want := bv.lo == bv.hi && (bv.dlo <= left || bv.lo == -8) && (bv.dhi <= left || bv.hi == 8)
		cur := p.Captured(side) - p.Captured(side.Other())
		got, ok := tb.ExactMargin(&p)
		if ok != want || (ok && got != cur+bv.lo) {
			t.Fatalf("%s: ExactMargin %d, %v; the solver's bounds %d, %d (distances %d, %d)", f, got, ok, bv.lo, bv.hi, bv.dlo, bv.dhi)
		}
		if ok {
			exact++
		} else {
			open++
		}
		q, err := off.ParsePosition(f)
		if err != nil {
			t.Fatal(err)
		}
		val, _ := tb.Value(&q)
		if got, ok := tb.ExactMargin(&q); !ok || got != cur+val {
			t.Fatalf("%s, Repetition off: ExactMargin %d, %v, want %d", f, got, ok, cur+val)
		}
		if r, err := other.ParsePosition(f); err == nil {
			if _, ok := tb.ExactMargin(&r); ok {
				t.Fatalf("%s: known to tables of other rules", f)
			}
		}
	}
	if exact < 100 || open < 10 {
		t.Errorf("%d positions known exactly, %d not: the test needs both", exact, open)
	}
	p, err := v.ParsePosition("2,2,2,1,1,1/1,1,1,0,0,0 S 20 16 0")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tb.ExactMargin(&p); ok {
		t.Error("a 12-seed position is known to 8-seed tables")
	}
}
