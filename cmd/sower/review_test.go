package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
)

// writeRecord writes the record of a game of variant name with moves to
// a JSON lines file in dir, after a first game of its first two plies, and returns
// its path.
func writeRecord(t *testing.T, dir, name, moves string) string {
	t.Helper()
	v, err := board.New(name)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	first := strings.Join(strings.Fields(moves)[:2], " ")
	for _, ms := range []string{first, moves} {
		g := board.NewGame(v.Start())
		mv, err := v.ParseMoves(ms)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.PlayAll(mv); err != nil {
			t.Fatal(err)
		}
		js, err := json.Marshal(record.RecordGame(g, "me", "you", "none", "none", nil))
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(js))
	}
	path := filepath.Join(dir, "games.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReviewCommand reviews the second game of a record, a katro-6x3 game
// with a known blunder (bench/review's TestKnownBlunder proves it with the
// solver): the blunder is marked with the better move and its line, the
// counts are printed, progress goes to stderr, and --out and --pgn write
// both games with the review, which reads back as printed.
func TestReviewCommand(t *testing.T) {
	dir := t.TempDir()
	rec := writeRecord(t, dir, board.NameKatro6x3, "a1 a6 a1 c6 c1 b6 a1 a6 a1 a6")
	out, pgn := filepath.Join(dir, "reviewed.jsonl"), filepath.Join(dir, "reviewed.pgn")
	stdout, stderr, st := runCLI("review", "--record", rec, "--game-index", "2", "--depth", "24", "--threads", "1", "--out", out, "--pgn", pgn)
	if st != exitOK {
		t.Fatalf("status %d, stderr %s", st, stderr)
	}
	var blunder string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "   9  S a1 ") {
			blunder = l
		}
	}
	if !strings.Contains(blunder, " blunder ") || !strings.Contains(blunder, "100.0 points") ||
		!(strings.Contains(blunder, "  b1 (b1 ") || strings.Contains(blunder, "  c1 (c1 ")) {
		t.Errorf("ply 9: %q, want a blunder losing 100 points with b1 or c1 and its line, in\n%s", blunder, stdout)
	}
	if !strings.Contains(stdout, "South (me): ") || !strings.Contains(stdout, "North (you): ") ||
		!strings.Contains(stderr, "review: position 11 of 11 searched") {
		t.Errorf("stdout\n%s\nstderr\n%s", stdout, stderr)
	}
	for _, path := range []string{out, pgn} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := record.ReadRecords(data)
		if err != nil || len(recs) != 2 {
			t.Fatalf("%s: %d records, %v", path, len(recs), err)
		}
		if recs[0].Moves[0].Review != nil {
			t.Errorf("%s: the first game, not reviewed, has a review", path)
		}
		r := recs[1].Moves[8].Review
		if r == nil || r.Mark != "blunder" || r.Loss != 1 || r.Line[0] != r.Best || !strings.Contains(blunder, r.Best+" ("+strings.Join(r.Line, " ")+")") {
			t.Errorf("%s: ply 9 reads back as %+v; printed %q", path, r, blunder)
		}
		if path == pgn {
			continue
		}
		// The JSON read back is the record reviewed again: the review
		// of a record that has one is the same review.
		stdout2, _, st := runCLI("review", "--record", out, "--game-index", "2", "--depth", "24", "--threads", "1", "--out", out)
		data2, _ := os.ReadFile(out)
		_, body, _ := strings.Cut(stdout, "\n")
		_, body2, _ := strings.Cut(stdout2, "\n")
		if st != exitOK || body2 != body || !reflect.DeepEqual(data, data2) {
			t.Errorf("reviewing the reviewed record in place: status %d, output or record changed", st)
		}
	}
}

// TestReviewBadInput checks review's bad inputs: each is exit status 2
// with one line naming the flag, before any search.
func TestReviewBadInput(t *testing.T) {
	dir := t.TempDir()
	rec := writeRecord(t, dir, board.NameKatro4x4, "a1 a4")
	junk := filepath.Join(dir, "junk.txt")
	os.WriteFile(junk, []byte("not a record\n"), 0o644)
	illegal := filepath.Join(dir, "illegal.jsonl")
	os.WriteFile(illegal, []byte(`{"variant":"katro-4x4","start":"2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 0","moves":[{"move":"a4"}]}`+"\n"), 0o644)
	missing := filepath.Join(dir, "missing.jsonl")
	for _, c := range []struct {
		args []string
		want string // the start of stderr after "sower: "
	}{
		{[]string{}, "--record is required"},
		{[]string{"--record", missing}, "--record: open " + missing + ": no such file or directory"},
		{[]string{"--record", junk}, "--record " + junk + ": line 1: movetext before the tags"},
		{[]string{"--record", illegal}, "--record " + illegal + ": game 0, ply 1: "},
		{[]string{"--record", rec, "--game-index", "3"}, "--game-index 3: want 1 to 2, the games in " + rec},
		{[]string{"--record", rec, "--game-index", "0"}, "--game-index 0: want 1 to 2"},
		{[]string{"--record", rec, "--depth", "3", "--nodes", "100"}, "give at most one of --depth, --movetime and --nodes"},
		{[]string{"--record", rec, "--movetime", "0"}, "--movetime 0: want more than 0 milliseconds"},
		{[]string{"--record", rec, "--hash", "0"}, "--hash 0: want 1 to 65536"},
		{[]string{"--record", rec, "--out", dir}, "--out " + dir + ": a directory, want a file"},
		{[]string{"--record", rec, "--pgn", filepath.Join(dir, "no", "such", "dir.pgn")}, "--pgn: open "},
		{[]string{"--record", rec, "--eval", "deep"}, "--eval deep: want auto, linear or net"},
		{[]string{"--record", rec, "--evallazy", "10001"}, "--evallazy 10001: want 0 to 10000"},
		{[]string{"--record", rec, "--evalfile", missing}, "--evalfile: open " + missing},
	} {
		stdout, stderr, st := runCLI(append([]string{"review"}, c.args...)...)
		if st != exitUsage || stdout != "" || !strings.HasPrefix(stderr, "sower: "+c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("review %v: status %d, stdout %q, stderr %q, want status 2 and %q", c.args, st, stdout, stderr, c.want)
		}
	}
}
