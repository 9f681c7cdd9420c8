package dfpn

import (
	"context"
	"testing"

	"github.com/sower-engine/sower/board"
)

// hardish is a katro-4x6 position that takes df-pn some 40,000 nodes.
const hardish = "1,2,0,2,0,0/0,1,0,1,1,0/1,10,1,2,9,1/1,1,10,0,0,4 N 2"

func hardPosition(t testing.TB) board.Position {
	t.Helper()
	v, err := board.New("katro-4x6")
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParsePosition(hardish)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestNoAllocationPerNode checks that a search of many nodes allocates
// nothing per node: the whole Solve allocates a few times at most.
func TestNoAllocationPerNode(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	p := hardPosition(t)
	s, err := New(Config{HashMiB: 16})
	if err != nil {
		t.Fatal(err)
	}
	var nodes uint64
	allocs := testing.AllocsPerRun(2, func() {
		s.Clear()
		res, err := s.Solve(context.Background(), p, nil, nil)
		if err != nil || res.Outcome != Loss {
			t.Fatalf("%s: %+v, %v; want a loss", hardish, res, err)
		}
		nodes = res.Nodes
	})
	if nodes < 10000 || allocs > 4 {
		t.Errorf("%.0f allocations for %d nodes", allocs, nodes)
	}
}

// BenchmarkSolve measures df-pn's speed on a katro-4x6 position, from an
// empty table each time. The table is emptied with the timer stopped:
// clearing 64 MiB took about a tenth of the time of a proof, which is
// not the search's speed (each search of a campaign or a game goes on
// from the table it has).
func BenchmarkSolve(b *testing.B) {
	p := hardPosition(b)
	s, err := New(Config{HashMiB: 64})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var nodes uint64
	for b.Loop() {
		b.StopTimer()
		s.Clear()
		b.StartTimer()
		res, _ := s.Solve(context.Background(), p, nil, nil)
		nodes += res.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}
