package search

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/tables"
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
// value as the tables (with -short, for the values within 12 plies), and
// the solver with tables answers at once.
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
		if e.Exact() {
			checkKeeps(t, tb, p, with.PV)
		}
		if !e.Exact() {
			continue
		}
		if testing.Short() && e.Distance() > 12 {
			continue // the solver without tables goes as deep as the distance: a minute for 27
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

// TestSolveExactWithHistory compares the solver's proven value with the
// exact memoised solver of reference_test.go, which keys its memo with the
// positions since the last capture, on Hoyito III positions from random
// games, each with the game's history, under low no-capture limits so that
// repetition and the limit decide many lines, every other game with
// Repetition off. (A table that does not see
// the path rarely goes wrong on such random positions; the case where it
// does is TestSolveTableSeesThePath.)
func TestSolveExactWithHistory(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	want, budget := 24, 1_000_000
	if testing.Short() { // the race detector's run: the solver is single-threaded
		want, budget = 4, 200_000
	}
	checked, skipped := 0, 0
	for g := 0; checked < want; g++ {
		if g == 50*want {
			t.Fatalf("only %d positions in %d games", checked, g)
		}
		r := board.DefaultRules()
		r.NoCaptureLimit = 6 + rng.IntN(9)
		if g%2 == 1 { // every other game without repetition
			r.Repetition = board.RepetitionOff
		}
		v, err := board.NewWithRules(board.NameHoyito3, r)
		if err != nil {
			t.Fatal(err)
		}
		game := board.NewGame(v.Start())
		// To 8 seeds, then random plies more, so that the history since
		// the last capture may hold positions the search meets again.
		extra := rng.IntN(2 * r.NoCaptureLimit / 3)
		for !game.Status().Over() && (onBoard(game) > 8 || extra > 0) {
			if onBoard(game) <= 8 {
				extra--
			}
			ms := legal(game)
			if err := game.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		if game.Status().Over() {
			continue
		}
		p, hist := game.Position(), game.History()
		var since []uint64
		var hash uint64
		for _, k := range hist[len(hist)-min(p.Clock(), len(hist)):] {
			since, hash = append(since, k), hash+mix(k)
		}
		exact, ok := exactWithin(t, p, since, hash, budget)
		if !ok {
			skipped++
			continue // too large a tree for the reference
		}
		res, err := Solve(context.Background(), p, SolveConfig{History: hist, HashMiB: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Lo != exact || res.Hi != exact {
			t.Errorf("%s (limit %d, Repetition %v, moves %s): the solver proves [%d, %d], the exact value is %d",
				p, r.NoCaptureLimit, r.Repetition, board.FormatMoves(game.Moves()), res.Lo, res.Hi, exact)
		}
		checked++
	}
	t.Logf("%d positions (%d skipped, too large for the reference)", checked, skipped)
}

// TestSolveTableSeesThePath searches one position twice with the same
// solver and table: first with a history in which its child Y occurred
// twice, so that playing Y repeats it a third time and ends the game, then
// with no history. The two values differ (the exact reference says so),
// and the second search must not take the first one's result from the
// table: the key holds the positions since the last capture.
func TestSolveTableSeesThePath(t *testing.T) {
	r := board.DefaultRules()
	r.NoCaptureLimit = 10
	v, err := board.NewWithRules(board.NameHoyito3, r)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParsePosition("2,0,2,1,1,0/1,0,0,1,0,0 S 36 4 2")
	if err != nil {
		t.Fatal(err)
	}
	a1, err := v.ParseMove("a1")
	if err != nil {
		t.Fatal(err)
	}
	y := after(t, p, a1)
	k := y.Key()
	twice, ok1 := exactWithin(t, p, []uint64{k, k}, 2*mix(k), 1_000_000)
	fresh, ok2 := exactWithin(t, p, nil, 0, 1_000_000)
	if !ok1 || !ok2 || twice == fresh {
		t.Fatalf("test position: exact values %d (Y twice before) and %d (no history), want two different", twice, fresh)
	}
	s := &solver{ctx: context.Background(), root: p, start: time.Now(), limit: r.NoCaptureLimit,
		family: board.Hoyito, vmax: v.Total(), tt: make([]solveEntry, 1<<16)}
	const depth = 40 // past the no-capture limit: no unresolved leaf
	for _, c := range []struct {
		keys []uint64
		want int
	}{{[]uint64{k, k}, twice}, {nil, fresh}} {
		s.keys = append(s.keys[:0], c.keys...)
		if got := s.ab(&p, 0, depth, -s.vmax-1, s.vmax+1, stretchHash(c.keys)); got != c.want {
			t.Errorf("history %x: the solver finds %d, the exact value is %d", c.keys, got, c.want)
		}
	}
}

// checkKeeps checks that pv is a legal line from p whose first move keeps
// the tables' exact value.
func checkKeeps(t *testing.T, tb *tables.Tables, p board.Position, pv []board.Move) {
	t.Helper()
	if len(pv) == 0 {
		t.Errorf("%s: no proof line", p.String())
		return
	}
	_, ms, err := tb.Moves(&p)
	if err != nil {
		t.Fatal(err)
	}
	keeps := false
	for _, m := range ms {
		keeps = keeps || (m.Keeps && m.Move == pv[0])
	}
	if !keeps {
		t.Errorf("%s: the proof line starts with %s, which does not keep the value", p.String(), pv[0])
	}
	for _, m := range pv {
		if err := p.CheckMove(m); err != nil {
			t.Fatalf("proof line %s: %v", board.FormatMoves(pv), err)
		}
		p.Play(m)
	}
}

// TestSolveInterruptedKeepsLine: a solve cancelled during a search
// returns the line of the last depth it completed, not an empty one.
func TestSolveInterruptedKeepsLine(t *testing.T) {
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	depth := 12
	if raceEnabled {
		depth = 8 // the same path, some tenfold slower per node
	}
	res, err := Solve(ctx, v.Start(), SolveConfig{HashMiB: 1}, func(i SolveInfo) {
		if i.Depth >= depth {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want the cancellation", err)
	}
	if len(res.PV) == 0 {
		t.Fatalf("no line after the interruption: %+v", res)
	}
	p := v.Start()
	for _, m := range res.PV {
		if err := p.CheckMove(m); err != nil {
			t.Fatalf("line %s: %v", board.FormatMoves(res.PV), err)
		}
		p.Play(m)
	}
}

// budgetTB turns the reference solver's complaint about its node budget
// into a panic that exactWithin recovers; every other failure stays one.
type budgetTB struct{ testing.TB }

type overBudget struct{}

func (b budgetTB) Fatalf(format string, args ...any) {
	if strings.HasPrefix(format, "the exact solver needs more than") {
		panic(overBudget{})
	}
	b.TB.Helper()
	b.TB.Fatalf(format, args...)
}

// exactWithin runs the exact reference solver on p (since and hash as for
// hoyitoSolver.solve) within nodes nodes; ok is false beyond them.
func exactWithin(t *testing.T, p board.Position, since []uint64, hash uint64, nodes int) (v int, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, over := r.(overBudget); !over {
				panic(r)
			}
			ok = false
		}
	}()
	return newHoyitoSolver(nodes).solve(budgetTB{t}, p, since, hash), true
}

func onBoard(g *board.Game) int { p := g.Position(); return p.OnBoard() }

func legal(g *board.Game) []board.Move { p := g.Position(); return p.LegalMoves() }

// TestSolveHeartbeat checks that a long solve reports its progress between
// new bounds: the depth being searched and node counts that never fall.
func TestSolveHeartbeat(t *testing.T) {
	v, err := board.New("katro-4x6")
	if err != nil {
		t.Fatal(err)
	}
	var beats []SolveInfo
	cfg := SolveConfig{HashMiB: 16, MaxDepth: 9, ProgressEvery: time.Nanosecond, Progress: func(i SolveInfo) { beats = append(beats, i) }}
	if _, err := Solve(context.Background(), v.Start(), cfg, nil); err != nil {
		t.Fatal(err)
	}
	if len(beats) < 2 {
		t.Fatalf("%d progress reports", len(beats))
	}
	for i, b := range beats {
		if b.Depth < 1 || b.Depth > 9 || b.Lo != -1 || b.Hi != 1 || (i > 0 && (b.Nodes < beats[i-1].Nodes || b.Depth < beats[i-1].Depth)) {
			t.Errorf("report %d: %+v", i, b)
		}
	}
}
