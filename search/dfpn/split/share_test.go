package split

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// TestNextRecordAgreesWithSolver proves random small positions by
// handing the tree's leaves out three at a time (Next) and recording
// their searches in another order (Record), as a broker's workers would:
// no leaf is handed out twice while out, each answer is the solver's,
// and each proof's certificate checks.
func TestNextRecordAgreesWithSolver(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 46))
	wins, expanded := 0, 0
	for i := range 10 {
		v := variant(t, "katro-4x4")
		p := randomPosition(v, rng, 2*i)
		whole := solver(t)
		want, err := whole.Solve(context.Background(), p, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, attacker := range []board.Side{board.South, board.North} {
			s := solver(t)
			tr, err := New(p, nil, attacker, 60)
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]Leaf{}
			var order []string // the paths out, in the order handed out
			isOut := func(k string) bool { _, ok := out[k]; return ok }
			for steps := 0; !tr.Settled(); steps++ {
				if steps > 100000 {
					t.Fatalf("%s: not settled after %d leaves", p.String(), steps)
				}
				for len(out) < 3 {
					leaf, ok := tr.Next(isOut)
					if !ok {
						break
					}
					k := PathKey(leaf.Path)
					if isOut(k) {
						t.Fatalf("%s: leaf %q handed out twice", p.String(), k)
					}
					out[k] = leaf
					order = append(order, k)
				}
				if len(out) == 0 {
					t.Fatalf("%s: the root is open and no leaf is handed out", p.String())
				}
				// The last handed out first: another order than Step's.
				k := order[len(order)-1]
				order = order[:len(order)-1]
				leaf := out[k]
				delete(out, k)
				b, nodes, err := s.ProveWithin(context.Background(), leaf.Pos, leaf.History, attacker, leaf.Budget, nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := tr.Record(leaf.Path, b, nodes); err != nil && !tr.Settled() {
					// A leaf settled or expanded meanwhile is refused; the
					// tree's other leaves go on.
					if _, err2 := tr.find(leaf.Path); err2 != nil {
						t.Fatalf("%s: a leaf handed out is not in the tree: %v", p.String(), err)
					}
				}
			}
			if tr.root.children != nil {
				expanded++
			}
			wantWin := (want.Outcome == dfpn.Win || want.Outcome == dfpn.Loss) && want.Winner == attacker
			pn, _ := tr.Root()
			if (pn == 0) != wantWin {
				t.Fatalf("%s, %s's win: the tree says proven=%v, the solver %s (winner %s)", p.String(), attacker, pn == 0, want.Outcome, want.Winner)
			}
			if pn == 0 {
				wins++
				checkCertificate(t, tr, s, p, attacker)
			}
		}
	}
	if wins == 0 || expanded == 0 {
		t.Fatalf("%d proofs, %d trees expanded: the test checks too little", wins, expanded)
	}
}

// TestRecordRefuses: a path not in the tree, a leaf no longer open and
// numbers that do not hold are refused, and change nothing.
func TestRecordRefuses(t *testing.T) {
	start := variant(t, "katro-4x4").Start()
	tr, err := New(start, nil, board.South, 100)
	if err != nil {
		t.Fatal(err)
	}
	m := start.LegalMoves()[0]
	if err := tr.Record([]board.Move{m}, dfpnBounds(3, 4), 10); err == nil {
		t.Error("a path below a leaf was recorded")
	}
	if err := tr.Record(nil, dfpnBounds(0, 5), 10); err == nil {
		t.Error("pn 0 with dn 5 was recorded")
	}
	if err := tr.Record(nil, dfpnBounds(0, Infinity), 10); err != nil {
		t.Fatal(err)
	}
	if err := tr.Record(nil, dfpnBounds(Infinity, 0), 10); err == nil {
		t.Error("a settled leaf was recorded again")
	}
	if pn, _ := tr.Root(); pn != 0 || tr.Searched() != 10 {
		t.Errorf("root pn %d, %d nodes: want 0 and 10", pn, tr.Searched())
	}
}

// dfpnBounds returns a search's numbers.
func dfpnBounds(pn, dn uint32) dfpn.Bounds { return dfpn.Bounds{PN: pn, DN: dn} }

// TestNextSpeculatesNot: where the attacker moves, Next hands out the
// best child, and no sibling while the best is out; where the defender
// moves, every child is needed, and a sibling is handed out.
func TestNextSpeculatesNot(t *testing.T) {
	start := variant(t, "katro-4x4").Start()
	for _, attacker := range []board.Side{start.Side(), start.Side().Other()} {
		tr, err := New(start, nil, attacker, 100)
		if err != nil {
			t.Fatal(err)
		}
		none := func(string) bool { return false }
		root, ok := tr.Next(none)
		if !ok || len(root.Path) != 0 {
			t.Fatalf("the first leaf is not the root: %v %v", root.Path, ok)
		}
		if err := tr.Record(nil, dfpnBounds(5, 5), 100); err != nil {
			t.Fatal(err)
		}
		// The root is expanded; each child is handed out once for its
		// first look, out all at once.
		out := map[string]bool{}
		isOut := func(k string) bool { return out[k] }
		var kids []Leaf
		for {
			leaf, ok := tr.Next(isOut)
			if !ok {
				break
			}
			out[PathKey(leaf.Path)] = true
			kids = append(kids, leaf)
		}
		if len(kids) != len(start.LegalMoves()) || len(kids) < 2 {
			t.Fatalf("%d first looks handed out, want one for each of the %d moves", len(kids), len(start.LegalMoves()))
		}
		// The second child is the best: least proof number and least
		// disproof number.
		for i, k := range kids {
			b := dfpnBounds(10, 10)
			if i == 1 {
				b = dfpnBounds(2, 2)
			}
			if err := tr.Record(k.Path, b, 1); err != nil {
				t.Fatal(err)
			}
		}
		clear(out)
		best, ok := tr.Next(isOut)
		if !ok || PathKey(best.Path) != PathKey(kids[1].Path) {
			t.Fatalf("%s's win: Next gives %v, want the best child %v", attacker, best.Path, kids[1].Path)
		}
		out[PathKey(best.Path)] = true
		other, ok := tr.Next(isOut)
		if attacker == start.Side() && ok {
			t.Errorf("%s's win, the attacker to move: a sibling of the best child out was handed out: %v", attacker, other.Path)
		}
		if attacker != start.Side() && !ok {
			t.Errorf("%s's win, the defender to move: no other child handed out while the best is out", attacker)
		}
	}
}
