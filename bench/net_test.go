package bench

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
	"github.com/sower-engine/sower/search"
)

// TestRunWithNetsDeterministic runs the bench twice with networks of
// random weights for both families (shallow, to be quick): the node
// counts and moves are the same, and differ from the linear evaluation's.
func TestRunWithNetsDeterministic(t *testing.T) {
	var nets []*nnue.Net
	for _, f := range []board.Family{board.Katro, board.Hoyito} {
		rng := rand.New(rand.NewPCG(uint64(f), 3))
		n := nnue.New(f, "random")
		for i := range n.FT {
			n.FT[i] = int16(rng.IntN(301) - 150)
		}
		for i := range n.FTBias {
			n.FTBias[i] = int16(rng.IntN(201) - 20)
		}
		for j := range n.Dense {
			for i := range n.Dense[j] {
				n.Dense[j][i] = int16(rng.IntN(121) - 60)
			}
			n.Out[j] = int16(rng.IntN(1601) - 800)
		}
		nets = append(nets, n)
	}
	run := func(set Settings) ([]CaseResult, Summary) {
		var rs []CaseResult
		sum, err := Run(context.Background(), set, func(r CaseResult) { rs = append(rs, r) })
		if err != nil {
			t.Fatal(err)
		}
		return rs, sum
	}
	withNets := Settings{Depth: 4, Engine: search.DefaultOptions()}
	withNets.Engine.Nets, withNets.Engine.NetLazy = nets, 0
	a, sa := run(withNets)
	b, sb := run(withNets)
	if sa.Nodes != sb.Nodes {
		t.Errorf("bench with networks: %d nodes, then %d", sa.Nodes, sb.Nodes)
	}
	for i := range a {
		if a[i].Move != b[i].Move || a[i].Nodes != b[i].Nodes {
			t.Errorf("position %d: %v %d nodes, then %v %d", i+1, a[i].Move, a[i].Nodes, b[i].Move, b[i].Nodes)
		}
	}
	if _, lin := run(Settings{Depth: 4, Engine: search.DefaultOptions()}); lin.Nodes == sa.Nodes {
		t.Errorf("the bench with networks searched as many nodes as without (%d)", lin.Nodes)
	}
}
