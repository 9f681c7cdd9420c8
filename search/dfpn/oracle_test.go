package dfpn

import (
	"context"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestBestTry checks BestTry on a proven root (its try is proven again
// from an empty table), on an unproven one (the try is legal and no child
// in the table is nearer to proven), where every child is disproven, on a
// new solver and for the side not to move.
func TestBestTry(t *testing.T) {
	ctx := context.Background()
	v, err := board.New(board.NameKatro4x4)
	if err != nil {
		t.Fatal(err)
	}
	start := v.Start()
	s, err := New(Config{HashMiB: 16})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := s.BestTry(&start, board.South); ok {
		t.Error("a new solver gave a try")
	}
	res, err := s.Solve(ctx, start, nil, nil)
	if err != nil || res.Outcome != Win || res.Winner != board.South {
		t.Fatalf("katro-4x4's start: %+v, %v; want South's win", res, err)
	}
	m, pn, ok := s.BestTry(&start, board.South)
	if !ok || pn != 0 {
		t.Fatalf("the proven start's try: %s, pn %d, %v", m, pn, ok)
	}
	q := start
	if !q.Play(m) {
		t.Fatalf("the try %s is not legal", m)
	}
	fresh, err := New(Config{HashMiB: 16})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := fresh.Solve(ctx, q, nil, nil); err != nil || r.Winner != board.South || (r.Outcome != Win && r.Outcome != Loss) {
		t.Errorf("after the try %s: %+v, %v; want South's win", m, r, err)
	}
	if _, _, ok := s.BestTry(&start, board.North); ok {
		t.Error("a try for the side not to move")
	}
	// After the winning move North's win is disproven, and so is each of
	// its replies: no try is left.
	if r, err := s.Prove(ctx, q, nil, board.North, nil); err != nil || r.dn != 0 {
		t.Fatalf("North's win after %s: %+v, %v; want disproven", m, r, err)
	}
	if try, pn, ok := s.BestTry(&q, board.North); ok {
		t.Errorf("North's disproven win after %s: try %s, pn %d", m, try, pn)
	}

	// Unproven: katro-4x6's start after a few thousand nodes.
	w, err := board.New(board.NameKatro4x6)
	if err != nil {
		t.Fatal(err)
	}
	p := w.Start()
	s, err = New(Config{HashMiB: 16, MaxNodes: 20_000})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := s.Prove(ctx, p, nil, board.South, nil); err != nil || r.pn == 0 || r.dn == 0 {
		t.Fatalf("katro-4x6's start settled in 20,000 nodes: %+v, %v", r, err)
	}
	m, pn, ok = s.BestTry(&p, board.South)
	if !ok || pn == 0 {
		t.Fatalf("the unproven start's try: %s, pn %d, %v", m, pn, ok)
	}
	found := false
	for _, c := range p.LegalMoves() {
		q := p
		q.Play(c)
		e, in := s.tt.find(q.Key() ^ salts[board.South])
		if !in {
			continue
		}
		if e.pn < pn {
			t.Errorf("child %s has pn %d, below the try %s's %d", c, e.pn, m, pn)
		}
		if c == m {
			found = e.pn == pn
		}
	}
	if !found {
		t.Errorf("the try %s is not a child in the table with pn %d", m, pn)
	}
}

// TestStoppedRoot checks that a search stopped by its node budget leaves
// the root's numbers in the table as it returned them, with one thread
// and with two: a later question about the root (Numbers) reads what the
// search found, not what the table held before it or nothing; and that a
// search on to the root's disproof leaves the disproof.
func TestStoppedRoot(t *testing.T) {
	p := hardPosition(t)
	for _, threads := range []int{1, 2} {
		s, err := New(Config{HashMiB: 16, Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		b, n, err := s.ProveWithin(context.Background(), p, nil, p.Side(), 5000, nil)
		if err != nil || b.PN == 0 || b.DN == 0 || n < 5000 {
			t.Fatalf("%d threads: %+v after %d nodes, %v; want the root open after 5,000", threads, b, n, err)
		}
		pn, dn, ok := s.Numbers(&p, p.Side())
		if !ok || pn != b.PN || dn != b.DN {
			t.Errorf("%d threads: the table holds pn %d dn %d (%v); the search returned pn %d dn %d", threads, pn, dn, ok, b.PN, b.DN)
		}
		// Searched on to the root's disproof (by either thread when there
		// are two): the table holds the disproof the search returned.
		b, _, err = s.ProveWithin(context.Background(), p, nil, p.Side(), 0, nil)
		if err != nil || b.DN != 0 {
			t.Fatalf("%d threads: %+v, %v; want the root disproven", threads, b, err)
		}
		if pn, dn, ok := s.Numbers(&p, p.Side()); !ok || dn != 0 {
			t.Errorf("%d threads: the disproven root is held at pn %d dn %d (%v)", threads, pn, dn, ok)
		}
	}
}
