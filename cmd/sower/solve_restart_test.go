package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// line36 is the katro-4x6 self-play line's first 36 plies (docs/dfpn.md):
// North wins there in about 130,000 nodes.
const line36 = "e1 c4 d1 f4 a1 f4 c1 c4 e1 b4 b1 a4 b1 c4 c1 e4 f1 f4 f1 d4 a1 a4 e1 f4 b1 d4 e1 f4 b1 b4 b1 a4 e1 c4 a1 a4"

// TestSolveRestart proves a katro-4x6 position in rounds of 20,000 nodes,
// each going back to the root after collecting the table: the verdict is
// the one proven in one search, the rounds are reported, and the
// certificate written at the end holds.
func TestSolveRestart(t *testing.T) {
	common := []string{"solve", "--game", "katro-4x6", "--moves", line36, "--hash", "16", "--first", "north"}
	stdout, _, st := runCLI(common...)
	verdict := "solved: a loss for the side to move (North wins in at most "
	if st != exitOK || !strings.Contains(stdout, verdict) {
		t.Fatalf("solve: status %d, %s", st, stdout)
	}
	proof := filepath.Join(t.TempDir(), "rounds.txt")
	stdout, stderr, st := runCLI(append(common, "--restart", "20000", "--proof", proof)...)
	if st != exitOK || !strings.Contains(stdout, verdict) || !strings.Contains(stdout, "proof written to "+proof) {
		t.Fatalf("solve --restart 20000: status %d\nstdout %s\nstderr %s", st, stdout, stderr)
	}
	rounds := regexp.MustCompile(`solve: round (\d+) ended at (\d+) nodes with the root open: back to the root, \d+ entries kept`).FindAllStringSubmatch(stderr, -1)
	if len(rounds) < 2 {
		t.Fatalf("solve --restart 20000: %d rounds reported, want several\n%s", len(rounds), stderr)
	}
	for i, r := range rounds {
		n, _ := strconv.Atoi(r[2])
		if r[1] != strconv.Itoa(i+1) || n < 20000*(i+1) || n > 21000*(i+1) {
			t.Errorf("round line %q: want round %d ending at about %d nodes", r[0], i+1, 20000*(i+1))
		}
	}
	stdout, _, st = runCLI("verify", "--game", "katro-4x6", "--moves", line36, "--proof", proof)
	if st != exitOK || !strings.HasPrefix(stdout, "proof holds: North wins") {
		t.Errorf("verify the proof found in rounds: status %d, %s", st, stdout)
	}
	for _, args := range [][]string{
		{"solve", "--game", "katro-4x4", "--each", "--restart", "1000"},
		{"solve", "--game", "katro-4x4", "--split", filepath.Join(t.TempDir(), "t.split"), "--restart", "1000"},
	} {
		if _, stderr, st := runCLI(args...); st != exitUsage || !strings.Contains(stderr, "--restart: only for a plain proof") {
			t.Errorf("%q: status %d, %s", args, st, stderr)
		}
	}
	if _, stderr, st := runCLI("solve", "--game", "katro-4x4", "--method", "ab", "--restart", "1000"); st != exitUsage || !strings.Contains(stderr, "--restart: only for --method dfpn") {
		t.Errorf("--method ab --restart: status %d, %s", st, stderr)
	}
}
