package cert_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
)

// slowLongest returns the longest line of c's proof from p, by plain
// recursion over notation strings with the solver's moves: the tests' own
// count, independent of the walker.
func slowLongest(t *testing.T, c proofCase, p board.Position, memo map[string]int) int {
	k := noClock(&p)
	if d, ok := memo[k]; ok {
		return d
	}
	moves := p.LegalMoves()
	if p.Side() == c.winner {
		m, ok := c.solver.oracle(&p)
		if !ok {
			t.Fatalf("no move for %s", k)
		}
		moves = []board.Move{m}
	}
	d := 0
	for _, m := range moves {
		child, err := p.After(m)
		if err != nil {
			t.Fatal(err)
		}
		d = max(d, 1+slowLongest(t, c, child, memo))
	}
	memo[k] = d
	return d
}

// TestBook builds a book of every proved case's certificate (v1 and v2)
// and probes each position along the proof's lines: the winner's move is
// the solver's, the loser's is one whose line is longest, and the distance
// is the tests' own count of the longest line.
func TestBook(t *testing.T) {
	for _, game := range games {
		cases := provedCases(t, game, 12)
		b, err := cert.NewBook(cases[0].root.Variant())
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cases {
			data := c.cert
			if i%2 == 1 {
				data = writeCompact(t, c)
			}
			if err := b.Add(context.Background(), bytes.NewReader(data)); err != nil {
				t.Fatalf("%s: %v", c.root.String(), err)
			}
		}
		probed := 0
		for _, c := range cases {
			memo := map[string]int{}
			// Walk the proof's lines to a few positions deep.
			var walk func(p board.Position, depth int)
			walk = func(p board.Position, depth int) {
				if !p.HasLegalMove() || depth > 12 {
					return
				}
				m, plies, win, ok := b.Probe(&p)
				want := slowLongest(t, c, p, memo)
				if !ok || win != (p.Side() == c.winner) || plies != want {
					t.Fatalf("%s: Probe %s %d win=%v ok=%v, want %d plies, win=%v", p.String(), m, plies, win, ok, want, p.Side() == c.winner)
				}
				probed++
				if win {
					if sm, _ := c.solver.oracle(&p); sm != m {
						// Another case's proof may list p with another move.
						child, _ := p.After(m)
						if _, _, cw, cok := b.Probe(&child); !cok || cw {
							t.Fatalf("%s: the book's %s is not the proof's %s and leads nowhere in the book", p.String(), m, sm)
						}
						return
					}
					child, _ := p.After(m)
					walk(child, depth+1)
					return
				}
				child, _ := p.After(m)
				if got := slowLongest(t, c, child, memo); got != plies-1 {
					t.Fatalf("%s: the loser's %s resists %d plies, the longest %d", p.String(), m, got+1, plies)
				}
				for _, lm := range p.LegalMoves() {
					child, _ := p.After(lm)
					walk(child, depth+1)
				}
			}
			walk(c.root, 0)
		}
		if probed < len(cases) {
			t.Errorf("%s: %d positions probed", game, probed)
		}
		// The start is no proof's position.
		start := cases[0].root.Variant().Start()
		if _, _, _, ok := b.Probe(&start); ok {
			t.Errorf("%s: the start is answered", game)
		}
	}
}

// TestBookClock: under a no-capture limit, a position is answered only at
// a clock from which the proof's capture-free runs stay below the limit.
func TestBookClock(t *testing.T) {
	c := bigCase(t, board.NameKatro4x6, 2) // its longest capture-free run from the root is 2 or more
	const lim = 50
	root := withLimit(t, c.root, lim)
	b, err := cert.NewBook(root.Variant())
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Add(context.Background(), bytes.NewReader(c.cert)); err != nil {
		t.Fatal(err)
	}
	run := c.stats.CaptureFree
	if _, _, _, ok := b.Probe(ptr(atClock(t, root, lim-1-run))); !ok {
		t.Errorf("clock %d, run %d, limit %d: not answered", lim-1-run, run, lim)
	}
	if _, _, _, ok := b.Probe(ptr(atClock(t, root, lim-run))); ok {
		t.Errorf("clock %d, run %d, limit %d: answered", lim-run, run, lim)
	}
}

func ptr(p board.Position) *board.Position { return &p }
