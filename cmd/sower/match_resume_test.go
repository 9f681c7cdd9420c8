package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/sower-engine/sower/bench/record"
)

// A match stopped with a game half written resumes from its --out file:
// the torn line is cut off, the games there are counted, the others are
// played, and the file ends as the match played at once would leave it.
func TestMatchResume(t *testing.T) {
	dir := t.TempDir()
	args := func(out string, more ...string) []string {
		return append([]string{"--engine1", "builtin:random", "--engine2", "builtin:greedy", "--game", "katro-4x4",
			"--games", "7", "--random-plies", "3", "--seed", "4", "--out", out}, more...)
	}
	whole := filepath.Join(dir, "whole.jsonl")
	wantOut, _, err := matchCLI(args(whole)...)
	if err != nil {
		t.Fatal(err)
	}
	full, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(full), "\n")
	cut := filepath.Join(dir, "cut.jsonl")
	torn := lines[0] + lines[1] + lines[2] + lines[3][:40]
	if err := os.WriteFile(cut, []byte(torn), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := matchCLI(args(cut, "--resume")...)
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, stderr)
	}
	for _, want := range []string{"cut off an unfinished last line (40 bytes)", "Resuming: 3 of 7 games played before"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if n := strings.Count(stderr, "Finished game "); n != 4 {
		t.Errorf("%d games played on resuming, want 4:\n%s", n, stderr)
	}
	if stdout != wantOut {
		t.Errorf("report after resuming:\n%s\nwant the whole match's:\n%s", stdout, wantOut)
	}
	got, err := os.ReadFile(cut)
	if err != nil {
		t.Fatal(err)
	}
	// The records are those of the whole match (the date aside: it can
	// change between the runs).
	if g, w := recordLines(got), recordLines(full); g != w {
		t.Errorf("resumed file:\n%s\nwant:\n%s", got, full)
	}

	// Nothing left to play: the report only.
	_, stderr, err = matchCLI(args(cut, "--resume")...)
	if err != nil || strings.Contains(stderr, "Finished game") || !strings.Contains(stderr, "Resuming: 7 of 7") {
		t.Errorf("resuming a finished match: %v\n%s", err, stderr)
	}
	// A missing file starts the match.
	fresh := filepath.Join(dir, "new.jsonl")
	if _, _, err = matchCLI(args(fresh, "--resume")...); err != nil {
		t.Errorf("resuming into a new file: %v", err)
	}
	if b, err := os.ReadFile(fresh); err != nil || recordLines(b) != recordLines(full) {
		t.Errorf("resuming into a new file wrote:\n%s\n%v", b, err)
	}

	// A last record whole but for its newline is counted, and the newline
	// written before the games that follow.
	noNewline := filepath.Join(dir, "nonewline.jsonl")
	if err := os.WriteFile(noNewline, []byte(lines[0]+strings.TrimSuffix(lines[1], "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err = matchCLI(args(noNewline, "--resume")...); err != nil || !strings.Contains(stderr, "Resuming: 2 of 7") {
		t.Errorf("a last record without its newline: %v\n%s", err, stderr)
	}
	if b, _ := os.ReadFile(noNewline); recordLines(b) != recordLines(full) {
		t.Errorf("after a last record without its newline:\n%s", b)
	}
}

// recordLines returns the records of a file, one a line, without their
// dates and the time each move took (both can change between runs).
func recordLines(b []byte) string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r record.GameRecord
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			out = append(out, "unreadable: "+l)
			continue
		}
		r.Date = ""
		for i := range r.Moves {
			r.Moves[i].MS = 0
		}
		j, _ := json.Marshal(r)
		out = append(out, string(j))
	}
	return strings.Join(out, "\n")
}

// --resume refuses what it cannot continue, saying why.
func TestMatchResumeUsage(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.jsonl")
	if _, _, err := matchCLI("--engine1", "builtin:random", "--engine2", "builtin:greedy", "--game", "katro-4x4",
		"--games", "2", "--out", other); err != nil {
		t.Fatal(err)
	}
	notJSON := filepath.Join(dir, "games.txt")
	if err := os.WriteFile(notJSON, []byte("[Event \"x\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badLine := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(badLine, []byte("{\"game\": 1}\n{oops\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"--engine1", "builtin:random", "--engine2", "builtin:greedy", "--game", "katro-4x4", "--games", "4"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--resume"}, "--resume needs --out"},
		{[]string{"--resume", "--out", other, "--pgn", filepath.Join(dir, "g.pgn")}, "leave out --pgn"},
		{[]string{"--resume", "--out", notJSON}, "not the JSON records of a match"},
		{[]string{"--resume", "--out", badLine}, "line 2"},
		{[]string{"--resume", "--out", other, "--seed", "2", "--random-plies", "2"}, "game 1 was played in another match: start"},
	} {
		_, stderr, err := matchCLI(append(slices.Clone(base), tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q\n%s", tc.args, err, tc.want, stderr)
		}
	}
	// A file refused is not changed, its unfinished last line included.
	for _, tc := range []struct{ name, text string }{
		{"notes.txt", "my notes\nthe last line without its newline"},
		{"another.jsonl", strings.TrimSuffix(mustRead(t, other), "\n")},
		{"torn.jsonl", mustRead(t, other)[:len(mustRead(t, other))-30]},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := matchCLI(append(slices.Clone(base), "--resume", "--out", path, "--seed", "2", "--random-plies", "2")...)
		if b, _ := os.ReadFile(path); err == nil || string(b) != tc.text {
			t.Errorf("%s: %v; the file now %q", tc.name, err, b)
		}
	}
	// Not a file: a named pipe would block the read.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := matchCLI(append(slices.Clone(base), "--resume", "--out", fifo)...); err == nil || !strings.Contains(err.Error(), "reads a file, not") {
		t.Errorf("--out a named pipe: %v", err)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
