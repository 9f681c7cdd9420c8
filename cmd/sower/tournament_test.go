package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fourBuiltins is an engines file of four built-in players.
const fourBuiltins = `[{"name": "g1", "cmd": "builtin:greedy"}, {"name": "r1", "cmd": "builtin:random"},
 {"name": "g2", "cmd": "builtin:greedy"}, {"name": "r2", "cmd": "builtin:random"}]`

// TestTournamentCLI plays a round robin and a gauntlet of built-in
// players and checks the counts, the report and the records.
func TestTournamentCLI(t *testing.T) {
	file := writeEngines(t, fourBuiltins)
	for _, tc := range []struct {
		flag          string
		want, reports int // games, and reports at every 6 and at the end
		anchor        []string
	}{{"--round-robin", 18, 3, nil}, {"--gauntlet", 9, 2, []string{"--anchor", "r1"}}} {
		t.Run(tc.flag, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "games.jsonl")
			args := append([]string{"--engines", file, tc.flag, "--game", "katro-4x4", "--games", "3", "--random-plies", "2",
				"--concurrency", "2", "--report", "6", "--out", out}, tc.anchor...)
			stdout, stderr, err := matchCLI(args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if n := strings.Count(stderr, "Finished game "); n != tc.want {
				t.Errorf("%d games, want %d:\n%s", n, tc.want, stderr)
			}
			if n := strings.Count(stdout, "Crosstable"); n != tc.reports {
				t.Errorf("%d reports:\n%s", n, stdout)
			}
			if n := strings.Count(mustRead(t, out), `"pairing":`); n != tc.want {
				t.Errorf("%d records with a pairing, want %d", n, tc.want)
			}
			if tc.anchor != nil && !strings.Contains(stdout, "; r1 at 0;") {
				t.Errorf("the anchor is not named:\n%s", stdout)
			}
			if !strings.Contains(stderr, "pairings of 3 games") {
				t.Errorf("no header:\n%s", stderr)
			}
		})
	}
}

// TestTournamentCLIResume stops nothing but cuts the records of a
// finished tournament short and resumes it: the report and records end as
// the tournament played at once left them.
func TestTournamentCLIResume(t *testing.T) {
	file := writeEngines(t, fourBuiltins)
	dir := t.TempDir()
	args := func(out string, more ...string) []string {
		return append([]string{"--engines", file, "--round-robin", "--game", "katro-4x4", "--games", "3",
			"--random-plies", "2", "--seed", "7", "--out", out}, more...)
	}
	whole := filepath.Join(dir, "whole.jsonl")
	wantOut, _, err := matchCLI(args(whole)...)
	if err != nil {
		t.Fatal(err)
	}
	full := mustRead(t, whole)
	lines := strings.SplitAfter(full, "\n")
	cut := filepath.Join(dir, "cut.jsonl")
	if err := os.WriteFile(cut, []byte(strings.Join(lines[:7], "")+lines[7][:30]), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := matchCLI(args(cut, "--resume")...)
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "Resuming: 7 of 18 games played before") || strings.Count(stderr, "Finished game ") != 11 {
		t.Errorf("resuming:\n%s", stderr)
	}
	if stdout != wantOut {
		t.Errorf("report after resuming:\n%s\nwant:\n%s", stdout, wantOut)
	}
	if got := mustRead(t, cut); recordLines([]byte(got)) != recordLines([]byte(full)) {
		t.Errorf("resumed records:\n%s\nwant:\n%s", got, full)
	}

	// Another tournament's records are refused by game.
	_, _, err = matchCLI("--engines", file, "--gauntlet", "--game", "katro-4x4", "--games", "3",
		"--random-plies", "2", "--seed", "7", "--out", cut, "--resume")
	var u usageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "game ") {
		t.Errorf("a round robin's records resumed as a gauntlet: %v", err)
	}
	// And a match refuses a tournament's.
	_, _, err = matchCLI("--engine1", "builtin:greedy", "--engine2", "builtin:random", "--game", "katro-4x4", "--games", "36",
		"--out", cut, "--resume")
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "pairing") {
		t.Errorf("a tournament's records resumed as a match: %v", err)
	}
}

// TestTournamentUsage checks that a tournament is refused, by flag, where
// it cannot work.
func TestTournamentUsage(t *testing.T) {
	file := writeEngines(t, fourBuiltins)
	checkUsage(t, []usageCase{
		{"both formats", []string{"--engines", file, "--gauntlet", "--round-robin"}, "--gauntlet and --round-robin: give one"},
		{"sprt", []string{"--engines", file, "--gauntlet", "--sprt", "elo0=0", "elo1=5"}, "--sprt tests two engines"},
		{"anchor alone", []string{"--engines", file, "--engine", "name=g1", "--engine", "name=r1", "--anchor", "g1"}, "--anchor is for a tournament"},
		{"unknown anchor", []string{"--engines", file, "--round-robin", "--anchor", "x"}, "--anchor x: not an engine"},
		{"one engine", []string{"--engines", file, "--engine", "name=g1", "--round-robin"}, "at least two"},
		{"traditional", []string{"--engines", file, "--round-robin", "--game", "hoyito3", "--traditional-match"}, "--traditional-match is a match of two engines"},
		{"broker, log", []string{"--engines", file, "--round-robin", "--broker", "nats://127.0.0.1:1", "--log", "x"}, "--log with --broker"},
		{"broker, no repeat", []string{"--engines", file, "--round-robin", "--broker", "nats://127.0.0.1:1", "--repeat=false"}, "--repeat=false with --broker"},
	})
}

// TestTournamentSower plays a gauntlet of the sower binary against two
// copies of itself at other limits and a built-in player, with one
// engine process per engine and worker at a time.
func TestTournamentSower(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := fixtures.Sower(t, false)
	file := writeEngines(t, `[{"name": "d2", "cmd": "`+bin+`", "limit": "depth=2"}, {"name": "d1", "cmd": "`+bin+`", "limit": "depth=1"},
	  {"name": "n300", "cmd": "`+bin+`", "limit": "nodes=300"}, {"name": "greedy", "cmd": "builtin:greedy"}]`)
	log := filepath.Join(t.TempDir(), "log")
	stdout, stderr, err := matchCLI("--engines", file, "--gauntlet", "--game", "katro-4x4", "--games", "2", "--log", log, "--option", "Hash=2")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if n := strings.Count(stderr, "Finished game "); n != 6 {
		t.Errorf("%d games, want 6:\n%s", n, stderr)
	}
	if !strings.Contains(stdout, "Score of d2 vs greedy: ") || strings.Contains(stdout, "Forfeits") {
		t.Errorf("report:\n%s", stdout)
	}
	// d2 keeps its process through the gauntlet; the others start once.
	l := mustRead(t, log)
	for _, want := range []string{"d2(1) > uci", "d1(2) > uci", "n300(3) > uci"} {
		if !strings.Contains(l, want) {
			t.Errorf("the log lacks %q", want)
		}
	}
	if strings.Contains(l, "(4) > uci") {
		t.Errorf("more processes than engines were started")
	}
}
