package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
	"github.com/sower-engine/sower/eval/nnue"
	"github.com/sower-engine/sower/eval/nnue/nnuetest"
)

func netEngine(t testing.TB, game string) *Engine {
	t.Helper()
	e := newSteadyEngine(t)
	v, err := board.New(game)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetNet(v.Family(), nnuetest.RandomNet(v.Family(), 1)); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestNetEvaluate walks trees as the search does, evaluating nodes at
// their ply (only some interior nodes, as a main-search node at depth 1
// is not evaluated), and checks every evaluation against the network's
// from scratch. It walks each tree twice: the second time the scores
// come from the evaluation cache.
func TestNetEvaluate(t *testing.T) {
	for _, game := range board.Names() {
		v, err := board.New(game)
		if err != nil {
			t.Fatal(err)
		}
		s := new(searcher)
		s.root = v.Start()
		net := nnuetest.RandomNet(v.Family(), 2)
		if err := s.useNet(net, 0); err != nil {
			t.Fatal(err)
		}
		m, err := nnue.NewModel(net, v)
		if err != nil {
			t.Fatal(err)
		}
		var rng *rand.Rand
		checked := 0
		var walk func(p board.Position, ply, depth int)
		walk = func(p board.Position, ply, depth int) {
			if depth == 0 || rng.IntN(3) > 0 {
				if got, want := s.evaluate(&p, ply), m.EvaluatePosition(&p); got != want {
					t.Fatalf("%s ply %d %s: %d, from scratch %d", game, ply, p.String(), got, want)
				}
				checked++
			}
			if depth == 0 {
				return
			}
			for _, mv := range p.LegalMoves() {
				kid := p
				kid.Play(mv)
				walk(kid, ply+1, depth-1)
			}
		}
		for range 2 {
			rng = rand.New(rand.NewPCG(3, 4))
			walk(v.Start(), 0, 4)
		}
		if checked < 50 {
			t.Errorf("%s: %d evaluations checked", game, checked)
		}
	}
}

// TestNetSearchDeterministic searches each board's start twice with
// fresh engines and the same network: the node counts, moves and scores
// are the same (the bench signature with a network is reproducible), and
// differ from the linear evaluation's, which shows the network is used.
func TestNetSearchDeterministic(t *testing.T) {
	for _, game := range board.Names() {
		p := startPosition(t, game)
		lim := Limits{Depth: 6}
		var res [2]Result
		for i := range res {
			e := netEngine(t, game)
			var err error
			res[i], err = e.Search(context.Background(), p, nil, lim, nil)
			if err != nil {
				t.Fatal(err)
			}
		}
		a, b := res[0], res[1]
		if a.Move != b.Move || a.Info.Nodes != b.Info.Nodes || a.Info.Score != b.Info.Score {
			t.Errorf("%s: %v %d nodes score %d, then %v %d nodes score %d", game, a.Move, a.Info.Nodes, a.Info.Score, b.Move, b.Info.Nodes, b.Info.Score)
		}
		lin := runSearch(t, newSteadyEngine(t), p, nil, lim)
		if lin.Info.Nodes == a.Info.Nodes && lin.Info.Score == a.Info.Score {
			t.Errorf("%s: the network's search is the linear one's (%d nodes, score %d)", game, a.Info.Nodes, a.Info.Score)
		}
	}
}

// TestNetOtherBoard searches a board the network was not trained for:
// the linear evaluation's search, node for node.
func TestNetOtherBoard(t *testing.T) {
	n := nnuetest.RandomNet(board.Katro, 1)
	n.Boards = 1 // 6x6 only
	e := newSteadyEngine(t)
	if err := e.SetNet(board.Katro, n); err != nil {
		t.Fatal(err)
	}
	p := startPosition(t, board.NameKatro4x4)
	got := runSearch(t, e, p, nil, Limits{Depth: 6})
	want := runSearch(t, newSteadyEngine(t), p, nil, Limits{Depth: 6})
	if got.Info.Nodes != want.Info.Nodes || got.Move != want.Move {
		t.Errorf("katro-4x4 with a 6x6 network: %d nodes %v, linear %d nodes %v", got.Info.Nodes, got.Move, want.Info.Nodes, want.Move)
	}
}

func TestSetNet(t *testing.T) {
	e := newEngine(t)
	if err := e.SetNet(board.Katro, nnuetest.RandomNet(board.Hoyito, 1)); err == nil {
		t.Error("a Hoyito III network set for Katro")
	}
	n := nnuetest.RandomNet(board.Hoyito, 1)
	if err := e.SetNet(board.Hoyito, n); err != nil || e.Net(board.Hoyito) != n || e.Net(board.Katro) != nil {
		t.Errorf("SetNet: %v", err)
	}
	if err := e.SetNet(board.Hoyito, nil); err != nil || e.Net(board.Hoyito) != nil {
		t.Errorf("SetNet nil: %v", err)
	}
}

// TestNetLazy checks the lazy margin: along random games, a position
// whose linear score is beyond the margin is scored by the linear
// evaluation, any other by the network, as from scratch.
func TestNetLazy(t *testing.T) {
	for _, game := range []string{board.NameKatro, board.NameHoyito3} {
		v, err := board.New(game)
		if err != nil {
			t.Fatal(err)
		}
		net := nnuetest.RandomNet(v.Family(), 3)
		m, err := nnue.NewModel(net, v)
		if err != nil {
			t.Fatal(err)
		}
		const margin = 300
		s := new(searcher)
		s.root = v.Start()
		s.ev = eval.New(v)
		if err := s.useNet(net, margin); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(7, 26))
		lin, nets := 0, 0
		for range 20 {
			p := v.Start()
			for ply := 0; ply < 60; ply++ {
				want := s.ev.Evaluate(&p)
				if want >= -margin && want <= margin {
					want = m.EvaluatePosition(&p)
					nets++
				} else {
					lin++
				}
				if got := s.evaluate(&p, ply%4); got != want {
					t.Fatalf("%s %s: %d, want %d", game, p.String(), got, want)
				}
				moves := p.LegalMoves()
				if len(moves) == 0 {
					break
				}
				p.Play(moves[rng.IntN(len(moves))])
			}
		}
		if lin == 0 || nets == 0 {
			t.Errorf("%s: %d positions scored by the linear evaluation, %d by the network", game, lin, nets)
		}
	}
}

func TestSetNetLazy(t *testing.T) {
	e := newEngine(t)
	for _, c := range []struct {
		margin int
		ok     bool
	}{{0, true}, {1200, true}, {MaxNetLazy, true}, {-1, false}, {MaxNetLazy + 1, false}} {
		if err := e.SetNetLazy(c.margin); (err == nil) != c.ok {
			t.Errorf("SetNetLazy(%d): %v", c.margin, err)
		}
	}
}

// TestSkillPlaysLinear checks that a search at a strength level (Skill
// not nil) evaluates with the linear evaluation even when the engine has
// a network: its move, score and nodes are those of an engine without
// one, for the same seed; without a level the network plays.
func TestSkillPlaysLinear(t *testing.T) {
	for _, game := range []string{board.NameKatro, board.NameHoyito3} {
		v, err := board.New(game)
		if err != nil {
			t.Fatal(err)
		}
		root := v.Start()
		run := func(e *Engine, skill *Skill) Result {
			t.Helper()
			e.ClearHash()
			r, err := e.Search(context.Background(), root, nil, Limits{Depth: 6, Skill: skill}, nil)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		withNet, linear := netEngine(t, game), newSteadyEngine(t)
		for _, level := range []int{0, 10, FullSkill - 1} {
			a := run(withNet, &Skill{Level: level, Seed: 7})
			b := run(linear, &Skill{Level: level, Seed: 7})
			if a.Move != b.Move || a.Info.Score != b.Info.Score || a.Info.Nodes != b.Info.Nodes {
				t.Errorf("%s level %d: with a network %v %v %d nodes, linear %v %v %d nodes",
					game, level, a.Move, a.Info.Score, a.Info.Nodes, b.Move, b.Info.Score, b.Info.Nodes)
			}
		}
		// At FullSkill (UCI_LimitStrength's top level) too; without a
		// level the network plays.
		a, b := run(withNet, &Skill{Level: FullSkill, Seed: 7}), run(linear, nil)
		if a.Move != b.Move || a.Info.Score != b.Info.Score || a.Info.Nodes != b.Info.Nodes {
			t.Errorf("%s at FullSkill: with a network %v %v %d nodes, linear %v %v %d nodes",
				game, a.Move, a.Info.Score, a.Info.Nodes, b.Move, b.Info.Score, b.Info.Nodes)
		}
		if full := run(withNet, nil); full.Info.Nodes == b.Info.Nodes && full.Info.Score == b.Info.Score {
			t.Errorf("%s: at full strength the network's search is the linear one (%d nodes)", game, full.Info.Nodes)
		}
	}
}
