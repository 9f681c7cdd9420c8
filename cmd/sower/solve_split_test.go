package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// solve --split proves katro-4x4's start in pieces: a first run stopped
// by --split-steps leaves its tree in the file, a second run reads it and
// finishes, and its certificate (moves from the tree, then the solver's)
// is accepted by sower verify.
func TestSolveSplit(t *testing.T) {
	dir := t.TempDir()
	tree, proof := filepath.Join(dir, "t.split"), filepath.Join(dir, "p.txt")
	base := []string{"solve", "--game", "katro-4x4", "--hash", "16", "--first", "south", "--split", tree}
	stdout, stderr, st := runCLI(append(base, "--split-nodes", "100", "--split-steps", "2")...)
	if st != exitOK || !strings.Contains(stdout, "(a new tree)") || !strings.Contains(stdout, "not solved: root pn ") || !strings.Contains(stderr, "split: step 2: the root expanded (4 moves searched)") {
		t.Fatalf("the first run: status %d\nstdout %s\nstderr %s", st, stdout, stderr)
	}
	text, err := os.ReadFile(tree)
	if err != nil || !strings.HasPrefix(string(text), "sower-split 1\ngame katro-4x4\n") || strings.Count(string(text), "\n") != 6+5 {
		t.Fatalf("the tree file after two steps (the root and its 4 moves): %v\n%s", err, text)
	}
	stdout, stderr, st = runCLI(append(base, "--proof", proof)...)
	if st != exitOK || !strings.Contains(stdout, "(read back: 5 positions, ") || !strings.Contains(stdout, "leaves of 100 nodes") ||
		!regexp.MustCompile(`solved: South wins in at most \d+ plies, \d+ steps`).MatchString(stdout) {
		t.Fatalf("the second run: status %d\nstdout %s\nstderr %s", st, stdout, stderr)
	}
	if got, _, st := runCLI("verify", "--game", "katro-4x4", "--proof", proof); st != exitOK || !strings.HasPrefix(got, "proof holds: South wins ") {
		t.Fatalf("verify: status %d, %s", st, got)
	}
	// A settled tree answers at once, and North's question is another tree.
	stdout, _, st = runCLI(base...)
	if st != exitOK || !strings.Contains(stdout, "solved: South wins in at most ") || !strings.Contains(stdout, ", 0 steps, 0 nodes") {
		t.Errorf("the settled tree again: status %d\n%s", st, stdout)
	}
	north := filepath.Join(dir, "n.split")
	stdout, _, st = runCLI("solve", "--game", "katro-4x4", "--hash", "16", "--first", "north", "--split", north, "--split-nodes", "100")
	if st != exitOK || !strings.Contains(stdout, "disproven: North does not win (a loss or a draw for North)") {
		t.Errorf("North's tree: status %d\n%s", st, stdout)
	}
}

// solve --split refuses bad options and foreign trees before any search.
func TestSolveSplitRefuses(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "t.split")
	if _, _, st := runCLI("solve", "--game", "katro-4x4", "--hash", "16", "--first", "south", "--split", tree, "--split-nodes", "100", "--split-steps", "1"); st != exitOK {
		t.Fatalf("making a tree: status %d", st)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--split-nodes", "100"}, "--split-nodes: only with --split"},
		{[]string{"--split-steps", "3"}, "--split-steps: only with --split"},
		{[]string{"--split", tree, "--method", "ab"}, "--split: only for --method dfpn"},
		{[]string{"--split", tree, "--each"}, "--split: not with --each"},
		{[]string{"--split", tree, "--split-nodes", "0"}, "--split-nodes 0: want a leaf budget of at least 1 node"},
		{[]string{"--split", tree, "--split-steps", "-1"}, "--split-steps -1: want 0 (no limit) or more"},
		{[]string{"--split", dir}, "a directory, want a file"},
		{[]string{"--split", tree, "--first", "north"}, "--split " + tree + ": the tree proves south's win, not north's"},
		{[]string{"--split", tree, "--first", "south", "--moves", "a1"}, "the tree's root is 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 0, not "},
	} {
		args := append([]string{"solve", "--game", "katro-4x4", "--hash", "16"}, tc.args...)
		if _, stderr, st := runCLI(args...); st != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: status %d, stderr %q, want %q", tc.args, st, stderr, tc.want)
		}
	}
	if _, stderr, st := runCLI("solve", "--game", "katro-6x3", "--hash", "16", "--first", "south", "--split", tree); st != exitUsage || !strings.Contains(stderr, "the tree is of katro-4x4, not katro-6x3") {
		t.Errorf("another game's tree: status %d, %s", st, stderr)
	}
}
