package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/tables"
)

// offTables opens the shared tables up to seeds for the default rules
// with Repetition off and the no-capture limit given (sharedTables).
func offTables(t testing.TB, seeds, limit int) (*tables.Tables, *board.Variant) {
	t.Helper()
	r := board.DefaultRules()
	r.Repetition, r.NoCaptureLimit = board.RepetitionOff, limit
	return sharedTables(t, r, seeds)
}

// openOff opens the tables for r in dir, closed when t ends, with the
// variant of r.
func openOff(t testing.TB, dir string, r board.Rules) (*tables.Tables, *board.Variant) {
	t.Helper()
	tb, err := tables.Open(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	v, err := board.NewWithRules(board.NameHoyito3, r)
	if err != nil {
		t.Fatal(err)
	}
	return tb, v
}

// randomTablePosition returns a random position with n seeds on the board
// (South holding the seeds off it), the side to move and the clock random.
func randomTablePosition(t testing.TB, rng *rand.Rand, v *board.Variant, n int) board.Position {
	t.Helper()
	for {
		var c [12]int
		for i := 0; i < n; i++ {
			c[rng.IntN(12)]++
		}
		side := "SN"[rng.IntN(2)]
		f := fmt.Sprintf("%d,%d,%d,%d,%d,%d/%d,%d,%d,%d,%d,%d %c %d 0 %d",
			c[11], c[10], c[9], c[8], c[7], c[6], c[0], c[1], c[2], c[3], c[4], c[5], side, 48-n,
			rng.IntN(v.Rules().NoCaptureLimit))
		p, err := v.ParsePosition(f)
		if err != nil {
			t.Fatal(err)
		}
		if st := p.Status(nil); !st.Over() {
			return p
		}
	}
}

// playOut plays a whole game from p with the engine on both sides, at
// depth plies a move, and returns the final margin of the seeds on the
// board at p for p's side to move, as the board package scores it.
func playOut(t testing.TB, e *Engine, p board.Position, depth int) int {
	return playOutAgainst(t, e, e, p, depth)
}

// playOutAgainst is playOut with engine a for p's side to move and b for
// the other.
func playOutAgainst(t testing.TB, a, b *Engine, p board.Position, depth int) int {
	t.Helper()
	g := board.NewGame(p)
	for !g.Status().Over() {
		e, cur := a, g.Position()
		if cur.Side() != p.Side() {
			e = b
		}
		res, err := e.Search(context.Background(), g.Position(), g.History(), Limits{Depth: depth}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(res.Move); err != nil {
			t.Fatalf("from %s, after %d plies: %v", &p, g.Ply(), err)
		}
	}
	st := g.Status()
	me, opp := p.Side(), p.Side().Other()
	return st.Seeds[me] - st.Seeds[opp] - (p.Captured(me) - p.Captured(opp))
}

// TestTablesPlayTheirValue: under Repetition off the engine with the tables
// reaches, in whole games against itself from random table positions at
// random clocks, exactly the value the tables give the first position: it
// never loses a seed of it, and makes progress, since the games end by the
// rules (the board package judges them).
func TestTablesPlayTheirValue(t *testing.T) {
	seeds := 12
	if testing.Short() { // the race detector's run: 8 seeds build at once
		seeds = 8
	}
	tb, v := offTables(t, seeds, 40)
	e, err := NewEngine(MinHashMiB)
	if err != nil {
		t.Fatal(err)
	}
	e.SetTables(tb)
	plain, err := NewEngine(MinHashMiB)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	games := 40
	if testing.Short() {
		games = 10
	}
	for i := 0; i < games; i++ {
		p := randomTablePosition(t, rng, v, 8+4*(i%2)*(seeds-8)/4)
		want, ok := tb.Value(&p)
		if !ok {
			t.Fatalf("%s: no value", &p)
		}
		if got := playOut(t, e, p, 3); got != want {
			t.Errorf("%s: the game ended with a margin of %d, the tables' value is %d", &p, got, want)
		}
		// Against a searching opponent without tables, the side with
		// them reaches at least the value, from either side.
		if got := playOutAgainst(t, e, plain, p, 3); got < want {
			t.Errorf("%s: with the tables to move, the game ended with a margin of %d, below the tables' value %d", &p, got, want)
		}
		if got := playOutAgainst(t, plain, e, p, 3); got > want {
			t.Errorf("%s: with the tables replying, the game ended with a margin of %d, above the tables' value %d", &p, got, want)
		}
	}
}

// TestTablesPlayTheirValueAtDepth is the measurement of docs/tables.md:
// with SOWER_TABLES set to a directory of default tables, it plays
// SOWER_TABLES_GAMES (default 200) games from random positions of each
// layer there, at depth SOWER_TABLES_DEPTH (default 12), and counts the
// games whose result is not the tables' value; then SOWER_TABLES_VS
// (default 10) games a layer against an opponent without tables searching
// at the same depth, the tables on either side, where the side with them
// must reach at least the value.
func TestTablesPlayTheirValueAtDepth(t *testing.T) {
	dir := os.Getenv("SOWER_TABLES")
	if dir == "" {
		t.Skip("set SOWER_TABLES to a directory of default tables to measure")
	}
	games, depth := envInt("SOWER_TABLES_GAMES", 200), envInt("SOWER_TABLES_DEPTH", 12)
	r := board.DefaultRules()
	r.Repetition = board.RepetitionOff
	tb, v := openOff(t, dir, r)
	e, err := NewEngine(64)
	if err != nil {
		t.Fatal(err)
	}
	e.SetTables(tb)
	plain, err := NewEngine(64)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 8; n <= tb.Top(); n += 4 {
		bad := 0
		for i := 0; i < games; i++ {
			p := randomTablePosition(t, rng, v, n)
			want, _ := tb.Value(&p)
			if got := playOut(t, e, p, depth); got != want {
				bad++
				t.Errorf("%s: the game ended with a margin of %d, the tables' value is %d", &p, got, want)
			}
		}
		t.Logf("%d seeds: %d games at depth %d, %d results differ from the tables' value", n, games, depth, bad)
		vs, worse, better := envInt("SOWER_TABLES_VS", 10), 0, 0
		for i := 0; i < vs; i++ {
			p := randomTablePosition(t, rng, v, n)
			want, _ := tb.Value(&p)
			got := 0
			if i%2 == 0 {
				got = playOutAgainst(t, e, plain, p, depth)
			} else {
				got = -playOutAgainst(t, plain, e, p, depth)
				want = -want
			}
			switch {
			case got < want:
				worse++
				t.Errorf("%s: the side with the tables ended with %d, below the tables' value %d", &p, got, want)
			case got > want:
				better++
			}
		}
		t.Logf("%d seeds: %d games against a search without tables at depth %d: the tables' side reached its value in %d, more in %d, less in %d",
			n, vs, depth, vs-worse-better, better, worse)
	}
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// TestTableEstimate: under Repetition threefold, at a root in the tables
// whose bounds, and every child's, leave the value open, the search scores
// the root with the tables' value under Repetition off, as an ordinary
// score (not a proven one); with the estimate off it searches inside the
// bounds instead and reports something else.
func TestTableEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the 12-seed tables: too slow for the race detector's short run")
	}
	tb, voff := offTables(t, 12, board.DefaultNoCaptureLimit)
	v, err := voff.WithRules(board.DefaultRules())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	found := 0
	for tries := 0; tries < 5000 && found < 5; tries++ {
		p := randomTablePosition(t, rng, v, 12)
		// Close capture totals and a fresh clock: the result is open.
		f := p.String()
		f = f[:strings.Index(f, " ")+3] + "16 20 0"
		p, err := v.ParsePosition(f)
		if err != nil {
			t.Fatal(err)
		}
		e, ms, err := tb.Moves(&p)
		if err != nil || e.Exact() {
			continue
		}
		open := true
		for _, m := range ms {
			q := p
			q.Play(m.Move)
			if q.Side() == p.Side() || q.OnBoard() == 0 {
				open = false // a capture: its value comes from the layer below
			}
			if m.Entry.Lo == m.Entry.Hi {
				open = false
			}
		}
		if !open {
			continue
		}
		found++
		want, _ := tb.Value(&p)
		me := p.Side()
		cur := p.Captured(me) - p.Captured(me.Other())
		for _, on := range []bool{true, false} {
			eng, err := NewEngine(MinHashMiB)
			if err != nil {
				t.Fatal(err)
			}
			eng.SetTables(tb)
			eng.SetTableEstimate(on)
			res, err := eng.Search(context.Background(), p, nil, Limits{Depth: 3}, nil)
			if err != nil {
				t.Fatal(err)
			}
			sc := res.Info.Score
			if on && (sc.Decisive() || sc != Score(100*(cur+want))) {
				t.Errorf("%s, estimate on: score %s, want cp %d (the value %d under Repetition off), not proven", &p, sc.UCI(board.Hoyito), 100*(cur+want), want)
			}
			if !on && sc == Score(100*(cur+want)) && !sc.Decisive() {
				t.Logf("%s, estimate off: the search happens to score the value too", &p)
			}
		}
	}
	if found == 0 {
		t.Fatal("no 12-seed position with open bounds everywhere found")
	}
}
