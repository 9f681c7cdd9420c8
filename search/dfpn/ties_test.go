package dfpn

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

// rowSeeds counts s's seeds on p row by row: a count independent of
// Position.SeedsOf.
func rowSeeds(p *board.Position, s board.Side) int {
	n := 0
	for d := range p.Variant().Depth() {
		for _, k := range p.Row(s, d) {
			n += int(k)
		}
	}
	return n
}

// TestPreferByCaptures checks the ties: the attacker's seeds minus the
// defender's, counted row by row; where the attacker moves a child that
// leaves it more seeds goes first, where the defender moves one that
// leaves it fewer, and children of equal seeds keep their move order
// (neither goes before the other). The positions are the children of
// random katro-4x6 positions where some move captures and some does not,
// with each side as the attacker.
func TestPreferByCaptures(t *testing.T) {
	v, err := board.New("katro-4x6")
	if err != nil {
		t.Fatal(err)
	}
	s := newSolver(t, Config{HashMiB: 1})
	rng := rand.New(rand.NewPCG(3, 4))
	mixed := 0
	for tries := 0; tries < 2000 && mixed < 40; tries++ {
		p, ok := lateSample(v, rng, 30)
		if !ok {
			continue
		}
		for _, attacker := range []board.Side{p.Side(), p.Side().Other()} {
			s.setup(context.Background(), p, attacker, nil)
			w := &s.main
			w.setup(nil)
			f := &w.frames[0]
			if !w.expand(&p, f, 0) {
				continue
			}
			attack := p.Side() == attacker
			sawCapture, sawQuiet := false, false
			for i := range f.n {
				a := &f.kids[i]
				seeds := rowSeeds(&a.pos, attacker) - rowSeeds(&a.pos, attacker.Other())
				if a.capture {
					sawCapture = true
				} else {
					sawQuiet = true
				}
				for j := range f.n {
					b := &f.kids[j]
					sb := rowSeeds(&b.pos, attacker) - rowSeeds(&b.pos, attacker.Other())
					want := seeds > sb
					if !attack {
						want = seeds < sb
					}
					if got := w.prefer(a, b, attack); got != want {
						t.Errorf("%s, attacker %s: %s (%d) before %s (%d): %v, want %v", p.String(), attacker, a.move, seeds, b.move, sb, got, want)
					}
				}
			}
			if sawCapture && sawQuiet {
				mixed++
			}
		}
	}
	if mixed < 40 {
		t.Errorf("%d nodes with a capture and a quiet move among their children: want 40", mixed)
	}
}

// TestNewRefuses checks that New refuses a table under 1 MiB and a count
// of threads out of range.
func TestNewRefuses(t *testing.T) {
	for _, cfg := range []Config{{HashMiB: 0}, {HashMiB: 1, Threads: -1}, {HashMiB: 1, Threads: MaxThreads + 1}} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v): no error", cfg)
		}
	}
}
