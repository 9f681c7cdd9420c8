package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/book"
	"github.com/sower-engine/sower/search/book/booktest"
)

// TestMatchAdjudicateProven plays katro-4x6 from a position of the
// proof's loser: whatever South plays, the book proves North's win, and
// the game is adjudicated after that one ply.
func TestMatchAdjudicateProven(t *testing.T) {
	proofs, _ := booktest.Small(t)
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
	if !ok || !win {
		t.Fatalf("the book does not prove North's win after c1")
	}
	p.Play(m)
	openings := filepath.Join(t.TempDir(), "openings.txt")
	if err := os.WriteFile(openings, []byte(p.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "games.jsonl")
	var stdout, stderr bytes.Buffer
	c := &cli{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, proofs: proofs}
	err = c.match([]string{"--engine1", "builtin:random", "--engine2", "builtin:greedy", "--game", board.NameKatro4x6,
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

	// A game without a book, and the broker, are refused.
	for _, args := range [][]string{
		{"--engine1", "builtin:random", "--engine2", "builtin:greedy", "--game", "katro", "--adjudicate-proven"},
		{"--engine1", "builtin:random", "--engine2", "builtin:greedy", "--game", board.NameKatro4x6, "--adjudicate-proven", "--broker", "nats://127.0.0.1:1"},
	} {
		c := &cli{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, proofs: proofs}
		err := c.match(args)
		if _, usage := err.(usageError); !usage || !strings.Contains(err.Error(), "--adjudicate-proven") {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
}
