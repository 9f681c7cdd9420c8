package search

import (
	"context"
	"strconv"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/tables"
)

// tablesEngine returns an engine with the default 8-seed tables, built in
// a temporary directory.
func tablesEngine(t *testing.T) (*Engine, *tables.Tables, *board.Variant) {
	t.Helper()
	dir := t.TempDir()
	r := board.DefaultRules()
	if err := tables.Build(context.Background(), tables.BuildConfig{Dir: dir, Options: tables.OptionsFor(r), Seeds: 8}); err != nil {
		t.Fatal(err)
	}
	tb, err := tables.Open(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	e, err := NewEngine(MinHashMiB)
	if err != nil {
		t.Fatal(err)
	}
	e.SetTables(tb)
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
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
		if !keeps || res.Info.Score != HoyitoEnd(-40+want.Lo, 0) || res.Info.Depth != 1 {
			t.Errorf("clock %d: move %s score %s depth %d; want a value-keeping move of margin %d at once",
				c.clock, res.Move, res.Info.Score.UCI(board.Hoyito), res.Info.Depth, -40+want.Lo)
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
}
