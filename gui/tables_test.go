package gui

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/internal/sowertest"
	"github.com/sower-engine/sower/tables"
)

// fixtures holds the table set the tests share, built once per test
// binary; TestMain (in the browser tests' package) runs FixturesMain.
var fixtures sowertest.Fixtures

// FixturesMain runs the tests of m with the shared fixtures (see
// sowertest.Fixtures.Main); it is the test binary's TestMain's work.
func FixturesMain(m *testing.M) int { return fixtures.Main(m) }

// TableDir returns a directory holding the 8-seed Hoyito III tables for
// the rule book's rules (one set serves both repetition rules), built the
// first time a test asks.
func TableDir(t testing.TB) string {
	t.Helper()
	opts := tables.OptionsFor(board.DefaultRules())
	return fixtures.Dir(t, "tables "+opts.String()+" 8", func(dir string) error {
		return tables.Build(context.Background(), tables.BuildConfig{Dir: dir, Options: opts, Seeds: 8})
	})
}

// randomEndgame returns a Hoyito III position of v with n seeds on the
// board, a random split of the captures and a random no-capture clock.
func randomEndgame(t *testing.T, rng *rand.Rand, v *board.Variant, n int) board.Position {
	t.Helper()
	var cells [12]int
	for range n {
		cells[rng.IntN(12)]++
	}
	row := func(c []int) string {
		s := make([]string, len(c))
		for i, k := range c {
			s[i] = fmt.Sprint(k)
		}
		return strings.Join(s, ",")
	}
	south := 4 * rng.IntN((48-n)/4+1)
	fen := fmt.Sprintf("%s/%s %c %d %d %d", row(cells[:6]), row(cells[6:]), "SN"[rng.IntN(2)], south, 48-n-south, rng.IntN(120))
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return p
}

// openTables returns Hoyito III under repetition rule rep and its tables
// in dir, closed when the test ends.
func openTables(t *testing.T, dir string, rep board.Repetition) (*board.Variant, *tables.Tables) {
	t.Helper()
	r := board.DefaultRules()
	r.Repetition = rep
	v, err := board.NewWithRules(board.NameHoyito3, r)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := tables.Open(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return v, tb
}

// TestTablesView checks the server's list against the tables' own moves
// (tables.Moves, the data sower tables probe prints), turned to final
// margins from South's view here: the same moves, the same numbers, the
// words agreeing with them, best first under each repetition rule.
func TestTablesView(t *testing.T) {
	dir := TableDir(t)
	srv, err := New(Config{Engines: []Engine{{Name: "e", Command: []string{"e"}}}, TablePath: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.closeTables)
	for _, rep := range []board.Repetition{board.RepetitionOff, board.RepetitionThreefold} {
		t.Run(rep.String(), func(t *testing.T) {
			v, tb := openTables(t, dir, rep)
			rng := rand.New(rand.NewPCG(24, uint64(rep)))
			for range 500 {
				p := randomEndgame(t, rng, v, 8)
				m, ok := srv.tablesView(&p, false)
				if !ok || m.Note != "" || m.Fen != p.String() {
					t.Fatalf("%s: view %+v", p, m)
				}
				checkView(t, tb, &p, m.Moves)
				checkValue(t, tb, &p, m.Value)
			}
			p := randomEndgame(t, rng, v, 12)
			if m, _ := srv.tablesView(&p, false); len(m.Moves) != 0 || !strings.Contains(m.Note, "not in the tables") {
				t.Errorf("%s (12 seeds): view %+v, want a note that it is not in the tables", p, m)
			}
		})
	}
	katro, _ := board.New(board.NameKatro)
	k := katro.Start()
	if m, _ := srv.tablesView(&k, false); len(m.Moves) != 0 || m.Note != "" {
		t.Errorf("Katro: view %+v, want an empty one (no panel)", m)
	}
}

// checkView checks the server's moves for p against tb.Moves.
func checkView(t *testing.T, tb *tables.Tables, p *board.Position, got []tableMove) {
	t.Helper()
	e, ms, err := tb.Moves(p)
	if err != nil {
		t.Fatal(err)
	}
	off := p.Variant().Rules().Repetition == board.RepetitionOff
	sign := 1
	if p.Side() == board.North {
		sign = -1
	}
	cur := p.Captured(board.South) - p.Captured(board.North) // South's view
	want := map[string]tableMove{}
	for _, mv := range ms {
		margin := cur + sign*mv.Value
		lo, hi := cur+sign*mv.Entry.Lo, cur+sign*mv.Entry.Hi
		if sign < 0 {
			lo, hi = hi, lo
		}
		best := mv.Keeps
		if off {
			best = mv.KeepsValue
		}
		want[mv.Move.String()] = tableMove{Lo: lo, Hi: hi, Margin: &margin, Exact: off || lo == hi, Best: best}
	}
	if len(got) != len(ms) {
		t.Fatalf("%s: %d moves shown, %d legal", p, len(got), len(ms))
	}
	for i, g := range got {
		w, ok := want[g.Move]
		if !ok || g.Margin == nil || *g.Margin != *w.Margin || g.Lo != w.Lo || g.Hi != w.Hi || g.Exact != w.Exact || g.Best != w.Best {
			t.Fatalf("%s %s: shown %+v, the tables give %+v (margin %d)", p, g.Move, g, w, *w.Margin)
		}
		delete(want, g.Move)
		checkWords(t, p, g)
		if i == 0 {
			continue
		}
		// Best first, for the side to move: by the margin under
		// Repetition off, by the bounds under threefold.
		prev, now := sign**got[i-1].Margin, sign**g.Margin
		if off && now > prev {
			t.Fatalf("%s: %s (%d) shown after %s (%d) for the side to move", p, g.Move, now, got[i-1].Move, prev)
		}
		if !off && g.Best && !got[i-1].Best {
			t.Fatalf("%s: best move %s after %s", p, g.Move, got[i-1].Move)
		}
	}
	// The first move keeps the position's value, from the mover's view.
	moverLo, moverCur := got[0].Lo, sign*cur
	if sign < 0 {
		moverLo = -got[0].Hi
	}
	value, _ := tb.Value(p)
	if !got[0].Best || (!off && moverLo != moverCur+e.Lo) || (off && sign**got[0].Margin != moverCur+value) {
		t.Fatalf("%s: first move %+v (margin %d), the position's entry %+v, value %d", p, got[0], *got[0].Margin, e, value)
	}
}

// checkValue checks the position's value the server sends against the
// tables' own entry of it: exact under Repetition off, under threefold
// when its bounds meet; from South's view, with its words.
func checkValue(t *testing.T, tb *tables.Tables, p *board.Position, got *tableValue) {
	t.Helper()
	e, _ := tb.Probe(p)
	v, ok := tb.Value(p)
	if p.Variant().Rules().Repetition != board.RepetitionOff {
		v, ok = e.Lo, e.Lo == e.Hi
	}
	if !ok {
		if got != nil {
			t.Fatalf("%s: value %+v, the tables' bounds %d to %d are open", p, got, e.Lo, e.Hi)
		}
		return
	}
	me := p.Side()
	v += p.Captured(me) - p.Captured(me.Other())
	if me == board.North {
		v = -v
	}
	want := tableValue{Margin: v, Text: fmt.Sprintf("%+.2f seeds", float64(v)), Words: marginText(v)}
	if got == nil || *got != want {
		t.Fatalf("%s: value %+v, the tables give %+v", p, got, want)
	}
}

// checkWords checks a move's text and words against its numbers.
func checkWords(t *testing.T, p *board.Position, g tableMove) {
	t.Helper()
	exact := func(m int) string {
		switch {
		case m > 0:
			return fmt.Sprintf("South wins by %d seed", m)
		case m < 0:
			return fmt.Sprintf("North wins by %d seed", -m)
		}
		return "draw"
	}
	var want, words string
	if g.Exact {
		want, words = fmt.Sprintf("%+.2f seeds", float64(*g.Margin)), exact(*g.Margin)
	} else {
		want = fmt.Sprintf("between %+.2f and %+.2f seeds for South (exact under Repetition off: %+.2f)", float64(g.Lo), float64(g.Hi), float64(*g.Margin))
	}
	if g.Text != want || !strings.HasPrefix(g.Words, words) || (words == "") != (g.Words == "") {
		t.Fatalf("%s %s: %q (%q), want %q (%q)", p, g.Move, g.Text, g.Words, want, words)
	}
}

// TestTablesMessage starts a Hoyito III game at a position in the tables
// over the socket: a "tables" message follows the state, with every legal
// move.
func TestTablesMessage(t *testing.T) {
	dir := TableDir(t)
	s, err := New(Config{Engines: []Engine{{Name: "e", Command: []string{"e"}}}, TablePath: dir, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	addr := serve(t, s)
	p := open(t, addr)
	fen := "0,1,0,2,0,1/1,0,2,0,1,0 S 20 20 0"
	p.send(map[string]any{"type": "new", "game": "hoyito3", "south": "human", "north": "human", "fen": fen, "repetition": "off"})
	var got tablesMsg
	deadline := time.Now().Add(15 * time.Second)
	for got.Fen != fen && time.Now().Before(deadline) {
		b, err := p.read()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), `"type":"tables"`) {
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
		}
	}
	v, _ := board.New(board.NameHoyito3)
	pos, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	if got.Fen != fen || len(got.Moves) != len(pos.LegalMoves()) || got.Note != "" {
		t.Fatalf("tables message %+v for %s, want its %d legal moves", got, fen, len(pos.LegalMoves()))
	}
}
