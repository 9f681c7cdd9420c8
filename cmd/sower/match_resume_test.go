package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
	_, _, err = matchCLI(args(filepath.Join(dir, "new.jsonl"), "--resume")...)
	if err != nil {
		t.Errorf("resuming into a new file: %v", err)
	}
}

// recordLines drops the dates of records, one a line.
func recordLines(b []byte) string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if i := strings.Index(l, `"date":`); i >= 0 {
			l = l[:i]
		}
		out = append(out, l)
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
	if b, _ := os.ReadFile(badLine); !bytes.Equal(b, []byte("{\"game\": 1}\n{oops\n")) {
		t.Errorf("a refused file was changed: %q", b)
	}
}
