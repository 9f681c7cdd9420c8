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
