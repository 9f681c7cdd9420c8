package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/book"
	"github.com/sower-engine/sower/search/book/booktest"
)

// provenOpening returns the small proof library (katro-4x6 after c1) and
// an openings file holding the position after c1 and North's reply from
// its book: South to move, a proven win of North's whatever South plays.
func provenOpening(t *testing.T) (proofs fs.FS, openings string) {
	t.Helper()
	proofs, _ = booktest.Small(t)
	b, err := book.Load(context.Background(), proofs, board.NameKatro4x6)
	if err != nil {
		t.Fatal(err)
	}
	v, err := board.New(board.NameKatro4x6)
	if err != nil {
		t.Fatal(err)
	}
	p := v.Start()
	c1, _ := v.ParseMove("c1")
	p.Play(c1)
	m, _, win, ok := b.Probe(&p)
	if !ok || !win || !p.Play(m) {
		t.Fatalf("the book does not prove North's win after c1")
	}
	openings = filepath.Join(t.TempDir(), "openings.txt")
	if err := os.WriteFile(openings, []byte(p.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return proofs, openings
}

// TestMatchAdjudicateProven plays katro-4x6 from a position of the
// proof's loser: whatever South plays, the book proves North's win, and
// the game is adjudicated after that one ply.
func TestMatchAdjudicateProven(t *testing.T) {
	proofs, openings := provenOpening(t)
	out := filepath.Join(t.TempDir(), "games.jsonl")
	var stdout, stderr bytes.Buffer
	c := &cli{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, proofs: proofs}
	err := c.match([]string{"--engine1", "builtin:random", "--engine2", "builtin:greedy", "--game", board.NameKatro4x6,
		"--games", "2", "--openings", openings, "--adjudicate-proven", "--out", out})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	recs := recordLines([]byte(mustRead(t, out)))
	if n := strings.Count(recs, `"termination":"adjudication"`); n != 2 ||
		strings.Count(recs, `"reason":"proof adjudication: the proof book has North winning within `) != 2 ||
		strings.Count(recs, `"winner":"north"`) != 2 {
		t.Errorf("records:\n%s", recs)
	}
	for _, l := range strings.Split(recs, "\n") {
		if strings.Count(l, `"move":`) != 1 {
			t.Errorf("a game of other than one ply:\n%s", l)
		}
	}

	// A Katro game without a book and without df-pn, and the broker, are
	// refused.
	for _, args := range [][]string{
		{"--engine1", "builtin:random", "--engine2", "builtin:greedy", "--game", "katro", "--adjudicate-proven", "--adjudicate-nodes", "0"},
		{"--engine1", "builtin:random", "--engine2", "builtin:greedy", "--game", board.NameKatro4x6, "--adjudicate-proven", "--broker", "nats://127.0.0.1:1"},
	} {
		c := &cli{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, proofs: proofs}
		err := c.match(args)
		if _, usage := err.(usageError); !usage || !strings.Contains(err.Error(), "--adjudicate-proven") {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
}

// TestMatchPlayedOut compares a match adjudicated by the proof with the
// same games played out: the same results pass and the plies saved are
// reported; a result that differs fails the command (status 1) naming
// the games; --played-out without --out is refused.
func TestMatchPlayedOut(t *testing.T) {
	proofs, openings := provenOpening(t)
	dir := t.TempDir()
	args := []string{"--engine1", "builtin:random", "--engine2", "builtin:greedy", "--game", board.NameKatro4x6,
		"--games", "2", "--openings", openings, "--adjudicate-proven"}
	run := func(out string, extra ...string) (string, error) {
		var stdout, stderr bytes.Buffer
		c := &cli{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, proofs: proofs}
		err := c.match(append(append(slices.Clone(args), "--out", filepath.Join(dir, out)), extra...))
		return stdout.String(), err
	}
	if _, err := run("first.jsonl"); err != nil {
		t.Fatal(err)
	}
	adjudicated := readGames(t, filepath.Join(dir, "first.jsonl"))
	// The games "played out": one ply more each, with the result given.
	playedOut := func(name, result string) string {
		var lines []byte
		for _, g := range adjudicated {
			g.Moves = append(slices.Clone(g.Moves), record.MoveRecord{Move: "a1"})
			g.Termination, g.Result = record.Normal, result
			line, err := json.Marshal(g)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(append(lines, line...), '\n')
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, lines, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	same := playedOut("same.jsonl", adjudicated[0].Result)
	out, err := run("second.jsonl", "--played-out", same)
	if err != nil || !strings.Contains(out, "Played out ("+same+"): 2 games, 2 adjudicated") ||
		!strings.Contains(out, "plies 2 with adjudication, 4 played out: 50.0% saved") ||
		!strings.Contains(out, "adjudicated results as played out: 2; games that differ: 0") {
		t.Errorf("the same results: %v\n%s", err, out)
	}
	other := playedOut("other.jsonl", "1/2-1/2")
	out, err = run("third.jsonl", "--played-out", other)
	if err == nil || errors.As(err, new(usageError)) || !strings.Contains(err.Error(), "2 games differ from the same games played out in "+other+" (games 1, 2)") ||
		!strings.Contains(out, "game 2: adjudicated "+adjudicated[1].Result+" at ply 1") {
		t.Errorf("other results: %v\n%s", err, out)
	}
	var stdout, stderr bytes.Buffer
	c := &cli{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, proofs: proofs}
	if err := c.match(append(slices.Clone(args), "--played-out", same)); !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), "give --out") {
		t.Errorf("without --out: %v", err)
	}
}

// readGames reads the JSON records of a file.
func readGames(t *testing.T, path string) []record.GameRecord {
	t.Helper()
	games, err := readRecordsFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return games
}
