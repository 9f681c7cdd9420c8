package search

import (
	"context"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestSolveKatro6x3 proves the small Katro board's value (a win for
// South, as the independent full search of the search tests agrees) and
// checks that the proof's line is legal.
func TestSolveKatro6x3(t *testing.T) {
	v, err := board.New(board.NameKatro6x3)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Solve(context.Background(), v.Start(), SolveConfig{HashMiB: 8}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Lo != res.Hi {
		t.Fatalf("not solved: %+v", res)
	}
	p := v.Start()
	for _, m := range res.PV {
		if err := p.CheckMove(m); err != nil {
			t.Fatalf("pv %v: %v", res.PV, err)
		}
		p.Play(m)
	}
	if res.Lo != 1 {
		t.Fatalf("katro-6x3 solves to %d, want a win (1) for South", res.Lo)
	}
}

// TestSolveAgreesWithTables: on 8-seed positions whose table value is
// exact and fits the clock, the solver without tables proves the same
// value as the tables, and the solver with tables answers at once.
func TestSolveAgreesWithTables(t *testing.T) {
	_, tb, v := tablesEngine(t)
	for _, fen := range []string{
		"0,0,1,2,0,1/1,0,2,0,1,0 N 40 0 0",
		"0,0,0,0,0,4/0,0,0,0,4,0 S 40 0 0",
		"0,1,0,0,3,0/1,0,1,0,2,0 S 20 20 0",
	} {
		p, err := v.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		e, ok := tb.Probe(&p)
		if !ok {
			t.Fatalf("%s: not in the tables", fen)
		}
		me := p.Side()
		cur := p.Captured(me) - p.Captured(me.Other())
		with, err := Solve(context.Background(), p, SolveConfig{Tables: tb, HashMiB: 8}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if with.Lo != cur+e.Lo || with.Hi != cur+e.Hi {
			t.Errorf("%s: with tables %d %d, tables say %d %d", fen, with.Lo, with.Hi, cur+e.Lo, cur+e.Hi)
		}
		if !e.Exact() {
			continue
		}
		without, err := Solve(context.Background(), p, SolveConfig{HashMiB: 8, MaxDepth: 60}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if without.Lo != cur+e.Lo || without.Hi != cur+e.Hi {
			t.Errorf("%s: the solver proves %d %d, the tables' exact value is %d", fen, without.Lo, without.Hi, cur+e.Lo)
		}
		if with.Depth != 1 {
			t.Errorf("%s: with the tables the solver went to depth %d, want 1", fen, with.Depth)
		}
		t.Logf("%s: tables %d; solver without tables %d %d at depth %d", fen, cur+e.Lo, without.Lo, without.Hi, without.Depth)
	}
}
