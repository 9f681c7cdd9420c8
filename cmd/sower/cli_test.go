package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// runMem runs one sower command in process on a machine with availMiB MiB
// available for hash tables.
func runMem(availMiB int, args ...string) (stdout, stderr string, status int) {
	var out, errOut bytes.Buffer
	c := &cli{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut,
		availMiB: func() (int, bool) { return availMiB, true }}
	status = c.run(args)
	return out.String(), errOut.String(), status
}

// withHash returns args with --hash mib added.
func withHash(args []string, mib string) []string {
	return append(append([]string(nil), args...), "--hash", mib)
}

// TestHashMemory checks that every command with --hash refuses tables the
// machine cannot spare, sized as the command makes them (the engine's, the
// solver's smaller one, one per datagen engine), before any work.
func TestHashMemory(t *testing.T) {
	data := filepath.Join(t.TempDir(), "d.dat")
	solve := []string{"solve", "--game", "katro-6x3", "--depth", "1"}
	analyse := []string{"analyse", "--game", "katro-4x4", "--depth", "1"}
	datagen := []string{"datagen", "--game", "katro-4x4", "--games", "1", "--nodes", "10", "--out", data}
	datagen2 := append(slices.Clone(datagen), "--concurrency", "2")
	for _, c := range []struct {
		args   []string
		avail  int
		hash   string
		tables string // "" when it fits
	}{
		{solve, 100, "512", "a table of 341 MiB"},
		{solve, 100, "32", ""}, // 21 MiB, within 100·7/8−64 = 23
		{analyse, 100, "512", "a table of 512 MiB"},
		{analyse, 100, "32", "a table of 32 MiB"},
		{analyse, 100, "8", ""},
		{datagen, 100, "512", "a table of 512 MiB"},
		{datagen, 150, "64", ""}, // within 150·7/8−64 = 67
		{datagen2, 150, "64", "2 tables of 64 MiB"},
		{datagen2, 150, "16", ""},
	} {
		args := withHash(c.args, c.hash)
		stdout, stderr, st := runMem(c.avail, args...)
		if c.tables == "" {
			if st != exitOK {
				t.Errorf("%v with %d MiB available: status %d, stderr %q", args, c.avail, st, stderr)
			}
			continue
		}
		want := fmt.Sprintf("--hash: hash size %s MiB (%s): more than this machine can spare now (%d MiB available", c.hash, c.tables, c.avail)
		if st != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%v with %d MiB available: status %d, stdout %q, stderr %q; want %q", args, c.avail, st, stdout, stderr, want)
		}
	}
}

// runQuick runs one sower command in process and fails t if it has not
// returned within a few seconds (a command left to search without end).
func runQuick(t *testing.T, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	type result struct {
		stdout, stderr string
		status         int
	}
	done := make(chan result, 1)
	go func() {
		o, e, st := runCLI(args...)
		done <- result{o, e, st}
	}()
	select {
	case r := <-done:
		return r.stdout, r.stderr, r.status
	case <-time.After(20 * time.Second):
		t.Fatalf("%v: still running after 20 s", args)
	}
	return "", "", 0
}

// TestLimitsAboveZero checks that a search limit of 0 or less, which
// would mean no limit at all, is refused with the flag's range.
func TestLimitsAboveZero(t *testing.T) {
	data := filepath.Join(t.TempDir(), "d.dat")
	dg := []string{"datagen", "--game", "hoyito3", "--games", "1", "--out", data}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"analyse", "--depth", "0"}, "--depth 0: want 1 to 127"},
		{[]string{"analyse", "--depth", "-3"}, "--depth -3: want 1 to 127"},
		{[]string{"analyse", "--movetime", "0"}, "--movetime 0: want more than 0 milliseconds"},
		{[]string{"analyse", "--movetime", "-5"}, "--movetime -5: want more than 0 milliseconds"},
		{[]string{"analyse", "--nodes", "0"}, "--nodes 0: want more than 0"},
		{append(dg, "--nodes", "0"), "--nodes 0: want more than 0"},
		{append(dg, "--depth", "0"), "--depth 0: want 1 to 127"},
		{append(dg, "--depth", "-1"), "--depth -1: want 1 to 127"},
		{[]string{"bench", "--depth", "0"}, "--depth 0: want 1 to 127"},
		{append(dg, "--nodes", "100", "--depth", "3"), "give --nodes or --depth, not both"},
		{[]string{"analyse", "--nodes", "100", "--depth", "3"}, "give at most one of --depth, --movetime and --nodes"},
	} {
		stdout, stderr, st := runQuick(t, c.args...)
		if st != exitUsage || stdout != "" || stderr != "sower: "+c.want+"\n" {
			t.Errorf("%v: status %d, stdout %q, stderr %q, want status 2 and %q", c.args, st, stdout, stderr, c.want)
		}
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("datagen with a bad limit made %s (%v)", data, err)
	}
}

// TestPerftIgnoresNoCaptureLimit checks that perft counts from a position
// at the no-capture limit as from the same position at clock 0 (rule book
// section 5), in both games and with --divide.
func TestPerftIgnoresNoCaptureLimit(t *testing.T) {
	for _, c := range []struct {
		game, fen string // fen without its clock
		divide    bool
		want      string // a line of the output at clock 0
	}{
		{"hoyito3", "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0", false, "nodes 158\n"},
		{"hoyito3", "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0", true, "\nnodes 158\n"},
		{"katro-4x4", "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S", false, "nodes "},
		{"katro-4x4", "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S", true, "\nnodes "},
	} {
		perft := func(clock string) (string, int) {
			args := []string{"perft", "--game", c.game, "--fen", c.fen + " " + clock, "--depth", "3"}
			if c.divide {
				args = append(args, "--divide")
			}
			stdout, _, st := runCLI(args...)
			return stdout, st
		}
		want, st := perft("0")
		if st != exitOK || !strings.Contains(want, c.want) {
			t.Fatalf("%s %s 0 (divide %v): status %d, stdout %q", c.game, c.fen, c.divide, st, want)
		}
		for _, clock := range []string{"199", "200", "500"} {
			if got, st := perft(clock); st != exitOK || got != want {
				t.Errorf("%s %s %s (divide %v): status %d, stdout %q, want %q", c.game, c.fen, clock, c.divide, st, got, want)
			}
		}
	}
	// A flag that could not change the count is refused.
	if _, stderr, st := runCLI("perft", "--depth", "1", "--no-capture-limit", "10"); st != exitUsage || !strings.Contains(stderr, "perft ignores the no-capture limit") {
		t.Errorf("--no-capture-limit: status %d, stderr %q", st, stderr)
	}
	if _, stderr, st := runCLI("perft", "--game", "hoyito3", "--depth", "1", "--repetition", "off"); st != exitUsage || !strings.Contains(stderr, "perft ignores repetition") {
		t.Errorf("--repetition: status %d, stderr %q", st, stderr)
	}
}

// TestHoyitoOptionsRefusedForKatro checks that the Hoyito III rule options
// are refused for a Katro game by every command that takes them.
func TestHoyitoOptionsRefusedForKatro(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"show", "--capture-side", "opponent"}, "--capture-side: a Hoyito III option; katro is a Katro game"},
		{[]string{"perft", "--game", "katro-4x4", "--depth", "1", "--last-four", "south"}, "--last-four: a Hoyito III option; katro-4x4 is a Katro game"},
		{[]string{"analyse", "--game", "katro-6x3", "--depth", "1", "--last-four", "capturer"}, "--last-four: a Hoyito III option; katro-6x3 is a Katro game"},
		{[]string{"match", "--engine1", "builtin:random", "--engine2", "builtin:random", "--game", "katro", "--capture-side", "any"}, "--capture-side: a Hoyito III option; katro is a Katro game"},
		{[]string{"show", "--repetition", "off"}, "--repetition: a Hoyito III option; katro is a Katro game"},
		{[]string{"eval", "--game", "katro-4x4", "--repetition", "threefold"}, "--repetition: a Hoyito III option; katro-4x4 is a Katro game"},
		{[]string{"solve", "--game", "katro-6x3", "--depth", "1", "--repetition", "off"}, "--repetition: a Hoyito III option; katro-6x3 is a Katro game"},
		{[]string{"datagen", "--game", "katro", "--games", "1", "--out", "x.dat", "--repetition", "off"}, "--repetition: a Hoyito III option; katro is a Katro game"},
		{[]string{"match", "--engine1", "builtin:random", "--engine2", "builtin:random", "--game", "katro", "--repetition", "off"}, "--repetition: a Hoyito III option; katro is a Katro game"},
	} {
		stdout, stderr, st := runCLI(c.args...)
		if st != exitUsage || stdout != "" || stderr != "sower: "+c.want+"\n" {
			t.Errorf("%v: status %d, stdout %q, stderr %q, want %q", c.args, st, stdout, stderr, c.want)
		}
	}
	if _, stderr, st := runCLI("show", "--game", "hoyito3", "--capture-side", "opponent", "--last-four", "north"); st != exitOK {
		t.Errorf("show --game hoyito3 with its options: status %d, %s", st, stderr)
	}
}

// TestEvalFinishedGame checks that eval gives a finished game's result
// instead of an evaluation.
func TestEvalFinishedGame(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "--game", "hoyito3", "--fen", "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 200"}, `game over: draw \(no-capture limit, 24-24\)\n`},
		{[]string{"eval", "--game", "hoyito3", "--fen", "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 0", "--no-capture-limit", "1", "--moves", "a1"},
			`game over: (South wins|North wins|draw) \(no-capture limit, [0-9]+-[0-9]+\)\n`},
		{[]string{"eval", "--game", "hoyito3", "--eval", "linear"}, "total "},
		{[]string{"eval", "--game", "katro"}, "total "},
	} {
		stdout, stderr, st := runCLI(c.args...)
		if st != exitOK || !regexp.MustCompile(c.want).MatchString(stdout) || strings.Contains(c.want, "game over") == strings.Contains(stdout, "total ") {
			t.Errorf("%v: status %d, stdout %q, stderr %q, want %q", c.args, st, stdout, stderr, c.want)
		}
	}
}
