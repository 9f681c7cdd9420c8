package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/book/booktest"
	"github.com/sower-engine/sower/search/dfpn"
)

// Katro 4x6 positions of games played at node limits, and what a full
// df-pn solve gives them (without history):
const (
	// North to move loses: South wins, proven in about 500 nodes.
	quickLoss = "6,1,0,1,1,1/0,1,1,2,1,0/2,3,4,6,2,1/0,3,5,1,5,1 N 2"
	// North to move loses: South wins, proven in about 20,000 nodes.
	slowLoss = "1,0,0,6,0,2/1,1,0,1,0,0/4,3,2,4,1,0/1,14,4,0,1,2 N 0"
	// North to move wins, proven in about 6,000 nodes.
	moverWins = "2,1,5,3,1,1/3,2,2,1,3,1/2,1,2,1,2,2/1,2,1,2,1,6 N 1"
)

// katroPosition parses a position of game name.
func katroPosition(t *testing.T, name, s string) board.Position {
	t.Helper()
	v, err := board.New(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// fullSolve returns the winner of p after history by a df-pn search
// without a node budget, in a solver of its own.
func fullSolve(t *testing.T, p board.Position, history []uint64) board.Side {
	t.Helper()
	s, err := dfpn.New(dfpn.Config{HashMiB: 16})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Solve(context.Background(), p, history, nil)
	if err != nil || (res.Outcome != dfpn.Win && res.Outcome != dfpn.Loss) {
		t.Fatalf("the full solve of %s: %v, %v", p.String(), res.Outcome, err)
	}
	return res.Winner
}

// winnerOf returns the side a decisive result names.
func winnerOf(t *testing.T, res board.Result) board.Side {
	t.Helper()
	w, ok := res.Winner()
	if !ok {
		t.Fatalf("result %v names no winner", res)
	}
	return w
}

// TestDfpnJudgeProves plays a move of the loser from a position df-pn
// proves quickly and checks that the judge, at the game's first ply,
// adjudicates the win of the side a full solve names, with a reason that
// says so.
func TestDfpnJudgeProves(t *testing.T) {
	g := board.NewGame(katroPosition(t, board.NameKatro4x6, quickLoss))
	start := g.Position()
	if err := g.Play(start.LegalMoves()[0]); err != nil {
		t.Fatal(err)
	}
	p := g.Position()
	want := fullSolve(t, p, g.History())
	res, why, ok := newDfpnJudge(5000, 4).judge(p, g.History())
	if !ok || winnerOf(t, res) != want || !strings.HasPrefix(why, fmt.Sprintf("proof adjudication: df-pn proves %s wins within ", want)) {
		t.Errorf("judge: %v %q %v, want %s's win", res, why, ok, want)
	}
	// Not at the second ply (every 4 plies: the first, the fifth, …).
	if err := g.Play(p.LegalMoves()[0]); err != nil {
		t.Fatal(err)
	}
	if g.Status().Over() {
		t.Fatal("the game ended at the second ply")
	}
	if res, why, ok := newDfpnJudge(5000, 4).judge(g.Position(), g.History()); ok {
		t.Errorf("adjudicated at the second ply: %v %q", res, why)
	}
}

// TestDfpnJudgeBudget checks that a position whose proof needs more nodes
// than the budget is not adjudicated, and is with a budget large enough,
// with the winner a full solve names.
func TestDfpnJudgeBudget(t *testing.T) {
	p := katroPosition(t, board.NameKatro4x6, slowLoss)
	want := fullSolve(t, p, nil)
	// every 1: the judge searches at every ply, the root's too (history nil).
	if res, why, ok := newDfpnJudge(500, 1).judge(p, nil); ok {
		t.Errorf("proven within 500 nodes: %v %q", res, why)
	}
	res, why, ok := newDfpnJudge(200000, 1).judge(p, nil)
	if !ok || winnerOf(t, res) != want {
		t.Errorf("within 200,000 nodes: %v %q %v, want %s's win", res, why, ok, want)
	}
}

// TestDfpnJudgeHistory checks that the judge searches under the game's
// history: with every position the side to move can reach in the
// history, each of its moves repeats a position (a draw for the proof),
// so its win, proven without the history, is not proven with it.
func TestDfpnJudgeHistory(t *testing.T) {
	p := katroPosition(t, board.NameKatro4x6, moverWins)
	if w := fullSolve(t, p, nil); w != p.Side() {
		t.Fatalf("the full solve gives %s's win, want the side to move's", w)
	}
	res, _, ok := newDfpnJudge(50000, 1).judge(p, nil)
	if !ok || winnerOf(t, res) != p.Side() {
		t.Fatalf("without history: %v %v, want %s's win", res, ok, p.Side())
	}
	var history []uint64
	for _, m := range p.LegalMoves() {
		c := p
		c.Play(m)
		history = append(history, c.Key())
	}
	if res, why, ok := newDfpnJudge(50000, 1).judge(p, history); ok {
		t.Errorf("with every reply in the history: %v %q", res, why)
	}
}

// TestDfpnJudgeGames plays games one after another on one judge, as a
// game worker does, each game's plies in order up to its adjudication,
// the same game twice in a row among them, and checks that every answer
// (with the nodes it took) is the one a judge of its own gives the game:
// a game's adjudications do not depend on the games before it.
func TestDfpnJudgeGames(t *testing.T) {
	starts := []string{quickLoss, slowLoss, moverWins, moverWins, quickLoss}
	type answer struct {
		why string
		ok  bool
	}
	play := func(j *dfpnJudge, start string) []answer {
		g := board.NewGame(katroPosition(t, board.NameKatro4x6, start))
		var out []answer
		for {
			p := g.Position()
			if g.Play(p.LegalMoves()[0]) != nil || g.Status().Over() {
				return out
			}
			_, why, ok := j.judge(g.Position(), g.History())
			out = append(out, answer{why, ok})
			if ok {
				return out // adjudicated
			}
		}
	}
	worker := newDfpnJudge(700, 1)
	for i, s := range starts {
		alone := play(newDfpnJudge(700, 1), s)
		if got := play(worker, s); fmt.Sprint(got) != fmt.Sprint(alone) {
			t.Errorf("game %d: %v after the others, %v alone", i, got, alone)
		}
		if !strings.Contains(fmt.Sprint(alone), "df-pn proves") {
			t.Errorf("game %d not adjudicated: %v", i, alone)
		}
	}
}

// TestMatchAdjudicateDfpn plays katro 6x6 (no proof book) from a position
// whose side to move loses: after a ply df-pn proves the win, and each
// game is adjudicated with the winner a full solve of its final position,
// under the game's history, names. Flags without --adjudicate-proven, a
// schedule below one ply, a Hoyito III match and a game without a book
// searched by no df-pn are refused.
func TestMatchAdjudicateDfpn(t *testing.T) {
	proofs, _ := booktest.Small(t)
	dir := t.TempDir()
	openings := filepath.Join(dir, "openings.txt")
	const lost = "1,2,3,2,5,2/1,2,11,0,1,0/4,3,4,6,1,3/3,1,1,3,0,1/5,1,2,0,1,0/0,0,1,0,0,2 S 0"
	if err := os.WriteFile(openings, []byte(lost+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "games.jsonl")
	base := []string{"--engine1", "builtin:random", "--engine2", "builtin:greedy", "--game", board.NameKatro}
	var stdout, stderr bytes.Buffer
	c := &cli{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, proofs: proofs}
	err := c.match(append(slices.Clone(base), "--games", "2", "--openings", openings, "--out", out,
		"--adjudicate-proven", "--adjudicate-nodes", "200000", "--adjudicate-every", "1"))
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	games := readGames(t, out)
	if len(games) != 2 {
		t.Fatalf("%d games", len(games))
	}
	for _, rec := range games {
		g, err := rec.Replay()
		if err != nil {
			t.Fatal(err)
		}
		want := fullSolve(t, g.Position(), g.History())
		if rec.Termination != record.Adjudication || len(rec.Moves) != 1 || rec.Winner != strings.ToLower(want.String()) ||
			!strings.HasPrefix(rec.Reason, fmt.Sprintf("proof adjudication: df-pn proves %s wins within ", want)) {
			t.Errorf("game %d: %s after %d plies, %s: %q; the full solve gives %s's win", rec.Game, rec.Termination, len(rec.Moves), rec.Winner, rec.Reason, want)
		}
	}

	for _, args := range [][]string{
		{"--adjudicate-nodes", "100"},
		{"--adjudicate-every", "2"},
		{"--adjudicate-proven", "--adjudicate-every", "0"},
		{"--adjudicate-proven", "--adjudicate-nodes", "0"},
		{"--adjudicate-proven", "--game", board.NameHoyito3},
	} {
		c := &cli{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, proofs: proofs}
		err := c.match(append(slices.Clone(base), args...))
		if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), "--adjudicate-") {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
}
