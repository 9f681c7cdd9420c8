package dfpn

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

// lateSample plays a random game of v to its end and returns a position
// from 1 to back plies before the end (false when the game was cut by the
// no-capture limit or ran past 400 plies).
func lateSample(v *board.Variant, rng *rand.Rand, back int) (board.Position, bool) {
	line := []board.Position{v.Start()}
	for len(line) < 400 {
		p := line[len(line)-1]
		ms := p.LegalMoves()
		if len(ms) == 0 {
			k := 1 + rng.IntN(min(back, len(line)-1))
			return line[len(line)-1-k], true
		}
		if lim := v.Rules().NoCaptureLimit; lim > 0 && p.Clock() >= lim {
			return p, false
		}
		p.Play(ms[rng.IntN(len(ms))])
		line = append(line, p)
	}
	return board.Position{}, false
}

// TestAgreesWithBoundedRecursion compares df-pn with the tests' bounded
// recursion on random late positions of every small board: every win
// df-pn proves is a win within its stated plies, and every win the
// recursion finds within its horizon is one df-pn proves, whichever side's
// win df-pn is asked about first.
func TestAgreesWithBoundedRecursion(t *testing.T) {
	count, budget := 1000, uint64(50_000)
	switch {
	case raceEnabled:
		// The race detector slows the solver some tenfold: a sample
		// that shows the threads' races, not the solver's agreement.
		count, budget = 8, 50_000
	case testing.Short():
		// A quick check: the full run's thousand positions a board
		// take minutes with ties broken by the evaluation.
		count = 90
	}
	for _, tc := range configsUnderTest() {
		t.Run(tc.name, func(t *testing.T) {
			n := count
			if tc.cfg != (Config{Threads: 1}) {
				n = max(count/10, 8) // the first of the same positions
			}
			agreeWithBounded(t, tc.cfg, n, budget)
		})
	}
}

// configsUnderTest are the solver's configurations that the agreement and
// certificate tests check: one thread and two.
func configsUnderTest() []struct {
	name string
	cfg  Config
} {
	return []struct {
		name string
		cfg  Config
	}{
		{"threads=1", Config{Threads: 1}},
		{"threads=2", Config{Threads: 2}},
	}
}

// agreeWithBounded is TestAgreesWithBoundedRecursion with a solver of
// configuration cfg on count positions of each board, budget nodes each.
func agreeWithBounded(t *testing.T, cfg Config, count int, budget uint64) {
	const horizon, checked = 7, 11
	// A search of budget nodes fills a small part of 16 MiB; a table
	// larger than the processor's cache made the test wait on memory
	// (69 s with 64 MiB, 48 s with 16, alone on the machine).
	cfg.HashMiB, cfg.MaxNodes = 16, budget
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		back int
	}{{"katro-4x4", 20}, {"katro-6x3", 20}, {"katro-4x6", 14}} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := board.New(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(7, uint64(len(tc.name))))
			b := newBounded(v)
			var tally [4]int
			for n := 0; n < count; {
				p, ok := lateSample(v, rng, tc.back)
				if !ok {
					continue
				}
				n++
				// Every second position asks first for the other side's
				// win: the answer must not depend on the order.
				first := p.Side()
				if n%2 == 0 {
					first = first.Other()
				}
				res, err := s.SolveFirst(context.Background(), p, nil, first, nil)
				if err != nil {
					t.Fatalf("%s: %v", p.String(), err)
				}
				tally[res.Outcome]++
				if res.Outcome == Unknown {
					continue // beyond the budget
				}
				me := p.Side()
				switch res.Outcome {
				case Win, Loss:
					if res.Plies <= checked && !b.winsWithin(p, res.Winner, res.Plies) {
						t.Errorf("%s: df-pn says %s wins within %d plies; the recursion finds no such win", p.String(), res.Winner, res.Plies)
					}
				}
				if d := b.shortest(p, me, horizon); d >= 0 && res.Outcome != Win {
					t.Errorf("%s: %s wins in %d plies; df-pn says %s", p.String(), me, d, res.Outcome)
				}
				if d := b.shortest(p, me.Other(), horizon); d >= 0 && res.Outcome != Loss {
					t.Errorf("%s: %s wins in %d plies; df-pn says %s", p.String(), me.Other(), d, res.Outcome)
				}
				if res.Outcome == Win || res.Outcome == Loss {
					if d := b.shortest(p, res.Winner, horizon); d > res.Plies {
						t.Errorf("%s: df-pn's %d plies are fewer than the shortest win's %d", p.String(), res.Plies, d)
					}
				}
			}
			t.Logf("%d positions: %d wins, %d losses, %d draws, %d unknown", count, tally[Win], tally[Loss], tally[Draw], tally[Unknown])
			if tally[Win] == 0 || tally[Loss] == 0 || tally[Unknown] > count/5 {
				t.Errorf("the sample lacks wins or losses, or too many are beyond the budget: %v", tally)
			}
		})
	}
}
