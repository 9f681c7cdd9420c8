package main

import (
	"context"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
	"github.com/sower-engine/sower/eval/tune"
	"github.com/sower-engine/sower/tables"
)

// tables8 returns a directory of 8-seed Hoyito III tables for the default
// rules, built once per test binary (a few seconds).
func tables8(t *testing.T) string {
	t.Helper()
	return fixtures.Dir(t, "tables 8 default", func(dir string) error {
		return tables.Build(context.Background(), tables.BuildConfig{Dir: dir, Options: tables.OptionsFor(board.DefaultRules()), Seeds: 8})
	})
}

// exactInFile counts the records of a data file that tb knows exactly.
func exactInFile(t *testing.T, tb *tables.Tables, name string) (exact, all int) {
	t.Helper()
	eachRecord(t, name, func(rec *tune.Record) {
		all++
		if rec.Pos.OnBoard() > 8 {
			return
		}
		e, ok := tb.Probe(&rec.Pos)
		left := board.DefaultNoCaptureLimit - rec.Pos.Clock()
		n := rec.Pos.OnBoard()
		if ok && e.Lo == e.Hi && (e.DistLo <= left || e.Lo == -n) && (e.DistHi <= left || e.Hi == n) {
			exact++
		}
	})
	return exact, all
}

// TestTrainTables trains with 8-seed tables: the positions they know
// exactly under the data's rules (threefold repetition, so where the
// bounds meet within the clock) are counted as relabelled, the others
// not; a data file of other rules has none relabelled; two runs write the
// same network, and it differs from the one trained without the tables.
func TestTrainTables(t *testing.T) {
	dir := t.TempDir()
	tb := tables8(t)
	data := filepath.Join(dir, "h.dat")
	if _, stderr, st := runCLI("datagen", "--game", "hoyito3", "--nodes", "200", "--games", "40", "--seed", "4", "--out", data); st != exitOK {
		t.Fatalf("datagen: status %d\n%s", st, stderr)
	}
	set, err := tables.Open(tb, board.DefaultRules())
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	want, all := exactInFile(t, set, data)
	if want == 0 {
		t.Fatal("no position of the data is in the 8-seed tables: the test checks nothing")
	}
	count := regexp.MustCompile(`tables: (\d+) of (\d+) positions labelled with their exact result \(any-capturer-limit200, up to 8 seeds on the board\)`)
	nets := map[string]*nnue.Net{}
	for _, run := range []string{"tables", "again", "none"} {
		out := filepath.Join(dir, run+".nnue")
		args := []string{"train", "--data", data, "--out", out, "--batch", "64", "--epochs", "1"}
		if run != "none" {
			args = append(args, "--tables", tb)
		}
		stdout, stderr, st := runCLI(args...)
		if st != exitOK {
			t.Fatalf("%v: status %d\n%s", args, st, stderr)
		}
		m := count.FindStringSubmatch(stdout)
		if run == "none" {
			if m != nil {
				t.Errorf("train without --tables says: %s", m[0])
			}
		} else if m == nil || m[1] != strconv.Itoa(want) || m[2] != strconv.Itoa(all) {
			t.Errorf("train --tables, want %d of %d relabelled:\n%s", want, all, stdout)
		}
		n, err := nnue.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		n.Description = "" // the command, which names the file
		nets[run] = n
	}
	if !reflect.DeepEqual(nets["tables"], nets["again"]) {
		t.Error("two runs with the tables wrote different networks")
	}
	if reflect.DeepEqual(nets["tables"], nets["none"]) {
		t.Error("the tables changed no weight")
	}

	other := filepath.Join(dir, "o.dat")
	if _, stderr, st := runCLI("datagen", "--game", "hoyito3", "--capture-side", "opponent", "--nodes", "200", "--games", "40", "--seed", "4", "--out", other); st != exitOK {
		t.Fatalf("datagen: status %d\n%s", st, stderr)
	}
	stdout, stderr, st := runCLI("train", "--data", data+","+other, "--out", filepath.Join(dir, "o.nnue"), "--epochs", "1", "--tables", tb)
	if st != exitOK || !strings.Contains(stdout, "tables: "+strconv.Itoa(want)+" of ") || !strings.Contains(stdout, "tables: "+other+" was made under other rules (opponent-capturer-limit200)") {
		t.Errorf("train with data of other rules: status %d, stderr %q\n%s", st, stderr, stdout)
	}
	katro := filepath.Join(dir, "k.dat")
	if _, stderr, st := runCLI("datagen", "--game", "katro-4x4", "--nodes", "100", "--games", "2", "--out", katro); st != exitOK {
		t.Fatalf("datagen: status %d\n%s", st, stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--data", katro, "--tables", tb}, "--tables: the endgame tables are for Hoyito III; the data is katro-4x4"},
		{[]string{"--data", data, "--tables", dir}, "--tables: no any-capturer-limit200 tables in " + dir},
		{[]string{"--data", other, "--tables", tb}, "--tables: no opponent-capturer-limit200 tables"},
	} {
		args := append([]string{"train", "--out", filepath.Join(dir, "x.nnue")}, tc.args...)
		if _, stderr, st := runCLI(args...); st != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: status %d, stderr %q, want %q", tc.args, st, stderr, tc.want)
		}
	}
}
