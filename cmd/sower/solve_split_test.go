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
	if st != exitOK || !strings.Contains(stdout, "(a new tree)") || !strings.Contains(stdout, "not solved: root pn ") || !strings.Contains(stderr, "solve: step 2: the root expanded (4 moves searched)") {
		t.Fatalf("the first run: status %d\nstdout %s\nstderr %s", st, stdout, stderr)
	}
	text, err := os.ReadFile(tree)
	if err != nil || !strings.HasPrefix(string(text), "sower-split 2\ngame katro-4x4\n") || strings.Count(string(text), "\n") != 8+5+1 {
		t.Fatalf("the tree file after two steps (the header, the root and its 4 moves, the end): %v\n%s", err, text)
	}
	// Read back without --first: the file's side.
	resume := []string{"solve", "--game", "katro-4x4", "--hash", "16", "--split", tree}
	stdout, stderr, st = runCLI(append(resume, "--proof", proof)...)
	if st != exitOK || !strings.Contains(stdout, "(read back: 5 positions, ") || !strings.Contains(stdout, "proving South's win, leaves of 100 nodes") ||
		!regexp.MustCompile(`solved: South wins \(the proof found wins in at most \d+ plies\), [1-9]\d* steps`).MatchString(stdout) {
		t.Fatalf("the second run: status %d\nstdout %s\nstderr %s", st, stdout, stderr)
	}
	if got, _, st := runCLI("verify", "--game", "katro-4x4", "--proof", proof); st != exitOK || !strings.HasPrefix(got, "proof holds: South wins ") {
		t.Fatalf("verify: status %d, %s", st, got)
	}
	// A settled tree answers at once, and North's question is another tree.
	stdout, _, st = runCLI(base...)
	if st != exitOK || !strings.Contains(stdout, "solved: South wins (the proof found wins in at most ") || !strings.Contains(stdout, "as the tree read back from "+tree+" says (--proof checks a proof), 0 steps, 0 nodes") {
		t.Errorf("the settled tree again: status %d\n%s", st, stdout)
	}
	north := filepath.Join(dir, "n.split")
	stdout, stderr, st = runCLI("solve", "--game", "katro-4x4", "--hash", "16", "--first", "north", "--split", north, "--split-nodes", "100", "--proof", filepath.Join(dir, "n.txt"))
	if st != exitOK || !strings.Contains(stdout, "disproven: North does not win (a loss or a draw for North)") || !strings.Contains(stderr, "sower: --proof: no certificate: North's win is not proven") {
		t.Errorf("North's tree: status %d\n%s\n%s", st, stdout, stderr)
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
		{[]string{"--split", tree, "--no-capture-limit", "40"}, `the tree is under the rule options "any capturer threefold 200" (capture side, last four, repetition, no-capture limit), not "any capturer threefold 40"`},
		{[]string{"--split", tree, "--save", tree}, "--split " + tree + " and --save " + tree + ": the same file"},
		{[]string{"--split", tree, "--proof", filepath.Join(dir, ".", "t.split")}, ": the same file (the tree would be overwritten)"},
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
