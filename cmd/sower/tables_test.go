package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/tables"
)

// TestTablesBuildAndProbe builds the 8-seed default tables through the
// command line, resumes (finding the layer present), and probes a position
// in text and JSON.
func TestTablesBuildAndProbe(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if st := run([]string{"tables", "build", "--seeds", "8", "--dir", dir}, nil, &out, &errb); st != exitOK {
		t.Fatalf("build: status %d, stderr %s", st, errb.String())
	}
	if !strings.Contains(out.String(), "layer  8: 75582 positions") || !strings.Contains(errb.String(), "tables build: layer 8: moves") {
		t.Fatalf("build output:\n%s\nstderr:\n%s", out.String(), errb.String())
	}
	out.Reset()
	if st := run([]string{"tables", "build", "--seeds", "8", "--dir", dir}, nil, &out, &errb); st != exitOK || !strings.Contains(out.String(), "present and checked") {
		t.Fatalf("resume: status %d, output %s", st, out.String())
	}
	// The answer itself is checked in package tables; here the output's
	// shape and its consistency: no move beats the position.
	out.Reset()
	fen := "0,0,1,2,0,1/1,0,2,0,1,0 N 40 0 0"
	if st := run([]string{"tables", "probe", "--dir", dir, "--fen", fen, "--json"}, nil, &out, &errb); st != exitOK {
		t.Fatalf("probe: status %d, stderr %s", st, errb.String())
	}
	var got probeJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("probe --json: %v in %s", err, out.String())
	}
	if got.Seeds != 8 || got.Lo > got.Hi || len(got.Moves) == 0 || len(got.Children) == 0 {
		t.Fatalf("probe --json: %+v", got)
	}
	for _, m := range got.Children {
		if m.Lo > got.Lo || m.Hi > got.Hi {
			t.Fatalf("move %s is better (%d, %d) than the position (%d, %d)", m.Move, m.Lo, m.Hi, got.Lo, got.Hi)
		}
	}
	out.Reset()
	errb.Reset()
	if st := run([]string{"tables", "probe", "--dir", dir, "--fen", "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 0"}, nil, &out, &errb); st != exitUsage ||
		!strings.Contains(errb.String(), "48 seeds on the board") {
		t.Fatalf("probe of a position above the tables: status %d, stderr %s", st, errb.String())
	}
	if st := run([]string{"tables", "build", "--seeds", "10", "--dir", dir}, nil, &out, &errb); st != exitUsage {
		t.Fatalf("build --seeds 10: status %d", st)
	}
	checkProbeMargins(t, dir, fen)
}

// checkProbeMargins checks probe's margins on fen with the tables in dir:
// the text under --repetition off differs from the default's and says which
// rule its figures are for; the JSON's final margin is the board margin
// plus the captures, the value sower solve proves under Repetition off;
// and the former field names carry the same numbers.
func checkProbeMargins(t *testing.T, dir, fen string) {
	t.Helper()
	probe := func(args ...string) string {
		stdout, stderr, st := runCLI(append([]string{"tables", "probe", "--dir", dir, "--fen", fen}, args...)...)
		if st != exitOK {
			t.Fatalf("probe %v: status %d, stderr %s", args, st, stderr)
		}
		return stdout
	}
	three, off := probe(), probe("--repetition", "off")
	if three == off {
		t.Fatalf("probe prints the same text with --repetition off:\n%s", off)
	}
	for _, c := range []struct{ text, want string }{
		{three, "rules     Repetition threefold: the bounds are the proof"},
		{three, "exact under Repetition off only"},
		{off, "rules     Repetition off: the exact margin is the answer"},
		{off, "exact under the active rule, Repetition off"},
	} {
		if !strings.Contains(c.text, c.want) {
			t.Errorf("probe text without %q:\n%s", c.want, c.text)
		}
	}
	var got probeJSON
	if err := json.Unmarshal([]byte(probe("--repetition", "off", "--json")), &got); err != nil {
		t.Fatal(err)
	}
	if got.BoardMargin == nil || got.FinalMargin == nil || got.Value == nil || *got.Value != *got.BoardMargin ||
		!slices.Equal(got.ValueMoves, got.BoardMarginMoves) || len(got.BoardMarginMoves) == 0 {
		t.Fatalf("probe --json margins: %+v", got)
	}
	// fen is North to move with 40 seeds captured by South and none by North.
	if *got.FinalMargin != *got.BoardMargin-40 {
		t.Errorf("final margin %d, board margin %d: want the board margin minus 40", *got.FinalMargin, *got.BoardMargin)
	}
	stdout, stderr, st := runCLI("solve", "--game", "hoyito3", "--repetition", "off", "--tables", dir, "--fen", fen)
	want := fmt.Sprintf("solved: value %+d (final seed margin", *got.FinalMargin)
	if st != exitOK || !strings.Contains(stdout, want) {
		t.Errorf("solve: status %d, stdout %s, stderr %s; want %q", st, stdout, stderr, want)
	}
}

// TestTablesKatroRefused checks that every command taking --tables refuses
// a Katro game the same way, before opening anything.
func TestTablesKatroRefused(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"analyse", "--game", "katro", "--depth", "2", "--tables", dir},
		{"show", "--game", "katro-4x4", "--tables", dir},
		{"solve", "--game", "katro-6x3", "--depth", "1", "--tables", dir},
	} {
		stdout, stderr, st := runCLI(args...)
		if st != exitUsage || stdout != "" || stderr != "sower: --tables: tables exist for hoyito3 only\n" {
			t.Errorf("%v: status %d, stdout %q, stderr %q", args, st, stdout, stderr)
		}
	}
}

// TestTablesFlags checks the flags tables build shows and takes: those of
// the tables' game only, with its default, and --threads within range.
func TestTablesFlags(t *testing.T) {
	for _, c := range []struct {
		args    []string
		status  int
		want    string // in stdout with --help, else all of stderr
		notWant string // not in stdout
	}{
		{[]string{"tables", "build", "--help"}, exitOK, `game: hoyito3, the only one with tables (default "hoyito3")`, "--fen"},
		{[]string{"tables", "build", "--help"}, exitOK, "--no-capture-limit int   the no-capture limit the exact values are for", "--fen"},
		{[]string{"tables", "build", "--help"}, exitOK, "--last-four", "--repetition"}, // one set serves both
		{[]string{"tables", "probe", "--help"}, exitOK, "--repetition", "--seeds"},
		{[]string{"tables", "probe", "--help"}, exitOK, `game: hoyito3, the only one with tables (default "hoyito3")`, "katro"},
		{[]string{"tables", "build", "--fen", "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 0"}, exitUsage, "sower: unknown flag: --fen\n", ""},
		{[]string{"tables", "build", "--no-capture-limit", "-1"}, exitUsage, "sower: --no-capture-limit -1: want 0 (off) to 1000000 plies\n", ""},
		{[]string{"tables", "build", "--no-capture-limit", "0", "--repetition", "off"}, exitUsage, "sower: --repetition off with --no-capture-limit 0: nothing would end a game without captures; give a limit or --repetition threefold\n", ""},
		{[]string{"tables", "build", "--threads", "100000"}, exitUsage, "sower: --threads 100000: want 1 to 256\n", ""},
		{[]string{"tables", "build", "--threads", "0"}, exitUsage, "sower: --threads 0: want 1 to 256\n", ""},
	} {
		stdout, stderr, st := runCLI(c.args...)
		got := stderr
		if c.status == exitOK {
			got = stdout
		}
		if st != c.status || !strings.Contains(got, c.want) || (c.status != exitOK && got != c.want) ||
			(c.notWant != "" && strings.Contains(stdout, c.notWant)) {
			t.Errorf("%v: status %d, stdout %q, stderr %q, want status %d, %q and not %q", c.args, st, stdout, stderr, c.status, c.want, c.notWant)
		}
	}
}

// TestTablesBuildRemovesLeftovers lays the temporary files of a killed
// build next to a built layer: the next build of the set removes them,
// says so on stderr, keeps every other file and leaves the layer byte for
// byte as it was.
func TestTablesBuildRemovesLeftovers(t *testing.T) {
	dir := t.TempDir()
	build := func() (string, string) {
		t.Helper()
		stdout, stderr, st := runCLI("tables", "build", "--seeds", "8", "--dir", dir)
		if st != exitOK {
			t.Fatalf("build: status %d, stderr %s", st, stderr)
		}
		return stdout, stderr
	}
	build()
	opts := tables.Options{Limit: board.DefaultNoCaptureLimit}
	layer := filepath.Join(dir, opts.FileName(8))
	before, err := os.ReadFile(layer)
	if err != nil {
		t.Fatal(err)
	}
	gone := []string{
		opts.FileName(12) + ".tmp2606",                       // a layer being written
		".sowtb-changes-hoyito3-" + opts.String() + "-12-77", // its clock rounds' changes
		".sowtb-changes-55",                                  // as builders named them before
	}
	kept := []string{"notes.txt", tables.Options{Limit: 100}.FileName(12) + ".tmp2606"}
	for _, name := range append(slices.Clone(gone), kept...) {
		if err := os.WriteFile(filepath.Join(dir, name), before[:1000], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stdout, stderr := build()
	if !strings.Contains(stdout, "present and checked") {
		t.Errorf("the layer was not found built:\n%s", stdout)
	}
	for _, name := range gone {
		if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", name, err)
		}
		if !strings.Contains(stderr, "removed "+filepath.Join(dir, name)+" (0.0 MiB), a temporary file of an earlier build") {
			t.Errorf("stderr does not name %s:\n%s", name, stderr)
		}
	}
	for _, name := range kept {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if after, err := os.ReadFile(layer); err != nil || !bytes.Equal(before, after) {
		t.Errorf("the layer changed (%v)", err)
	}
}
