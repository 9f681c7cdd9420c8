package split

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
	"github.com/sower-engine/sower/search/dfpn"
)

// variant returns a Katro board by name.
func variant(t testing.TB, name string) *board.Variant {
	t.Helper()
	v, err := board.New(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// solver returns a small df-pn solver for the tests.
func solver(t testing.TB) *dfpn.Solver {
	t.Helper()
	s, err := dfpn.New(dfpn.Config{HashMiB: 16})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// randomPosition plays up to plies random moves from v's start, stopping
// before the game ends.
func randomPosition(v *board.Variant, rng *rand.Rand, plies int) board.Position {
	p := v.Start()
	for range plies {
		moves := p.LegalMoves()
		if len(moves) == 0 {
			break
		}
		c := p
		c.Play(moves[rng.IntN(len(moves))])
		if len(c.LegalMoves()) == 0 {
			break
		}
		p = c
	}
	return p
}

// grow steps t until its root is settled, failing after limit steps, and
// returns the steps taken.
func grow(t *testing.T, tr *Tree, s *dfpn.Solver, limit int) int {
	t.Helper()
	e, err := tr.Run(context.Background(), s, RunConfig{Steps: limit})
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Settled() {
		t.Fatalf("not settled after %d steps: root pn %d dn %d, %d positions", limit, tr.root.pn, tr.root.dn, tr.size)
	}
	return e.Steps
}

// TestSplitAgreesWithSolver proves random positions of small boards by
// the tree, with leaf budgets small enough that most of each proof is
// made of expanded nodes, and compares each answer with the solver's
// search of the whole position; every proof's certificate, its moves
// taken from the tree first, must pass the rules-only checker.
func TestSplitAgreesWithSolver(t *testing.T) {
	cases := []struct {
		game   string
		plies  int
		count  int
		budget uint64
	}{
		{"katro-4x4", 0, 1, 200},
		{"katro-4x4", 6, 12, 50},
		{"katro-6x3", 4, 12, 50},
		{"katro-4x6", 30, 4, 400},
		// Children searched within an eighth of the budget, then the
		// chosen one with the whole of it.
		{"katro-4x6", 26, 3, 4096},
	}
	if testing.Short() {
		cases = cases[:3]
	}
	rng := rand.New(rand.NewPCG(5, 23))
	wins, expanded := 0, 0
	for _, tc := range cases {
		v := variant(t, tc.game)
		for i := 0; i < tc.count; i++ {
			p := randomPosition(v, rng, tc.plies)
			whole := solver(t)
			want, err := whole.Solve(context.Background(), p, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, attacker := range []board.Side{board.South, board.North} {
				s := solver(t)
				tr, err := New(p, nil, attacker, tc.budget)
				if err != nil {
					t.Fatal(err)
				}
				grow(t, tr, s, 100000)
				if tr.root.children != nil {
					expanded++
				}
				wantWin := (want.Outcome == dfpn.Win || want.Outcome == dfpn.Loss) && want.Winner == attacker
				pn, _ := tr.Root()
				if (pn == 0) != wantWin {
					t.Fatalf("%s %s, %s's win: the tree says proven=%v, the solver %s (winner %s)", tc.game, p.String(), attacker, pn == 0, want.Outcome, want.Winner)
				}
				if pn != 0 {
					continue
				}
				wins++
				checkCertificate(t, tr, s, p, attacker)
			}
		}
	}
	if wins == 0 || expanded == 0 {
		t.Fatalf("%d proofs, %d trees expanded: the test checks too little", wins, expanded)
	}
	t.Logf("%d proofs checked, %d trees expanded", wins, expanded)
}

// checkCertificate writes the certificate of the tree's proof and checks
// it with the rules alone.
func checkCertificate(t *testing.T, tr *Tree, s *dfpn.Solver, p board.Position, attacker board.Side) {
	t.Helper()
	fromTree := 0
	both := tr.Oracle(context.Background(), s)
	oracle := func(q *board.Position) (board.Move, bool) {
		if _, ok := tr.WinningMove(q); ok {
			fromTree++
		}
		return both(q)
	}
	var buf bytes.Buffer
	if _, err := cert.Write(context.Background(), &buf, p, attacker, oracle, cert.Options{}); err != nil {
		t.Fatalf("%s, %s's win: writing the certificate: %v", p.String(), attacker, err)
	}
	st, err := cert.Verify(context.Background(), &buf, p, cert.Options{})
	if err != nil {
		t.Fatalf("%s, %s's win: the certificate is refused: %v", p.String(), attacker, err)
	}
	if st.Winner != attacker {
		t.Fatalf("%s: the certificate proves %s's win, want %s's", p.String(), st.Winner, attacker)
	}
	if p.Side() == attacker && tr.root.children != nil && fromTree == 0 {
		t.Fatalf("%s: the tree's root is expanded and proven, but no move came from the tree", p.String())
	}
}

// provenStart returns the tree of South's proven win at katro-4x4's
// start, leaves of 100 nodes, grown with s: an expanded tree.
func provenStart(t *testing.T, s *dfpn.Solver) (*Tree, board.Position) {
	t.Helper()
	start := variant(t, "katro-4x4").Start()
	tr, err := New(start, nil, board.South, 100)
	if err != nil {
		t.Fatal(err)
	}
	grow(t, tr, s, 100000)
	if pn, _ := tr.Root(); pn != 0 || tr.root.children == nil {
		t.Fatalf("katro-4x4's start: want South's win proven by an expanded tree, root pn %d", pn)
	}
	return tr, start
}

// TestSplitPliesBoundTheProof checks the tree's proof length against the
// certificate's longest line: following the tree's shortest proven
// children and the leaves' proofs, no line is longer than the tree says.
func TestSplitPliesBoundTheProof(t *testing.T) {
	s := solver(t)
	tr, start := provenStart(t, s)
	var buf bytes.Buffer
	st, err := cert.Write(context.Background(), &buf, start, board.South, tr.Oracle(context.Background(), s), cert.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Longest > tr.Plies() {
		t.Fatalf("the certificate's longest line has %d plies, the tree says at most %d", st.Longest, tr.Plies())
	}
}

// TestCertificateAfterTheTableIsLost: with the solver's table emptied
// after the proof, the certificate is still written (every leaf proven
// again, with no leaf budget left on the solver) and checks.
func TestCertificateAfterTheTableIsLost(t *testing.T) {
	s := solver(t)
	tr, start := provenStart(t, s)
	s.Clear()
	checkCertificate(t, tr, s, start, board.South)
}

// TestStepBudgets: a leaf is searched until its searches reach the leaf
// budget, then expanded, its children each searched within an eighth of
// it (the search checks its budget every 256 nodes, hence the margin).
func TestStepBudgets(t *testing.T) {
	const budget = 4096
	v := variant(t, "katro")
	s := solver(t)
	tr, err := New(v.Start(), nil, board.South, budget)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[bool]int{}
	for i := range 10 {
		st, err := tr.Step(context.Background(), s, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Settled() {
			t.Fatalf("katro's start settled after %d steps", i+1)
		}
		kinds[st.Expanded]++
		leaf := tr.root
		for _, m := range st.Path {
			for _, c := range leaf.children {
				if c.move == m {
					leaf = c
				}
			}
		}
		before := leaf.searched
		if !st.Expanded {
			before -= st.Nodes
		}
		if (before >= budget) != st.Expanded || leaf.searched < budget {
			t.Fatalf("step %d: expanded %v a leaf searched %d nodes before (now %d), budget %d", i+1, st.Expanded, before, leaf.searched, budget)
		}
		for _, c := range leaf.children {
			if st.Expanded && c.searched > budget/lookShare+256 {
				t.Fatalf("step %d: a new child searched %d nodes, want at most %d", i+1, c.searched, budget/lookShare+256)
			}
		}
	}
	if kinds[true] == 0 || kinds[false] < 2 {
		t.Fatalf("%d leaves expanded, %d searched: want both, a leaf searched again after an expansion", kinds[true], kinds[false])
	}
}

// TestStepOnSettledTree: a settled tree refuses another step.
func TestStepOnSettledTree(t *testing.T) {
	v := variant(t, "katro-6x3")
	s := solver(t)
	tr, err := New(v.Start(), nil, board.South, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	grow(t, tr, s, 10)
	if _, err := tr.Step(context.Background(), s, nil); err == nil {
		t.Fatal("a step on a settled tree: no error")
	}
}

// TestStepCancelled: a step cancelled while it searches (a leaf, or the
// second child of an expansion) leaves the tree as it was.
func TestStepCancelled(t *testing.T) {
	v := variant(t, "katro")
	s := solver(t)
	tr, err := New(v.Start(), nil, board.South, 4096)
	if err != nil {
		t.Fatal(err)
	}
	saved := func() string {
		var b bytes.Buffer
		if err := tr.Save(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	kinds := map[bool]int{}
	for step := 0; step < 8; step++ {
		before := saved()
		ctx, cancel := context.WithCancel(context.Background())
		reports := 0
		// The report at the end of each search: cancel after the first
		// child's, or at once for a leaf's search.
		leaf, _ := tr.mostProving()
		expanding := leaf.searched >= tr.leafNodes
		_, err := tr.Step(ctx, s, func(dfpn.Progress) {
			reports++
			if !expanding || reports == 1 {
				cancel()
			}
		})
		if err == nil {
			t.Fatalf("step %d: cancelled, but no error", step+1)
		}
		if after := saved(); after != before {
			t.Fatalf("step %d: a cancelled step changed the tree:\n%s\nbecame\n%s", step+1, before, after)
		}
		kinds[expanding]++
		cancel()
		if _, err := tr.Step(context.Background(), s, nil); err != nil {
			t.Fatal(err)
		}
	}
	if kinds[true] == 0 || kinds[false] == 0 {
		t.Fatalf("cancelled %d expansions and %d leaf searches: want both", kinds[true], kinds[false])
	}
}

// TestRepeatedChild: a child whose position the game's history holds is
// a disproof that rests on the path, as df-pn counts a repetition.
func TestRepeatedChild(t *testing.T) {
	v := variant(t, "katro-4x4")
	root := v.Start()
	after := root
	after.Play(root.LegalMoves()[0])
	tr, err := New(root, []uint64{after.Key()}, board.South, 64)
	if err != nil {
		t.Fatal(err)
	}
	s := solver(t)
	for range 2 { // the root's search, then its expansion
		if _, err := tr.Step(context.Background(), s, nil); err != nil {
			t.Fatal(err)
		}
	}
	if tr.root.children == nil {
		t.Fatal("the root is not expanded after two steps")
	}
	c := tr.root.children[0]
	if c.pn != Infinity || c.dn != 0 || !c.onPath || c.searched != 0 {
		t.Fatalf("the repeated child: pn %d dn %d onPath %v, %d nodes searched; want a disproof on the path, unsearched", c.pn, c.dn, c.onPath, c.searched)
	}
	for _, o := range tr.root.children[1:] {
		if o.onPath {
			t.Fatalf("%s is marked as resting on the path", o.move)
		}
	}
}

// TestNewRefuses: Hoyito III and a zero budget.
func TestNewRefuses(t *testing.T) {
	h := variant(t, "hoyito3")
	if _, err := New(h.Start(), nil, board.South, 100); err == nil {
		t.Error("a Hoyito III root: no error")
	}
	k := variant(t, "katro-4x4")
	if _, err := New(k.Start(), nil, board.South, 0); err == nil {
		t.Error("a zero leaf budget: no error")
	}
}
