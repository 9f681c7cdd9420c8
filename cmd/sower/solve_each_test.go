package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn/each"
)

// solve --each gives every move's value and what they prove of the root.
// Each winning line is checked apart: the position after the move solved
// alone from an empty table names the same winner, and the winner's
// certificate from there is accepted by sower verify (the rules alone).
func TestSolveEach(t *testing.T) {
	dir := t.TempDir()
	save := filepath.Join(dir, "each.dfpn")
	stdout, stderr, st := runCLI("solve", "--game", "katro-4x4", "--hash", "16", "--each", "--save", save)
	if st != exitOK || !strings.Contains(stderr, "solve: a1: ") {
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
		tally       each.Tally
		interrupted bool
		want        string
	}{
		{each.Tally{Mover: board.South, Moves: 4, Winner: b1, Lost: 1}, false, "solved: a win for the side to move (South wins by b1)"},
		{each.Tally{Mover: board.South, Moves: 2, Winner: b1, Open: []board.Move{a1}}, true, "solved: a win for the side to move (South wins by b1); interrupted before every move's value"},
		{each.Tally{Mover: board.North, Moves: 2, Winner: n, Lost: 2}, false, "solved: a loss for the side to move (every move of North loses)"},
		{each.Tally{Mover: board.North, Moves: 2, Winner: n, Lost: 1, Drawn: []board.Move{a1}}, false, "solved: a draw (no move of North wins; a1 draw)"},
		{each.Tally{Mover: board.South, Moves: 2, Winner: n, Lost: 1, Open: []board.Move{b1}}, false, "not solved: 1 of 2 moves lose, open: b1"},
		{each.Tally{Mover: board.South, Moves: 2, Winner: n, Open: []board.Move{a1, b1}}, true, "interrupted: 0 of 2 moves lose, open: a1 b1"},
	} {
		if got := eachVerdict(&tc.tally, tc.interrupted); got != tc.want {
			t.Errorf("%+v, interrupted %v: %q, want %q", tc.tally, tc.interrupted, got, tc.want)
		}
	}
}

// solve --each --walk goes down the line left open: each step names the
// one open move and the opponent's try, and the next block of moves is
// solved at the position those two reach; the walk says why it stops.
func TestSolveEachWalk(t *testing.T) {
	v, err := board.New(board.NameKatro4x4)
	if err != nil {
		t.Fatal(err)
	}
	verdict := regexp.MustCompile(`(?m)^(not solved|solved|interrupted): .*$`)
	step := regexp.MustCompile(`(?m)^not solved: (\d) of (\d) moves lose, open: ([a-d]1), \d+ nodes, \d+ ms\nwalk: ([a-d]1) ([a-d]4) \(North's best try, pn (\d+)\): --moves "([^"]*)", (\S+ S \d+) \(South to move\)\n`)
	stops := regexp.MustCompile(`(?m)^walk: stops: .+\n\z`)
	for _, tc := range []struct{ moves, nodes, first string }{
		{"a1 a4", "3000", ""}, // the default, eval, is replaced by mover
		{"a1 a4", "3000", "north"},
		{"d1 b4", "10000", "mover"},
	} {
		args := []string{"solve", "--game", "katro-4x4", "--hash", "16", "--moves", tc.moves, "--each", "--each-nodes", tc.nodes}
		if tc.first != "" {
			args = append(args, "--first", tc.first)
		}
		stdout, _, st := runCLI(append(args, "--walk", "5")...)
		if st != exitOK {
			t.Fatalf("%v: status %d\n%s", tc, st, stdout)
		}
		steps := step.FindAllStringSubmatch(stdout, -1)
		if len(steps) == 0 || strings.Count(stdout, "\nwalk: ") != len(steps)+1 || !stops.MatchString(stdout) {
			t.Fatalf("%v: want steps and then the reason the walk stops:\n%s", tc, stdout)
		}
		line := tc.moves
		for _, s := range steps {
			if lost, moves := s[1], s[2]; lost[0]+1 != moves[0] || s[3] != s[4] {
				t.Errorf("%v: a step from a position where not all moves but %s lose:\n%s", tc, s[3], s[0])
			}
			line += " " + s[4] + " " + s[5]
			if s[7] != line {
				t.Errorf("%v: step --moves %q, want %q", tc, s[7], line)
			}
			moves, err := v.ParseMoves(line)
			if err != nil {
				t.Fatal(err)
			}
			g := board.NewGame(v.Start())
			if err := g.PlayAll(moves); err != nil {
				t.Fatalf("%v: the walk's line %q: %v", tc, line, err)
			}
			p := g.Position()
			if p.String() != s[8] {
				t.Errorf("%v: after %q the walk names %s, want %s", tc, line, s[8], p.String())
			}
			// The next block solves the legal moves of that position, and
			// only those.
			block := stdout[strings.Index(stdout, s[0])+len(s[0]):]
			block = block[:verdict.FindStringIndex(block)[0]]
			got := regexp.MustCompile(`(?m)^([a-d]1): `).FindAllStringSubmatch(block, -1)
			want := p.LegalMoves()
			if len(got) != len(want) {
				t.Fatalf("%v: after %q the block has %d moves, want %d (%s):\n%s", tc, line, len(got), len(want), board.FormatMoves(want), block)
			}
			for i, m := range want {
				if got[i][1] != m.String() {
					t.Errorf("%v: after %q the block's move %d is %s, want %s", tc, line, i, got[i][1], m)
				}
			}
		}
		// One step at most with --walk 1; none with --each alone.
		one, _, _ := runCLI(append(args, "--walk", "1")...)
		if n := strings.Count(one, "\nwalk: "); n != 2 || !stops.MatchString(one) || !strings.Contains(one, "\nwalk: "+steps[0][4]+" "+steps[0][5]+" ") {
			t.Errorf("%v --walk 1:\n%s", tc, one)
		}
		if none, _, _ := runCLI(args...); strings.Contains(none, "walk: ") || len(verdict.FindAllString(none, -1)) != 1 {
			t.Errorf("%v --each without --walk:\n%s", tc, none)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--walk", "2"}, "--walk: only with --each"},
		{[]string{"--walk", "0"}, "--walk: only with --each"},
		{[]string{"--each", "--walk", "-1"}, "--walk -1: want 0 or more"},
		{[]string{"--walk", "1", "--method", "ab"}, "--walk: only for --method dfpn"},
		{[]string{"--each", "--walk", "1", "--first", "south"}, "--first south: --walk asks first for North's win"},
		{[]string{"--each", "--walk", "1", "--first", "opponent"}, "--first opponent: --walk asks first"},
		{[]string{"--each", "--walk", "1", "--first", "eval"}, "--first eval: --walk asks first"},
	} {
		args := append([]string{"solve", "--game", "katro-4x4", "--hash", "16"}, tc.args...)
		if _, stderr, st := runCLI(args...); st == exitOK || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: status %d, stderr %q, want %q", tc.args, st, stderr, tc.want)
		}
	}
}
