package search

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/tables"
)

// tablesEngine returns an engine with the default 8-seed tables
// (sharedTables).
func tablesEngine(t *testing.T) (*Engine, *tables.Tables, *board.Variant) {
	t.Helper()
	tb, v := sharedTables(t, board.DefaultRules(), 8)
	e, err := NewEngine(MinHashMiB)
	if err != nil {
		t.Fatal(err)
	}
	e.SetTables(tb)
	return e, tb, v
}

// TestTablesAtTheRoot: an exact root is answered at once with a move that
// keeps the value and the tables' score; with too little of the
// no-capture clock left for the distance the search runs as usual.
func TestTablesAtTheRoot(t *testing.T) {
	e, tb, v := tablesEngine(t)
	for _, c := range []struct {
		clock    int
		shortcut bool
	}{{0, true}, {190, false}} {
		p, err := v.ParsePosition("0,0,1,2,0,1/1,0,2,0,1,0 N 40 0 0")
		if err != nil {
			t.Fatal(err)
		}
		p, _ = v.ParsePosition(p.String()[:len(p.String())-1] + strconv.Itoa(c.clock))
		want, ms, err := tb.Moves(&p)
		if err != nil || !want.Exact() || want.DistLo <= 10 {
			t.Fatalf("test position: %+v, %v (want an exact value with a distance over 10)", want, err)
		}
		res, err := e.Search(context.Background(), p, nil, Limits{Depth: 4}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Info.TBHits == 0 {
			t.Errorf("clock %d: no table hits", c.clock)
		}
		if !c.shortcut {
			if res.Info.Depth < 4 {
				t.Errorf("clock %d: the search stopped at depth %d; the tables' distance %d does not fit the clock", c.clock, res.Info.Depth, want.DistLo)
			}
			continue
		}
		keeps := false
		for _, m := range ms {
			keeps = keeps || (m.Keeps && m.Move == res.Move)
		}
		if !keeps || res.Info.Score != HoyitoEnd(-40+want.Lo, 0) || res.Info.Depth != 1 || !res.Info.Proven {
			t.Errorf("clock %d: move %s score %s depth %d proven %v; want a value-keeping move of margin %d at once, proven",
				c.clock, res.Move, res.Info.Score.UCI(board.Hoyito), res.Info.Depth, res.Info.Proven, -40+want.Lo)
		}
	}
}

// TestTablesMultiPV: with several lines at a root whose value the tables
// give exactly, the lines of the moves that keep it come first, reported
// exact and with table hits, also when there are fewer lines than moves,
// and the search plays one of them. A move
// that the tables only bound by the same margin (d2 here) must not be
// preferred.
func TestTablesMultiPV(t *testing.T) {
	e, tb, v := tablesEngine(t)
	p, err := v.ParsePosition("0,0,1,2,0,1/1,0,2,0,1,0 N 40 0 0")
	if err != nil {
		t.Fatal(err)
	}
	want, ms, err := tb.Moves(&p)
	if err != nil || !want.Exact() {
		t.Fatalf("test position: %+v, %v (want an exact value)", want, err)
	}
	keeps := map[board.Move]bool{}
	for _, m := range ms {
		keeps[m.Move] = m.Keeps
	}
	d2, err := v.ParseMove("d2")
	if err != nil {
		t.Fatal(err)
	}
	if len(keeps) != 3 || keeps[d2] {
		t.Fatalf("test position: moves %+v; want three, d2 not keeping the value", ms)
	}
	// With two lines, fewer than the moves, both are the keeping ones.
	for _, n := range []int{2, 3} {
		last := map[int]Info{}
		e.ClearHash()
		res, err := e.Search(context.Background(), p, nil, Limits{Depth: 30, MultiPV: n}, func(i Info) { last[i.MultiPV] = i })
		if err != nil {
			t.Fatal(err)
		}
		if !keeps[res.Move] {
			t.Errorf("MultiPV %d: bestmove %s does not keep the value", n, res.Move)
		}
		for k := 1; k <= n; k++ {
			i := last[k]
			if len(i.PV) == 0 {
				t.Fatalf("MultiPV %d, line %d: no report", n, k)
			}
			if i.TBHits == 0 {
				t.Errorf("MultiPV %d, line %d: no table hits reported", n, k)
			}
			if k <= 2 && (!keeps[i.PV[0]] || i.Bound != BoundExact || !i.Proven) {
				t.Errorf("MultiPV %d, line %d: %s bound %v proven %v; want a value-keeping move, exact and proven", n, k, i.PV[0], i.Bound, i.Proven)
			}
		}
	}
}

// TestTablesInTheTree: a 12-seed position searched with the 8-seed tables
// probes them below its captures; an engine without tables counts no hits.
func TestTablesInTheTree(t *testing.T) {
	e, _, v := tablesEngine(t)
	p, err := v.ParsePosition("1,0,2,0,1,0/0,0,1,2,0,5 S 36 0 0")
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Search(context.Background(), p, nil, Limits{Depth: 6}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Info.TBHits == 0 {
		t.Fatalf("no table hits in %+v", res.Info)
	}
	plain, err := NewEngine(MinHashMiB)
	if err != nil {
		t.Fatal(err)
	}
	res0, err := plain.Search(context.Background(), p, nil, Limits{Depth: 6}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res0.Info.TBHits != 0 {
		t.Fatalf("an engine without tables reports %d table hits", res0.Info.TBHits)
	}

	// With helper threads the count is every thread's.
	if err := e.SetThreads(3); err != nil {
		t.Fatal(err)
	}
	e.ClearHash()
	res, err = e.Search(context.Background(), p, nil, Limits{Depth: 8}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum, helped := e.s.tbHits, false
	for _, h := range e.helpers {
		sum += h.tbHits
		helped = helped || h.tbHits > 0
	}
	if !helped || res.Info.TBHits != sum {
		t.Errorf("3 threads: %d table hits reported, the threads made %d (main %d); helpers probed: %v",
			res.Info.TBHits, sum, e.s.tbHits, helped)
	}
}

// TestTablesAfterARepetition: a position that occurred twice since the
// last capture could occur a third time along the play that forces the
// tables' value, and end the game before it; the root is then searched,
// not answered from the tables. A second occurrence before the last
// capture (outside the clock's stretch) does not matter, nor one under
// Repetition off.
func TestTablesAfterARepetition(t *testing.T) {
	e, _, v := tablesEngine(t)
	off := v.Rules()
	off.Repetition = board.RepetitionOff
	vOff, err := v.WithRules(off)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		v        *board.Variant
		history  []uint64
		shortcut bool
	}{
		{"no repetition", v, []uint64{11, 22, 33, 44, 55}, true},
		{"twice since the capture", v, []uint64{11, 22, 33, 44, 33}, false},
		{"twice before the capture", v, []uint64{11, 11, 22, 44, 55}, true},
		// Without repetition nothing can end the forcing play early.
		{"twice since the capture, Repetition off", vOff, []uint64{11, 22, 33, 44, 33}, true},
	} {
		p, err := c.v.ParsePosition("0,0,1,2,0,1/1,0,2,0,1,0 N 40 0 3")
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Search(context.Background(), p, c.history, Limits{Depth: 3}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Info.Depth == 1; got != c.shortcut {
			t.Errorf("%s: answered at depth %d, want the tables' answer at once: %v", c.name, res.Info.Depth, c.shortcut)
		}
	}
}

// TestRepeatWatch follows second occurrences along a path, stretch by
// stretch.
func TestRepeatWatch(t *testing.T) {
	var w repeatWatch
	keys := []uint64{1, 2, 1, 3}
	w.reset(keys)
	if w.clean(2) || !w.clean(1) {
		t.Errorf("history %v: clean(2) %v clean(1) %v, want false, true", keys, w.clean(2), w.clean(1))
	}
	// A new stretch after a capture: keys 4, 5 (clocks 0, 1), then 4 again.
	for i, k := range []uint64{4, 5} {
		w.push(keys, k, i, true)
		keys = append(keys, k)
	}
	if !w.clean(2) {
		t.Error("the new stretch 4, 5 is not clean")
	}
	w.push(keys, 4, 2, true)
	keys = append(keys, 4)
	if w.clean(3) {
		t.Error("4, 5, 4: not seen as a second occurrence")
	}
	w.pop()
	keys = keys[:len(keys)-1]
	if !w.clean(2) {
		t.Error("after pop: not clean")
	}
	// A key equal to one before the stretch is not a second occurrence
	// (the clock bounds the scan), nor one the filter rules out.
	w.push(keys, 3, 2, true)
	keys = append(keys, 3)
	w.push(keys, 5, 3, false)
	if !w.clean(4) {
		t.Error("keys outside the stretch or ruled out by the filter counted")
	}
}

// TestTBHitsOnePerProbe: a node of the search probes the tables once and
// counts one hit when they hold its position (none when they do not),
// under Repetition off, and under threefold with and without the estimate,
// including the nodes whose bounds leave the result open, where the
// estimate is used.
func TestTBHitsOnePerProbe(t *testing.T) {
	off := board.DefaultRules()
	off.Repetition = board.RepetitionOff
	for _, c := range []struct {
		name     string
		rules    board.Rules
		estimate bool
	}{{"repetition off", off, true}, {"threefold", board.DefaultRules(), true}, {"threefold without estimate", board.DefaultRules(), false}} {
		t.Run(c.name, func(t *testing.T) {
			tb, v := sharedTables(t, c.rules, 8)
			e, err := NewEngine(MinHashMiB)
			if err != nil {
				t.Fatal(err)
			}
			e.SetTables(tb)
			e.SetTableEstimate(c.estimate)
			rng := rand.New(rand.NewPCG(8, 1))
			root := randomTablePosition(t, rng, v, 8)
			s := e.s
			s.reset(context.Background(), e.tt, &root, nil, Limits{Depth: 1}, Callbacks{})
			s.useTables(e.tablesFor(v), c.estimate)
			open := 0
			for i := 0; i < 2000; i++ {
				n := 8 + 4*rng.IntN(2) // 12 seeds: not in the tables
				p := randomTablePosition(t, rng, v, n)
				// Close capture totals, so that results are open.
				f := p.String()
				p, err = v.ParsePosition(f[:strings.Index(f, " ")+3] + map[int]string{8: "20 20 0", 12: "16 20 0"}[n])
				if err != nil {
					t.Fatal(err)
				}
				en, in := tb.Probe(&p)
				want := uint64(0)
				if in {
					want = 1
					me := p.Side()
					if cur := p.Captured(me) - p.Captured(me.Other()); en.Lo != en.Hi && cur+en.Lo <= 0 && cur+en.Hi >= 0 {
						open++ // the result is open: the estimate's nodes
					}
				}
				before := s.tbHits
				s.probeNode(&p, 1, -Infinity, Infinity)
				if got := s.tbHits - before; got != want {
					t.Fatalf("%s: %d hits counted, want %d", &p, got, want)
				}
			}
			if open == 0 {
				t.Fatal("no position whose bounds leave the result open: the sample misses the estimate")
			}
			t.Logf("%d positions with the result open", open)
		})
	}
}
