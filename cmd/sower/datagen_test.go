package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/sower-engine/sower/eval/tune"
)

// runCLI runs one sower command in process.
func runCLI(args ...string) (stdout, stderr string, status int) {
	var out, errOut bytes.Buffer
	status = run(args, strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), status
}

// scanData scans a data file.
func scanData(t *testing.T, name string) tune.ScanResult {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc, err := tune.Scan(f)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestDatagenContinuesAndTunes writes data, continues the file after a
// record was cut short, and tunes on it.
func TestDatagenContinuesAndTunes(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "h.dat")
	args := []string{"datagen", "--game", "hoyito3", "--nodes", "200", "--random-plies", "4", "--out", data}
	if _, stderr, st := runCLI(append(args, "--games", "4")...); st != exitOK || !strings.Contains(stderr, "games 4/4") {
		t.Fatalf("datagen: status %d\n%s", st, stderr)
	}
	first := scanData(t, data)
	if len(first.Games) != 4 {
		t.Fatalf("%d games written, want 4", len(first.Games))
	}
	// Cut the last record short, as a crash while writing would, and
	// continue: the game cut short is dropped whole and played again.
	fi, _ := os.Stat(data)
	if err := os.Truncate(data, fi.Size()-5); err != nil {
		t.Fatal(err)
	}
	_, stderr, st := runCLI(append(args, "--games", "6")...)
	if st != exitOK || !strings.Contains(stderr, "playing the 3 others") ||
		!strings.Contains(stderr, "ended in a record cut short (23 bytes) and the ") {
		t.Fatalf("continuing: status %d\n%s", st, stderr)
	}
	second := scanData(t, data)
	if len(second.Games) != 6 || second.Valid != mustSize(t, data) {
		t.Fatalf("after continuing: %d games, %d records, valid %d of %d bytes", len(second.Games), second.Records, second.Valid, mustSize(t, data))
	}
	// Every game holds the records of an uninterrupted run.
	whole := filepath.Join(dir, "whole.dat")
	if _, stderr, st := runCLI(append(args[:len(args)-1], whole, "--games", "6")...); st != exitOK {
		t.Fatalf("datagen: status %d\n%s", st, stderr)
	}
	if got, want := gameRecords(t, data), gameRecords(t, whole); !reflect.DeepEqual(got, want) {
		t.Fatalf("records a game after continuing %v, in one run %v", got, want)
	}

	out := filepath.Join(dir, "w.go")
	// Six games are too few to hold some out: --valid 0 validates on the
	// training set.
	stdout, stderr, st := runCLI("tune", "--data", data, "--out", out, "--epochs", "3", "--valid", "0")
	if st != exitOK {
		t.Fatalf("tune: status %d\n%s%s", st, stdout, stderr)
	}
	for _, want := range []string{"epoch   1  train ", "validation loss: start ", "weights written to "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("tune output lacks %q:\n%s", want, stdout)
		}
	}
	src, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(src), "func builtinHoyito() Params") || !strings.Contains(string(src), "sower tune --data ") {
		t.Errorf("weights file: %v\n%s", err, src)
	}
}

// gameRecords returns the number of records of each game in a data file.
func gameRecords(t *testing.T, name string) map[uint32]int {
	t.Helper()
	n := map[uint32]int{}
	eachRecord(t, name, func(rec *tune.Record) { n[rec.Game]++ })
	return n
}

// eachRecord calls f with every record of a data file, in its order.
func eachRecord(t *testing.T, name string, f func(*tune.Record)) {
	t.Helper()
	file, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	r, err := tune.NewReader(file)
	if err != nil {
		t.Fatal(err)
	}
	var rec tune.Record
	for {
		if err := r.Read(&rec); errors.Is(err, io.EOF) {
			return
		} else if err != nil {
			t.Fatal(err)
		}
		f(&rec)
	}
}

// TestDatagenCountsGamesWithoutPositions checks that a rerun counts the
// games that kept no position as played: they are listed beside the data.
func TestDatagenCountsGamesWithoutPositions(t *testing.T) {
	dir := t.TempDir()
	data, openings := filepath.Join(dir, "h.dat"), filepath.Join(dir, "openings.txt")
	// The first opening's games are proven at once and keep no position;
	// the second's keep some.
	if err := os.WriteFile(openings, []byte("0,0,0,0,1,3/1,0,0,0,0,3 S 20 20 0\n0,0,0,0,0,4/4,0,0,0,0,0 S 20 20 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"datagen", "--game", "hoyito3", "--openings", openings, "--random-plies", "0", "--nodes", "2000", "--out", data}
	if _, stderr, st := runCLI(append(args, "--games", "6")...); st != exitOK {
		t.Fatalf("datagen: status %d\n%s", st, stderr)
	}
	list, err := os.ReadFile(data + ".empty")
	if got := gameRecords(t, data); err != nil || string(list) != "0\n2\n4\n" || len(got) != 3 || got[0]+got[2]+got[4] != 0 {
		t.Fatalf("records a game %v; list of games without positions %q (%v)", got, list, err)
	}
	size := mustSize(t, data)
	for _, c := range []struct {
		games int
		want  string
	}{
		{6, "and 3 games kept none (" + data + ".empty); all 6 games are played\n"},
		{6, "; all 6 games are played\n"},
		{8, "and 3 games kept none (" + data + ".empty); playing the 2 others\n"},
		{8, "; all 8 games are played\n"},
	} {
		_, stderr, st := runCLI(append(args, "--games", strconv.Itoa(c.games))...)
		if st != exitOK || !strings.Contains(stderr, c.want) {
			t.Fatalf("--games %d again: status %d, stderr %q, want %q", c.games, st, stderr, c.want)
		}
		if c.games == 6 && mustSize(t, data) != size {
			t.Fatalf("--games 6 again changed the data file")
		}
	}
}

func mustSize(t *testing.T, name string) int64 {
	t.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestDatagenTuneErrors checks the one-line errors for bad arguments and
// mismatched files.
func TestDatagenTuneErrors(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "k.dat")
	if _, stderr, st := runCLI("datagen", "--game", "katro-4x4", "--games", "2", "--nodes", "100", "--out", data); st != exitOK {
		t.Fatalf("datagen: %s", stderr)
	}
	junk := filepath.Join(dir, "junk.dat")
	os.WriteFile(junk, []byte("not data"), 0o644)
	w := filepath.Join(dir, "w.go")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"datagen", "--games", "2"}, "--out: a data file is required"},
		{[]string{"datagen", "--games", "0", "--out", data}, "--games 0"},
		{[]string{"datagen", "--game", "hoyito3", "--games", "2", "--out", data}, "holds katro-4x4"},
		{[]string{"datagen", "--games", "2", "--out", junk}, "bad magic"},
		{[]string{"tune", "--out", w}, "--data: give at least one data file"},
		{[]string{"tune", "--data", data, "--out", "w.txt"}, "name the file *.go"},
		{[]string{"tune", "--game", "katro", "--data", data, "--out", w}, "holds katro-4x4 data, not katro"},
		{[]string{"tune", "--data", junk, "--game", "katro-4x4", "--out", w}, "bad magic"},
		{[]string{"tune", "--data", junk, "--out", w}, "bad magic"},
		{[]string{"datagen", "--games", "2", "--hash", "0", "--out", data}, "--hash 0"},
		{[]string{"tune", "--data", data, "--game", "katro-4x4", "--lambda", "2", "--out", w}, "--lambda 2"},
	} {
		_, stderr, st := runCLI(c.args...)
		if st == exitOK || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: status %d, stderr %q, want one line with %q", c.args, st, stderr, c.want)
		}
	}
}

// TestTuneFlags checks that each bad value of a tune flag is refused, before
// any data is read, with a line naming that flag and its value.
func TestTuneFlags(t *testing.T) {
	dir := t.TempDir()
	base := []string{"tune", "--data", filepath.Join(dir, "none.dat"), "--game", "katro", "--out", filepath.Join(dir, "w.go")}
	for _, c := range []struct {
		flag, value, want string
	}{
		{"lambda", "NaN", "--lambda NaN: want a finite number"},
		{"lambda", "-Inf", "--lambda -Inf: want a finite number"},
		{"k", "NaN", "--k NaN: want a finite number"},
		{"k", "Inf", "--k +Inf: want a finite number"},
		{"valid", "NaN", "--valid NaN: want a finite number"},
		{"rate", "Inf", "--rate +Inf: want a finite number"},
		{"rate", "NaN", "--rate NaN: want a finite number"},
		{"rate", "0", "--rate 0: want more than 0"},
		{"rate", "-0.5", "--rate -0.5: want more than 0"},
		{"batch", "0", "--batch 0: want more than 0"},
		{"epochs", "-1", "--epochs -1: want 0 or more"},
		{"patience", "-2", "--patience -2: want 0 or more"},
		{"lambda", "1.5", "--lambda 1.5: want 0 to 1"},
		{"k", "-1", "--k -1: want 0 (fit) or more"},
		{"valid", "1", "--valid 1: want 0 or more, below 1"},
	} {
		args := append(append([]string(nil), base...), "--"+c.flag, c.value)
		stdout, stderr, st := runCLI(args...)
		if st != exitUsage || stdout != "" || stderr != "sower: "+c.want+"\n" {
			t.Errorf("--%s %s: status %d, stdout %q, stderr %q, want %q", c.flag, c.value, st, stdout, stderr, c.want)
		}
	}
}
