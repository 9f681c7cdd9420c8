package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/tables"
)

// shortLimit is the no-capture limit of the tables the tests build to
// check adjudication against a full search of the game: short enough that
// every 8-seed game is searched to its end at once.
const shortLimit = 6

// rulesShort are Hoyito III's rules with Repetition off and the short
// no-capture limit.
func rulesShort() board.Rules {
	r := board.DefaultRules()
	r.Repetition, r.NoCaptureLimit = board.RepetitionOff, shortLimit
	return r
}

// tables8Short returns a directory of 8-seed tables for rulesShort, built
// once per test binary.
func tables8Short(t *testing.T) string {
	t.Helper()
	return fixtures.Dir(t, "tables 8 limit 6", func(dir string) error {
		return tables.Build(context.Background(), tables.BuildConfig{Dir: dir, Options: tables.OptionsFor(rulesShort()), Seeds: 8})
	})
}

// playedOutMargin returns p's final seed margin from the side to move's
// view under best play by both, searched to the end of the game (its
// rules must end every game soon: Repetition off, a short limit).
func playedOutMargin(p board.Position) int {
	if st := p.Status(nil); st.Over() {
		return st.Margin(p.Side())
	}
	best := -tables.MaxSeeds - 1
	for _, m := range p.LegalMoves() {
		c, err := p.After(m)
		if err != nil {
			panic(err)
		}
		v := playedOutMargin(c)
		if c.Side() != p.Side() {
			v = -v
		}
		best = max(best, v)
	}
	return best
}

// resultOf turns a final margin from side's view into the game's result.
func resultOf(side board.Side, margin int) board.Result {
	switch {
	case margin == 0:
		return board.Draw
	case (margin > 0) == (side == board.South):
		return board.SouthWins
	}
	return board.NorthWins
}

// randomHoyito returns a Hoyito III position of v with n seeds on the
// board, random captures (multiples of 4) for the rest, a random side to
// move and the given clock.
func randomHoyito(t *testing.T, v *board.Variant, rng *rand.Rand, n, clock int) board.Position {
	t.Helper()
	var holes [12]int
	for range n {
		holes[rng.IntN(12)]++
	}
	south := 4 * rng.IntN((48-n)/4+1)
	side := "S"
	if rng.IntN(2) == 1 {
		side = "N"
	}
	row := func(h []int) string { return strings.Trim(strings.Join(strings.Fields(fmt.Sprint(h)), ","), "[]") }
	fen := fmt.Sprintf("%s/%s %s %d %d %d", row(holes[:6]), row(holes[6:]), side, south, 48-n-south, clock)
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return p
}

// TestMatchTablesJudgeBoundary checks the tables' adjudication at the
// edge of the tables: every 8-seed position tried (the largest layer
// built) is adjudicated, with the result of the game searched to its end;
// no 12-seed position is.
func TestMatchTablesJudgeBoundary(t *testing.T) {
	v, err := board.NewWithRules(board.NameHoyito3, rulesShort())
	if err != nil {
		t.Fatal(err)
	}
	j, err := openTableJudge(tables8Short(t), v, false)
	if err != nil {
		t.Fatal(err)
	}
	defer j.close()
	if j.top() != 8 {
		t.Fatalf("tables up to %d seeds, want 8", j.top())
	}
	rng := rand.New(rand.NewPCG(47, 1))
	results := map[board.Result]int{}
	for range 150 {
		p := randomHoyito(t, v, rng, 8, rng.IntN(shortLimit))
		res, why, ok := j.judge(p, nil)
		want := resultOf(p.Side(), playedOutMargin(p))
		if !ok || res != want || !strings.HasPrefix(why, "tables adjudication: 8 seeds on the board") {
			t.Fatalf("%s: adjudicated %v (%v, %q), want %v", p.String(), ok, res, why, want)
		}
		results[res]++
	}
	if len(results) < 2 {
		t.Errorf("the positions tried all have the result %v: a test that cannot tell sides apart", results)
	}
	for range 20 {
		p := randomHoyito(t, v, rng, 12, 0)
		if res, why, ok := j.judge(p, nil); ok {
			t.Errorf("%s, 12 seeds, outside the tables: adjudicated %v (%s)", p.String(), res, why)
		}
	}
}

// TestMatchTablesJudgeRepetition checks that under threefold repetition
// a position is adjudicated by the bounds only when no position since the
// last capture occurred twice: an earlier repetition, before the capture,
// does not matter.
func TestMatchTablesJudgeRepetition(t *testing.T) {
	v, err := board.NewWithRules(board.NameHoyito3, board.DefaultRules())
	if err != nil {
		t.Fatal(err)
	}
	j, err := openTableJudge(tables8(t), v, false)
	if err != nil {
		t.Fatal(err)
	}
	defer j.close()
	rng := rand.New(rand.NewPCG(47, 2))
	for tries := 0; ; tries++ {
		if tries == 1000 {
			t.Fatal("no 8-seed position of the 1000 tried has meeting bounds")
		}
		p := randomHoyito(t, v, rng, 8, 3)
		if _, _, ok := j.judge(p, nil); !ok {
			continue
		}
		for _, c := range []struct {
			history []uint64
			ok      bool
		}{
			{[]uint64{1, 2, 3}, true},
			{[]uint64{1, 2, 1}, false},      // a second occurrence since the capture
			{[]uint64{5, 5, 1, 2, 3}, true}, // before it
		} {
			_, why, ok := j.judge(p, c.history)
			if ok != c.ok {
				t.Errorf("%s after %v: adjudicated %v (%s), want %v", p.String(), c.history, ok, why, c.ok)
			}
		}
		return
	}
}

// TestMatchTables plays Hoyito III games from 12-seed openings with the
// short limit's tables: each game that reaches 8 seeds ends there,
// adjudicated with the result of the game searched to its end, and no
// game is adjudicated before. Tables for other rules, another game and
// the broker are refused, naming what was wrong.
func TestMatchTables(t *testing.T) {
	dir := tables8Short(t)
	v, err := board.NewWithRules(board.NameHoyito3, rulesShort())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(47, 3))
	var openings []string
	for range 10 {
		p := randomHoyito(t, v, rng, 12, 0)
		if !p.Status(nil).Over() {
			openings = append(openings, p.String())
		}
	}
	tmp := t.TempDir()
	book := filepath.Join(tmp, "openings.txt")
	if err := os.WriteFile(book, []byte(strings.Join(openings, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "games.jsonl")
	args := []string{"--engine1", "builtin:greedy", "--engine2", "builtin:random", "--game", "hoyito3",
		"--repetition", "off", "--no-capture-limit", fmt.Sprint(shortLimit), "--openings", book, "--games", fmt.Sprint(2 * len(openings))}
	if _, stderr, st := runCLI(append([]string{"match", "--tables", dir, "--out", out}, args...)...); st != exitOK {
		t.Fatalf("match: status %d\n%s", st, stderr)
	}
	recs, err := record.ReadRecords([]byte(mustRead(t, out)))
	if err != nil {
		t.Fatal(err)
	}
	adjudicated := 0
	for _, rec := range recs {
		g, err := rec.Replay()
		if err != nil {
			t.Fatal(err)
		}
		// Only the last position may be in the tables.
		replay := board.NewGame(g.Start())
		for i, m := range g.Moves() {
			if err := replay.Play(m); err != nil {
				t.Fatal(err)
			}
			p := replay.Position()
			if p.OnBoard() <= 8 && !replay.Status().Over() && i < len(g.Moves())-1 {
				t.Errorf("game %d: ply %d reaches %s, in the tables, and the game goes on", rec.Game, i+1, p.String())
			}
		}
		if rec.Termination != record.Adjudication {
			continue
		}
		adjudicated++
		p := g.Position()
		want := record.ResultText(resultOf(p.Side(), playedOutMargin(p)))
		if !strings.HasPrefix(rec.Reason, "tables adjudication:") || p.OnBoard() != 8 || rec.Result != want {
			t.Errorf("game %d: %s {%s} at %s, want %s from 8 seeds by the tables", rec.Game, rec.Result, rec.Reason, p.String(), want)
		}
	}
	if adjudicated == 0 {
		t.Errorf("no game of %d was adjudicated by the tables", len(recs))
	}

	for _, c := range []struct {
		args []string
		want []string
	}{
		{append([]string{"--tables", dir}, append(args, "--no-capture-limit", "200")...), []string{"any-capturer-limit200", "holds only any-capturer-limit6"}},
		{[]string{"--tables", dir, "--engine1", "builtin:greedy", "--engine2", "builtin:random", "--game", "katro"}, []string{"--tables", "hoyito3 only, not katro"}},
		{append([]string{"--tables", dir, "--broker", "nats://127.0.0.1:1"}, args...), []string{"--tables with --broker"}},
		{append([]string{"--tables", filepath.Join(tmp, "none")}, args...), []string{"--tables", "none"}},
	} {
		a := append(c.args, "--out", filepath.Join(tmp, "refused.jsonl"))
		var stdout, stderr bytes.Buffer
		cl := &cli{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr}
		err := cl.match(a)
		if _, usage := err.(usageError); !usage {
			t.Errorf("%v: %v, want a usage error", c.args, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %v, want it to say %q", c.args, err, w)
			}
		}
	}
}
