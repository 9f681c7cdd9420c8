package dfpn

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestEstimateEntries checks the estimate cache's entries: empty until
// written, the numbers read back as written, and another position in the
// same entry replacing them.
func TestEstimateEntries(t *testing.T) {
	var c estimates
	const key = uint64(0x1234_5678_0000_0042)
	if e := c.get(key); e.pn != 0 {
		t.Fatalf("cache off: %+v, want empty", e)
	}
	c.putNumbers(key, 3, 4) // off: ignored
	c.clear()
	if e := c.get(0x42); e.pn != 0 {
		t.Fatalf("a zeroed entry asked for a key whose high bits are 0: %+v, want empty", e)
	}
	for _, n := range [][2]uint32{{3, 4}, {1, maxPN}, {maxPN, 1}} {
		c.putNumbers(key, n[0], n[1])
		if e := c.get(key); e.pn != n[0] || e.dn != n[1] {
			t.Errorf("numbers %d, %d: read back %+v", n[0], n[1], e)
		}
	}
	other := key ^ 1<<40 // the same entry, another position
	if e := c.get(other); e.pn != 0 {
		t.Errorf("another position in the entry: %+v, want empty", e)
	}
	c.putNumbers(other, 7, 8)
	if e := c.get(other); e.pn != 7 || e.dn != 8 {
		t.Errorf("the other position: %+v, want 7, 8", e)
	}
	if e := c.get(key); e.pn != 0 {
		t.Errorf("the first position after being replaced: %+v, want empty", e)
	}
	c.clear()
	if e := c.get(other); e.pn != 0 {
		t.Errorf("after clear: %+v, want empty", e)
	}
}

// TestEstimatesChangeNothing checks that the estimate cache saves work
// and changes nothing else: one thread solving the same positions with
// the cache and without it finds the same results in the same number of
// nodes. The cache is kept from one position to the next (only the table
// is emptied), so that entries written in one search are read in another,
// for the other attacker and with other clocks: on katro-4x4 with a
// no-capture limit of 5 (clocks at the limit, where the estimate depends
// on the clock) and on late katro-4x6 positions under the default rules.
func TestEstimatesChangeNothing(t *testing.T) {
	if raceEnabled && testing.Short() {
		t.Skip("one-thread searches: slow under the race detector, and nothing concurrent")
	}
	count := 60
	if testing.Short() || raceEnabled {
		count = 15
	}
	short, err := board.NewWithRules("katro-4x4", board.Rules{NoCaptureLimit: 5})
	if err != nil {
		t.Fatal(err)
	}
	k46, err := board.New("katro-4x6")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{HashMiB: 4, MaxNodes: 30_000}
	for _, v := range []*board.Variant{short, k46} {
		rng := rand.New(rand.NewPCG(21, 22))
		sample := func() (board.Position, bool) { return lateSample(v, rng, 16) }
		if v.Rules().NoCaptureLimit < 10 {
			sample = func() (board.Position, bool) { return nearLimit(v, rng) }
		}
		var set []board.Position
		for len(set) < count {
			if p, ok := sample(); ok {
				set = append(set, p)
			}
		}
		cached, plain := newSolver(t, cfg), newSolver(t, cfg)
		plain.noEstimates = true
		for i, p := range set {
			cached.tt.clear()
			plain.tt.clear()
			first := p.Side()
			if i%2 == 1 {
				first = first.Other()
			}
			a, errA := cached.SolveFirst(context.Background(), p, nil, first, nil)
			b, errB := plain.SolveFirst(context.Background(), p, nil, first, nil)
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			a.Time, b.Time = 0, 0
			if a != b {
				t.Errorf("%s, %s: with the cache %+v, without %+v", v.Name(), p.String(), a, b)
			}
		}
		if cachedEntries(cached) == 0 {
			t.Errorf("%s: the cache was never written", v.Name())
		}
	}
}

// newSolver returns a one-thread Solver of cfg.
func newSolver(t *testing.T, cfg Config) *Solver {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// cachedEntries counts the main thread's estimate entries in use.
func cachedEntries(s *Solver) uint64 {
	var n uint64
	for _, e := range s.main.cache.e {
		if e.pn != 0 {
			n++
		}
	}
	return n
}

// nearLimit returns a position of a random game of v whose clock is one or
// two plies short of v's no-capture limit, with moves to play (false if
// the game ended first).
func nearLimit(v *board.Variant, rng *rand.Rand) (board.Position, bool) {
	lim := v.Rules().NoCaptureLimit
	p := v.Start()
	for range 200 {
		ms := p.LegalMoves()
		if len(ms) == 0 || p.Clock() >= lim {
			return p, false
		}
		if p.Clock() >= lim-2 && rng.IntN(3) == 0 {
			return p, true
		}
		p.Play(ms[rng.IntN(len(ms))])
	}
	return p, false
}

// TestEstimatesAtTheLimit checks which children's first numbers come from
// the cache: a child below the no-capture limit takes the cached numbers
// (here planted, so that they differ from the lookahead's), a child at the
// limit, whose estimate depends on the clock the key does not cover, is
// estimated again and not cached.
func TestEstimatesAtTheLimit(t *testing.T) {
	const limit = 5
	v, err := board.NewWithRules("katro-4x4", board.Rules{NoCaptureLimit: limit})
	if err != nil {
		t.Fatal(err)
	}
	s := newSolver(t, Config{HashMiB: 1})
	rng := rand.New(rand.NewPCG(5, 6))
	atLimit, below := 0, 0
	for range 2000 {
		p, ok := nearLimit(v, rng)
		if !ok {
			continue
		}
		s.tt.clear()
		s.setup(context.Background(), p, p.Side(), nil)
		w := &s.main
		w.setup(nil)
		f := &w.frames[0]
		if !w.expand(&p, f, 0) {
			continue
		}
		for i := range f.n {
			w.cache.putNumbers(f.kids[i].key, 7777, 8888)
		}
		w.look(f, 0)
		for i := range f.n {
			c := &f.kids[i]
			if c.done {
				continue
			}
			if c.pos.Clock() >= limit {
				atLimit++
				if c.pn != 1 || c.dn != 1 {
					t.Errorf("%s, move %s (clock %d, at the limit): numbers %d, %d, want the limit's 1, 1", p.String(), c.move, c.pos.Clock(), c.pn, c.dn)
				}
				continue
			}
			below++
			if c.pn != 7777 || c.dn != 8888 {
				t.Errorf("%s, move %s (clock %d): numbers %d, %d, want the cached 7777, 8888", p.String(), c.move, c.pos.Clock(), c.pn, c.dn)
			}
		}
	}
	if atLimit < 20 || below < 20 {
		t.Errorf("children at the limit %d, below it %d: want 20 of each at least", atLimit, below)
	}
}
