package dfpn

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestLookaheadAtTheClockLimit checks the lookahead's first estimates
// (which decide a child won in one ply without its own search) where the
// no-capture limit is near: on katro-4x4 with a limit of 5 plies,
// positions of random games with clocks up to the limit are solved, and
// the answers must agree with the tests' bounded recursion.
func TestLookaheadAtTheClockLimit(t *testing.T) {
	const limit = 5 // plies without a capture: short, so that draws are common
	v, err := board.NewWithRules("katro-4x4", board.Rules{NoCaptureLimit: limit})
	if err != nil {
		t.Fatal(err)
	}
	count := 300
	if testing.Short() || raceEnabled {
		count = 60
	}
	const horizon, checked = 7, 11

	s, err := New(Config{HashMiB: 4, MaxNodes: 50_000})
	if err != nil {
		t.Fatal(err)
	}
	b := newBounded(v)
	rng := rand.New(rand.NewPCG(11, 12))
	near, decided := 0, 0
	var tally [4]int
	for n := 0; n < count; {
		// A random game's position, taken, often, when its clock is
		// near the limit.
		p := v.Start()
		for ply := 0; ply < 200; ply++ {
			ms := p.LegalMoves()
			if len(ms) == 0 || p.Clock() >= limit {
				break
			}
			if ply > 6 && ((p.Clock() >= limit-2 && rng.IntN(2) == 0) || rng.IntN(20) == 0) {
				break
			}
			p.Play(ms[rng.IntN(len(ms))])
		}
		if p.Clock() >= limit || len(p.LegalMoves()) == 0 {
			continue
		}
		n++
		if p.Clock() >= limit-2 {
			near++
		}
		s.Clear()
		first := p.Side()
		if n%2 == 0 {
			first = first.Other()
		}
		res, err := s.SolveFirst(context.Background(), p, nil, first, nil)
		if err != nil {
			t.Fatal(err)
		}
		tally[res.Outcome]++
		if res.Outcome == Unknown {
			continue
		}
		decided++
		if (res.Outcome == Win || res.Outcome == Loss) && res.Plies <= checked && !b.winsWithin(p, res.Winner, res.Plies) {
			t.Errorf("%s: %s wins within %d plies, says df-pn; the recursion finds no such win", p.String(), res.Winner, res.Plies)
		}
		for _, side := range []board.Side{board.South, board.North} {
			want := Win
			if side != p.Side() {
				want = Loss
			}
			if d := b.shortest(p, side, horizon); d >= 0 && res.Outcome != want {
				t.Errorf("%s: %s wins in %d plies; df-pn says %s", p.String(), side, d, res.Outcome)
			}
		}
	}
	t.Logf("%d positions (%d with a clock of limit-2 or more): %d wins, %d losses, %d draws, %d unknown",
		count, near, tally[Win], tally[Loss], tally[Draw], tally[Unknown])
	if decided < count*9/10 {
		t.Errorf("too few answers: %d of %d", decided, count)
	}
}
