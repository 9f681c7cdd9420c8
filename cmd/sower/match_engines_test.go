package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeEngines writes an engines file into a test directory.
func writeEngines(t *testing.T, data string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "engines.json")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMatchEnginesFile plays a match between two engines chosen by name
// from an engines file.
func TestMatchEnginesFile(t *testing.T) {
	file := writeEngines(t, `[{"name": "rnd", "cmd": "builtin:random"}, {"name": "grd", "cmd": "builtin:greedy"}, {"name": "x", "cmd": "builtin:random"}]`)
	stdout, stderr, err := matchCLI("--engines", file, "--engine", "name=grd", "--engine", "name=rnd", "--game", "katro-4x4", "--games", "2")
	if err != nil {
		t.Fatalf("match: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "Score of grd vs rnd: ") {
		t.Errorf("report:\n%s", stdout)
	}
}

// TestMatchEnginesFileSower runs the sower binary from an engines file
// entry with a working directory, a relative command, an option of its
// own and one for every engine (--option).
func TestMatchEnginesFileSower(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := fixtures.Sower(t, false)
	dir := filepath.Dir(bin)
	file := writeEngines(t, `[{"name": "here", "cmd": "./`+filepath.Base(bin)+`", "dir": "`+dir+`", "options": {"Hash": 2}, "limit": "depth=1"},
	  {"name": "nodes", "cmd": "`+bin+`"}]`)
	log := filepath.Join(t.TempDir(), "log")
	stdout, stderr, err := matchCLI("--engines", file, "--game", "katro-4x4", "--games", "2", "--nodes", "300", "--option", "Hash=3", "--log", log)
	if err != nil {
		t.Fatalf("match: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "Score of here vs nodes: ") {
		t.Errorf("report:\n%s", stdout)
	}
	b := mustRead(t, log)
	for _, want := range []string{"setoption name Hash value 2", "setoption name Hash value 3", "go depth 1", "go nodes 300"} {
		if !strings.Contains(b, want) {
			t.Errorf("the log lacks %q", want)
		}
	}
	for _, l := range strings.Split(b, "\n") {
		if strings.Contains(l, " here(") && strings.Contains(l, "> setoption name Hash value 3") {
			t.Errorf("--option Hash=3 reached the engine that sets its own Hash: %s", l)
		}
	}
}

// TestMatchEnginesUsage checks that the engines file and --engine are
// refused, by name, when wrong.
func TestMatchEnginesUsage(t *testing.T) {
	good := writeEngines(t, `[{"name": "a", "cmd": "builtin:random"}, {"name": "b", "cmd": "builtin:greedy"}, {"name": "c", "cmd": "builtin:random"}]`)
	bad := writeEngines(t, `[{"name": "a", "cmd": "builtin:random"}, {"name": "b", "cmd": "sower", "limit": "depth=0"}]`)
	tests := []usageCase{
		{"bad entry", []string{"--engines", bad}, `--engines ` + bad + `: entry 2 ("b"): field "limit": `},
		{"no file", []string{"--engine", "name=a"}, "--engine chooses from an engines file: give --engines FILE"},
		{"missing file", []string{"--engines", good + ".none"}, "--engines: "},
		{"unknown name", []string{"--engines", good, "--engine", "name=d", "--engine", "name=a"}, "--engine name=d: no such engine"},
		{"not name=", []string{"--engines", good, "--engine", "a", "--engine", "name=b"}, `--engine "a": want name=NAME`},
		{"three", []string{"--engines", good}, "3 engines chosen; a match needs two"},
		{"engine1 too", []string{"--engines", good, "--engine", "name=a", "--engine", "name=b", "--engine1", "builtin:random"}, "--engine1 with --engines"},
		{"limit2 too", []string{"--engines", good, "--engine", "name=a", "--engine", "name=b", "--limit2", "depth=2"}, "--limit2 with --engines"},
		{"bad each option", []string{"--engines", good, "--engine", "name=a", "--engine", "name=b", "--option", "Hash"}, "--option: "},
	}
	checkUsage(t, tests)
}

// usageCase is a sower match command line refused with a usage error
// that says want.
type usageCase struct {
	name string
	args []string
	want string
}

// checkUsage runs each case's sower match and checks its usage error.
func checkUsage(t *testing.T, tests []usageCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := matchCLI(tc.args...)
			var u usageError
			if !errors.As(err, &u) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want a usage error containing %q", err, tc.want)
			}
		})
	}
}
