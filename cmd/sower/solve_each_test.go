package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// solve --each gives every move's value and what they prove of the root.
// Each winning line is checked apart: the position after the move solved
// alone from an empty table names the same winner, and the winner's
// certificate from there is accepted by sower verify (the rules alone).
func TestSolveEach(t *testing.T) {
	dir := t.TempDir()
	save := filepath.Join(dir, "each.dfpn")
	stdout, stderr, st := runCLI("solve", "--game", "katro-4x4", "--hash", "16", "--each", "--save", save)
	if st != exitOK || !strings.Contains(stderr, "dfpn: a1: ") {
		t.Fatalf("solve --each: status %d\nstdout %s\nstderr %s", st, stdout, stderr)
	}
	lines := regexp.MustCompile(`(?m)^([a-d]1): (South|North) wins in at most (\d+) plies, \d+ nodes`).FindAllStringSubmatch(stdout, -1)
	if len(lines) != 4 {
		t.Fatalf("want a line for each of South's 4 moves:\n%s", stdout)
	}
	southWins := ""
	for _, l := range lines {
		move, winner := l[1], l[2]
		if winner == "South" && southWins == "" {
			southWins = move
		}
		alone, _, st := runCLI("solve", "--game", "katro-4x4", "--hash", "16", "--moves", move)
		if st != exitOK || !strings.Contains(alone, "("+winner+" wins in at most ") {
			t.Errorf("after %s --each says %s wins; alone: status %d\n%s", move, winner, st, alone)
		}
		proof := filepath.Join(dir, move+".txt")
		if _, _, st := runCLI("solve", "--game", "katro-4x4", "--hash", "16", "--moves", move, "--proof", proof); st != exitOK {
			t.Fatalf("solve --moves %s --proof: status %d", move, st)
		}
		if got, _, st := runCLI("verify", "--game", "katro-4x4", "--moves", move, "--proof", proof); st != exitOK || !strings.HasPrefix(got, "proof holds: "+winner+" wins ") {
			t.Errorf("verify after %s: status %d, %s", move, st, got)
		}
	}
	if want := "solved: a win for the side to move (South wins by " + southWins + ")"; southWins == "" || !strings.Contains(stdout, want) {
		t.Errorf("want %q:\n%s", want, stdout)
	}
	// The saved table holds the root's proof: solving it again from the
	// table takes a handful of nodes.
	if _, err := os.Stat(save); err != nil {
		t.Fatal(err)
	}
	again, _, st := runCLI("solve", "--game", "katro-4x4", "--hash", "16", "--resume", save)
	if m := regexp.MustCompile(`South wins in at most \d+ plies\), (\d+) nodes`).FindStringSubmatch(again); st != exitOK || m == nil || len(m[1]) > 2 {
		t.Errorf("solve --resume the table of --each: status %d\n%s", st, again)
	}

	// A lost position: every move loses.
	lost := "8,2,1,1,2,0/0,1,3,7,1,1/0,0,2,8,1,0/1,1,0,1,2,5 S 0"
	stdout, _, st = runCLI("solve", "--game", "katro-4x6", "--fen", lost, "--hash", "16", "--each")
	if st != exitOK || strings.Count(stdout, ": North wins in at most ") != 5 || !strings.Contains(stdout, "solved: a loss for the side to move (every move of South loses)") {
		t.Errorf("solve --each of a lost position: status %d\n%s", st, stdout)
	}
	// A budget too small for any but the shortest proof: those moves are
	// open, and the root is not solved.
	stdout, _, st = runCLI("solve", "--game", "katro-4x4", "--hash", "16", "--each", "--each-nodes", "1")
	if st != exitOK || !strings.Contains(stdout, ": not proven within --each-nodes, ") || !regexp.MustCompile(`not solved: \d of 4 moves lose, open: [a-d]1`).MatchString(stdout) {
		t.Errorf("solve --each --each-nodes 1: status %d\n%s", st, stdout)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--each-nodes", "100"}, "--each-nodes: only with --each"},
		{[]string{"--each", "--proof", filepath.Join(dir, "p.txt")}, "--proof: not with --each"},
		{[]string{"--each", "--method", "ab"}, "--each: only for --method dfpn"},
		{[]string{"--each", "--fen", "0,0,0,0/0,0,0,0/8,8,8,0/0,0,0,8 N 0"}, "--each: the game is over"},
	} {
		args := append([]string{"solve", "--game", "katro-4x4", "--hash", "16"}, tc.args...)
		if _, stderr, st := runCLI(args...); st == exitOK || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: status %d, stderr %q, want %q", tc.args, st, stderr, tc.want)
		}
	}
}

// The verdict of --each, interrupted or not.
func TestEachVerdict(t *testing.T) {
	n := board.NoMove
	a1, b1 := board.HoleMove(0, 0), board.HoleMove(0, 1)
	for _, tc := range []struct {
		tally       eachTally
		moves       int
		interrupted bool
		want        string
	}{
		{eachTally{mover: board.South, winner: b1, lost: 1}, 4, false, "solved: a win for the side to move (South wins by b1)"},
		{eachTally{mover: board.South, winner: b1, open: []board.Move{a1}}, 2, true, "solved: a win for the side to move (South wins by b1); interrupted before every move's value"},
		{eachTally{mover: board.North, winner: n, lost: 2}, 2, false, "solved: a loss for the side to move (every move of North loses)"},
		{eachTally{mover: board.North, winner: n, lost: 1, drawn: []board.Move{a1}}, 2, false, "solved: a draw (no move of North wins; a1 draw)"},
		{eachTally{mover: board.South, winner: n, lost: 1, open: []board.Move{b1}}, 2, false, "not solved: 1 of 2 moves lose, open: b1"},
		{eachTally{mover: board.South, winner: n, open: []board.Move{a1, b1}}, 2, true, "interrupted: 0 of 2 moves lose, open: a1 b1"},
	} {
		if got := tc.tally.verdict(tc.moves, tc.interrupted); got != tc.want {
			t.Errorf("%+v, %d moves, interrupted %v: %q, want %q", tc.tally, tc.moves, tc.interrupted, got, tc.want)
		}
	}
}
