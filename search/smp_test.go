// Tests of the threads (Lazy SMP) and of the lock-free table. Run them
// under the race detector: go test -race -short ./search.

package search

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

func TestSetThreads(t *testing.T) {
	e := newEngine(t)
	if e.Threads() != DefaultThreads {
		t.Errorf("default threads %d, want %d", e.Threads(), DefaultThreads)
	}
	for _, n := range []int{0, -1, MaxThreads + 1} {
		if err := e.SetThreads(n); err == nil {
			t.Errorf("SetThreads(%d): no error", n)
		}
	}
	if e.Threads() != DefaultThreads {
		t.Errorf("threads %d after refused values", e.Threads())
	}
	if err := e.SetThreads(MaxThreads); err != nil || e.Threads() != MaxThreads {
		t.Errorf("SetThreads(%d): %v, threads %d", MaxThreads, err, e.Threads())
	}
}

// TestThreadsSearch: with four threads every search returns a legal move
// from a completed iteration, its reports are consistent, and it counts
// the helpers' nodes.
func TestThreadsSearch(t *testing.T) {
	depth := 9
	if testing.Short() {
		depth = 6
	}
	for _, rp := range reportPositions(t) {
		e := newEngine(t)
		if err := e.SetThreads(4); err != nil {
			t.Fatal(err)
		}
		res, infos := collect(t, e, rp, Limits{Depth: depth})
		checkLegal(t, rp.pos, res.Move, rp.name+": move")
		if len(infos) == 0 || infos[len(infos)-1].Depth != depth {
			t.Fatalf("%s: reports %+v", rp.name, infos)
		}
		g := board.NewGame(rp.pos)
		if err := g.PlayAll(res.Info.PV); err != nil || res.Info.PV[0] != res.Move {
			t.Errorf("%s: PV %s: %v", rp.name, board.FormatMoves(res.Info.PV), err)
		}
		for i := 1; i < len(infos); i++ {
			if infos[i].Nodes < infos[i-1].Nodes {
				t.Errorf("%s: nodes fall from %d to %d", rp.name, infos[i-1].Nodes, infos[i].Nodes)
			}
		}
		if res.Info.Nodes < infos[len(infos)-1].Nodes {
			t.Errorf("%s: result nodes %d below the last report's %d", rp.name, res.Info.Nodes, infos[len(infos)-1].Nodes)
		}
	}
}

// TestThreadsMultiPVAndStop: helpers with MultiPV and a node limit, and a
// search with threads stopped by its context.
func TestThreadsMultiPVAndStop(t *testing.T) {
	p := startPosition(t, board.NameKatro)
	e := newEngine(t)
	if err := e.SetThreads(3); err != nil {
		t.Fatal(err)
	}
	res := runSearch(t, e, p, nil, Limits{Nodes: 60_000, MultiPV: 3})
	checkLegal(t, p, res.Move, "move")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := e.Search(ctx, p, nil, Limits{Infinite: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkLegal(t, p, res.Move, "stopped move")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("stopped after %v", d)
	}
}

// TestOneThreadDeterministic: after searches with helpers, one thread
// with a cleared table searches exactly as a fresh engine does.
func TestOneThreadDeterministic(t *testing.T) {
	rp := reportPositions(t)[0]
	want, wantInfos := collect(t, newEngine(t), rp, Limits{Depth: 8})
	e := newEngine(t)
	if err := e.SetThreads(2); err != nil {
		t.Fatal(err)
	}
	collect(t, e, rp, Limits{Depth: 8})
	if err := e.SetThreads(1); err != nil {
		t.Fatal(err)
	}
	e.ClearHash()
	got, gotInfos := collect(t, e, rp, Limits{Depth: 8})
	if got.Move != want.Move || got.Info.Nodes != want.Info.Nodes || len(gotInfos) != len(wantInfos) {
		t.Errorf("one thread after two: %s, %d nodes, %d reports; fresh: %s, %d nodes, %d reports",
			got.Move, got.Info.Nodes, len(gotInfos), want.Move, want.Info.Nodes, len(wantInfos))
	}
}

// TestTornEntries: an entry whose words come from two different stores is
// never returned, under either key.
func TestTornEntries(t *testing.T) {
	tt, err := NewTable(1)
	if err != nil {
		t.Fatal(err)
	}
	a, b := uint64(0x1234_5678_9abc_def0), uint64(0x1234_5678_9abc_def1) // the same bucket
	tt.Store(a, board.HoleMove(0, 1), 5, BoundExact, 10, 0, false)
	e := &tt.bucket(a)[0]
	other := pack(Entry{Move: board.HoleMove(1, 2), Depth: 7, Bound: BoundLower, Score: -30})
	e.data = other // b's data word with a's check word
	for _, k := range []uint64{a, b} {
		if got, ok := tt.Probe(k); ok {
			t.Errorf("torn entry returned for %#x: %+v", k, got)
		}
	}
	e.check = b ^ other // now whole: b's entry
	if got, ok := tt.Probe(b); !ok || got.Depth != 7 {
		t.Errorf("whole entry for b: %+v, %v", got, ok)
	}
}

// TestConcurrentTable: threads store and probe the same buckets at once;
// every entry read back is one that was stored for its key. Under the race
// detector this also checks that all access is atomic.
func TestConcurrentTable(t *testing.T) {
	tt, err := NewTable(1)
	if err != nil {
		t.Fatal(err)
	}
	// Keys sharing a few buckets, each with its own depth and score.
	keys := make([]uint64, 64)
	for i := range keys {
		keys[i] = uint64(i%4)<<60 | uint64(i)*0x9e3779b97f4a7c15>>8
	}
	want := func(i int) (int, Score) { return 1 + i%50, Score(i*7 - 200) }
	rounds := 20_000
	if testing.Short() {
		rounds = 2_000
	}
	var wg sync.WaitGroup
	var bad atomic.Int64
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				i := (r*7 + w*13) % len(keys)
				d, sc := want(i)
				tt.Store(keys[i], board.HoleMove(0, i%6), d, BoundExact, sc, 0, false)
				j := (r*11 + w) % len(keys)
				if e, ok := tt.Probe(keys[j]); ok {
					if wd, ws := want(j); e.Depth != wd || e.Score != ws || e.Move != board.HoleMove(0, j%6) {
						bad.Add(1)
					}
				}
			}
		}()
	}
	wg.Wait()
	if n := bad.Load(); n > 0 {
		t.Errorf("%d probes returned an entry not stored for their key", n)
	}
}
