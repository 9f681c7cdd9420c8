package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// matchCLI runs "sower match args…" in process.
func matchCLI(args ...string) (stdout, stderr string, err error) {
	var out, errOut bytes.Buffer
	c := &cli{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	err = c.match(args)
	return out.String(), errOut.String(), err
}

func TestMatchBuiltins(t *testing.T) {
	dir := t.TempDir()
	out, pgn := filepath.Join(dir, "games.jsonl"), filepath.Join(dir, "games.txt")
	stdout, stderr, err := matchCLI("--engine1", "builtin:random", "--engine2", "builtin:greedy",
		"--game", "hoyito3", "--games", "6", "--concurrency", "2", "--random-plies", "2", "--seed", "9",
		"--report", "2", "--out", out, "--pgn", pgn,
		"--sprt", "elo0=0", "elo1=5", "alpha=0.05", "beta=0.05")
	if err != nil {
		t.Fatalf("match: %v\n%s", err, stderr)
	}
	if n := strings.Count(stdout, "Score of random vs greedy: "); n != 3 {
		t.Errorf("%d reports, want 3 (games 2, 4 and the end):\n%s", n, stdout)
	}
	for _, want := range []string{"Elo difference: ", "LOS: ", "DrawRatio: ", "SPRT: llr ", "lbound -2.94, ubound 2.94"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	if n := strings.Count(stderr, "Finished game "); n != 6 {
		t.Errorf("%d progress lines:\n%s", n, stderr)
	}
	if strings.Contains(stdout+stderr, "nan") {
		t.Errorf("a report or progress line says nan:\n%s\n%s", stdout, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil || strings.Count(string(b), "\n") != 6 {
		t.Errorf("--out: %d lines, %v", strings.Count(string(b), "\n"), err)
	}
	b, err = os.ReadFile(pgn)
	if err != nil || strings.Count(string(b), `[Variant "hoyito3"]`) != 6 {
		t.Errorf("--pgn: %v\n%s", err, b)
	}
}

// TestMatchHelp checks that match --help gives the default time margin
// and says that --concurrency counts game pairs, as the code plays them.
func TestMatchHelp(t *testing.T) {
	stdout, _, st := runCLI("match", "--help")
	for _, want := range []string{
		"before it loses on time (delays of a busy machine included) (default 200)",
		"game pairs to play at once, each with its own engine processes",
	} {
		if st != exitOK || !strings.Contains(stdout, want) {
			t.Errorf("match --help: status %d, no %q in\n%s", st, want, stdout)
		}
	}
}

// TestMatchUsage checks that bad configurations fail before any game with
// one line and exit status 2.
func TestMatchUsage(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-engine")
	openings := filepath.Join(dir, "openings.txt")
	if err := os.WriteFile(openings, []byte("# one bad line\n1,2 S 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, g := "builtin:random", "builtin:greedy"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no engine1", []string{"--engine2", r}, "--engine1 is required"},
		{"no engine2", []string{"--engine1", r}, "--engine2 is required"},
		{"missing binary", []string{"--engine1", missing, "--engine2", r, "--depth", "2"}, "engine1 (no-such-engine): "},
		{"unknown builtin", []string{"--engine1", "builtin:perfect", "--engine2", r}, "unknown built-in player"},
		{"bad tc", []string{"--engine1", r, "--engine2", g, "--tc", "10+x"}, "--tc: "},
		{"bad tc 2", []string{"--engine1", r, "--engine2", g, "--tc", "fast"}, "--tc: "},
		{"unknown variant", []string{"--engine1", r, "--engine2", g, "--game", "oware"}, "--game: "},
		{"bad option", []string{"--engine1", r, "--engine2", g, "--option1", "Hash"}, "--option1: "},
		{"bad limit", []string{"--engine1", r, "--engine2", g, "--limit2", "depth=x"}, "--limit2: "},
		{"bad capture side", []string{"--engine1", r, "--engine2", g, "--capture-side", "mine"}, "--capture-side: "},
		{"bad games", []string{"--engine1", r, "--engine2", g, "--games", "0"}, "--games 0"},
		{"bad sprt", []string{"--engine1", r, "--engine2", g, "--sprt", "elo0=5", "elo1=0"}, "--sprt: "},
		{"empty sprt", []string{"--engine1", r, "--engine2", g, "--sprt"}, "--sprt: "},
		{"openings and plies", []string{"--engine1", r, "--engine2", g, "--openings", openings, "--random-plies", "4"}, "not both"},
		{"bad resign", []string{"--engine1", r, "--engine2", g, "--resign", "movecount=3"}, "--resign: "},
		{"bad draw", []string{"--engine1", r, "--engine2", g, "--draw", "ply=3 moves=2"}, "--draw: "},
		{"bad order", []string{"--engine1", r, "--engine2", g, "--openings-order", "shuffled"}, `--openings-order "shuffled": want sequential or random`},
		{"random order without a file", []string{"--engine1", r, "--engine2", g, "--openings-order", "random"}, "give one"},
		{"bad period", []string{"--engine1", r, "--engine2", g, "--tc", "0/60"}, "--tc: "},
		{"inf alone", []string{"--engine1", "sower", "--engine2", g, "--tc", "inf"}, "no time control"},
		{"no repeat on a broker", []string{"--engine1", r, "--engine2", g, "--repeat=false", "--broker", "nats://127.0.0.1:1"}, "--repeat=false with --broker"},
		{"bad openings", []string{"--engine1", r, "--engine2", g, "--openings", openings}, "line 2: "},
		{"missing openings", []string{"--engine1", r, "--engine2", g, "--openings", filepath.Join(dir, "none")}, "no such file"},
		{"traditional katro", []string{"--engine1", r, "--engine2", g, "--traditional-match"}, "hoyito3"},
		{"traditional last four", []string{"--engine1", r, "--engine2", g, "--game", "hoyito3", "--traditional-match", "--last-four", "south"}, "leave out --last-four"},
		{"unknown flag", []string{"--engine1", r, "--engine2", g, "--fast"}, "unknown flag"},
		{"stray argument", []string{"--engine1", r, "--engine2", g, "extra"}, "unexpected argument"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, _, err := matchCLI(tc.args...)
			var u usageError
			if !errors.As(err, &u) {
				t.Fatalf("error %v, want a usage error", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			}
			var errOut bytes.Buffer
			c := &cli{stdout: &bytes.Buffer{}, stderr: &errOut}
			if code := c.fail(err); code != exitUsage {
				t.Errorf("exit status %d, want %d", code, exitUsage)
			}
			if strings.Count(errOut.String(), "\n") != 1 {
				t.Errorf("not one line: %q", errOut.String())
			}
			if stdout != "" {
				t.Errorf("output before the error: %q", stdout)
			}
		})
	}
}

func TestJoinSPRT(t *testing.T) {
	tests := []struct{ in, want []string }{
		{[]string{"--sprt", "elo0=0", "elo1=5", "alpha=0.05", "beta=0.05", "--games", "4"},
			[]string{"--sprt=elo0=0 elo1=5 alpha=0.05 beta=0.05", "--games", "4"}},
		{[]string{"--sprt", "elo0=0 elo1=5"}, []string{"--sprt=elo0=0 elo1=5"}},
		{[]string{"--sprt=elo0=-3", "elo1=1", "model=logistic"}, []string{"--sprt=elo0=-3 elo1=1 model=logistic"}},
		{[]string{"--games", "4", "--sprt"}, []string{"--games", "4", "--sprt="}},
		{[]string{"--", "--sprt", "elo0=1"}, []string{"--", "--sprt", "elo0=1"}},
		{[]string{"--engine1", "x"}, []string{"--engine1", "x"}},
		{[]string{"--draw", "ply=40", "movecount=8", "score=10", "--resign", "movecount=3", "score=600", "elo0=1"},
			[]string{"--draw=ply=40 movecount=8 score=10", "--resign=movecount=3 score=600", "elo0=1"}},
		{[]string{"--name1", "draw=x", "--drawn"}, []string{"--name1", "draw=x", "--drawn"}},
	}
	for _, tc := range tests {
		if got := joinSPRT(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("joinSPRT(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestMatchSowerSelfPlay plays two copies of the sower binary over pipes.
func TestMatchSowerSelfPlay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := fixtures.Sower(t, false)
	out := filepath.Join(t.TempDir(), "games.jsonl")
	stdout, stderr, err := matchCLI("--engine1", bin, "--engine2", bin, "--game", "katro-4x4",
		"--games", "2", "--depth", "2", "--limit2", "nodes=500", "--option1", "Hash=4", "--out", out)
	if err != nil {
		t.Fatalf("match: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "Score of sower-1 vs sower-2: ") {
		t.Errorf("report:\n%s", stdout)
	}
	b, _ := os.ReadFile(out)
	if strings.Count(string(b), `"termination":"normal"`) != 2 {
		t.Errorf("records:\n%s\nprogress:\n%s", b, stderr)
	}

	// An option the engine refuses is bad configuration.
	_, _, err = matchCLI("--engine1", bin, "--engine2", "builtin:random", "--depth", "1", "--option1", "Hsh=4")
	var u usageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "rejects its options") {
		t.Errorf("refused option: %v, want a usage error", err)
	}

	// A log that cannot be written stops the match.
	if _, err := os.Stat("/dev/full"); err == nil {
		_, _, err = matchCLI("--engine1", bin, "--engine2", "builtin:random", "--depth", "1", "--log", "/dev/full")
		if err == nil || !strings.Contains(err.Error(), "writing the log") {
			t.Errorf("--log /dev/full: %v, want an error writing the log", err)
		}
	}
}
