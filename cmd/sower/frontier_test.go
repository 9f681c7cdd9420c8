package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sower-engine/sower/bench/frontier"
	"github.com/sower-engine/sower/board"
)

// sower frontier makes katro-4x4 self-play lines, walks them back with a
// node limit into a results file, and sums them up; run again, it measures
// nothing and says the same.
func TestFrontier(t *testing.T) {
	dir := t.TempDir()
	lines, out := filepath.Join(dir, "lines.txt"), filepath.Join(dir, "out.jsonl")
	args := []string{"frontier", "--game", "katro-4x4", "--lines", lines, "--out", out, "--games", "4", "--play-nodes", "300",
		"--random-plies", "2", "--seed", "7", "--hash", "4", "--time", "0", "--nodes", "200000", "--estimate", "30"}
	stdout, stderr, st := runCLI(args...)
	if st != exitOK || !strings.Contains(stderr, "frontier: playing 4 self-play lines for "+lines) {
		t.Fatalf("status %d\nstdout %s\nstderr %s", st, stdout, stderr)
	}
	text, err := os.ReadFile(lines)
	if err != nil || !strings.HasPrefix(string(text), "# katro-4x4 self-play lines: 4 games, 300 nodes a move, 2 random plies, seed 7") {
		t.Fatalf("the lines file: %v\n%s", err, text)
	}
	records, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(records), "\n")
	rows := regexp.MustCompile(`(?m)^g\d+ +\d+ +\d+  (win|loss|draw|open) `).FindAllString(stdout, -1)
	if n == 0 || len(rows) != n || !strings.Contains(stdout, "(0 already)") {
		t.Fatalf("%d records in the file, %d rows on stdout:\n%s", n, len(rows), stdout)
	}
	summary := regexp.MustCompile(`(?s)median farthest proven: [\d.]+ plies before the end\nfit over \d+ proven positions 1 or more plies before the end: .*extrapolated, 30 plies before the end: `)
	if !summary.MatchString(stdout) {
		t.Fatalf("no summary:\n%s", stdout)
	}
	first := stdout[strings.Index(stdout, "\nline     measured"):]
	again, _, st := runCLI(args...)
	if st != exitOK || !strings.Contains(again, fmt.Sprintf("(%d already)", n)) || regexp.MustCompile(`(?m)^g\d+ +\d+ +\d+  (win|loss|draw|open) `).MatchString(again) {
		t.Fatalf("run again: status %d\n%s", st, again)
	}
	if got := again[strings.Index(again, "\nline     measured"):]; got != first {
		t.Errorf("the summary run again:\n%s\nwant\n%s", got, first)
	}
	if after, _ := os.ReadFile(out); string(after) != string(records) {
		t.Errorf("the results file changed on the second run")
	}
	// A walk with a larger limit begins each line after its farthest
	// position proven here.
	out2 := filepath.Join(dir, "out2.jsonl")
	args2 := append(args[:len(args):len(args)], "--nodes", "400000", "--after", out, "--out", out2)
	if _, stderr, st := runCLI(args2...); st != exitOK {
		t.Fatalf("--after: status %d, %s", st, stderr)
	}
	f, err := os.Open(out2)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	later, err := frontier.ReadRecords(f)
	if err != nil {
		t.Fatal(err)
	}
	f1, _ := os.Open(out)
	defer f1.Close()
	before, _ := frontier.ReadRecords(f1)
	starts := frontier.After(before)
	lengths := lineLengths(t, lines)
	seen := map[string]bool{}
	for _, r := range later {
		if want := min(starts[r.Line], lengths[r.Line]); !seen[r.Line] && r.Before != want {
			t.Errorf("--after: line %s began %d plies before the end, want %d", r.Line, r.Before, want)
		}
		seen[r.Line] = true
	}
	if len(seen) == 0 {
		t.Errorf("--after: nothing measured")
	}
	// Other limits on the same file are refused.
	if _, stderr, st := runCLI(append(args[:len(args):len(args)], "--nodes", "100")...); st != exitFail || !strings.Contains(stderr, "other settings") {
		t.Errorf("other limits: status %d, %s", st, stderr)
	}
}

// lineLengths returns the moves of each katro-4x4 line of a lines file,
// by name.
func lineLengths(t *testing.T, path string) map[string]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := board.New(board.NameKatro4x4)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := frontier.ReadLines(f, v)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, l := range ls {
		out[l.Name] = len(l.Moves)
	}
	return out
}

// sower frontier refuses what cannot work before any work.
func TestFrontierRefuses(t *testing.T) {
	dir := t.TempDir()
	lines, out := filepath.Join(dir, "l.txt"), filepath.Join(dir, "o.jsonl")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--game", "hoyito3", "--lines", lines, "--out", out}, "Katro only"},
		{[]string{"--lines", lines}, "--lines and --out are required"},
		{[]string{"--lines", lines, "--out", out, "--time", "0"}, "give a limit"},
		{[]string{"--lines", lines, "--out", out, "--step", "0"}, "--step 0"},
		{[]string{"--lines", lines, "--out", out, "--from", "0"}, "--from 0"},
		{[]string{"--lines", lines, "--out", out, "--after", filepath.Join(dir, "none.jsonl")}, "--after"},
		{[]string{"--lines", lines, "--out", out, "--after", lines}, "--after"},
		{[]string{"--lines", lines, "--out", dir}, "a directory"},
		{[]string{"--lines", lines, "--out", out, "--tasks", "3"}, "--tasks needs --broker"},
		{[]string{"--lines", lines, "--out", out, "--broker", "nats://127.0.0.1:1", "--threads", "2"}, "not with --threads"},
		{[]string{"--lines", lines, "--out", out, "--broker", "nats://127.0.0.1:1", "--time", "0", "--nodes", "5"}, "not with --threads or --nodes"},
		{[]string{"--lines", lines, "--out", out, "--broker", "nats://127.0.0.1:1", "--split-nodes", "0"}, "--split-nodes 0"},
		{[]string{"--lines", lines, "--out", out, "--broker", "nats://127.0.0.1:1", "--ack-wait", "0"}, "--ack-wait 0"},
	} {
		_, stderr, st := runCLI(append([]string{"frontier", "--hash", "4"}, tc.args...)...)
		if st != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: status %d, %s", tc.args, st, stderr)
		}
	}
	if _, err := os.Stat(lines); err == nil {
		t.Error("a refused run made the lines file")
	}
}
