package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
)

// analyse shows the win/draw/loss forecast on every info line, and
// --wdl=false leaves it out.
func TestAnalyseWDL(t *testing.T) {
	wdl := regexp.MustCompile(` score (cp|mate) -?\d+( lowerbound| upperbound)? wdl \d+ \d+ \d+ nodes `)
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"analyse", "--game", "hoyito3", "--moves", "a1", "--depth", "4"}, true},
		{[]string{"analyse", "--game", "katro-4x4", "--depth", "4", "--wdl=false"}, false},
	} {
		stdout, stderr, st := runQuick(t, tc.args...)
		if st != exitOK {
			t.Fatalf("%v: status %d, stderr %q", tc.args, st, stderr)
		}
		n := 0
		for _, l := range strings.Split(stdout, "\n") {
			if !strings.HasPrefix(l, "info depth") {
				continue
			}
			n++
			if wdl.MatchString(l) != tc.want || strings.Contains(l, " wdl ") != tc.want {
				t.Errorf("%v: %q", tc.args, l)
			}
		}
		if n == 0 {
			t.Errorf("%v: no info line:\n%s", tc.args, stdout)
		}
	}
}

// tune --fit-wdl and --calibrate measure a data file and write no
// weights; with --out they are refused.
func TestTuneWDL(t *testing.T) {
	data := filepath.Join(t.TempDir(), "d.dat")
	if _, stderr, st := runCLI("datagen", "--game", "hoyito3", "--games", "6", "--nodes", "200", "--random-plies", "4", "--out", data); st != exitOK {
		t.Fatalf("datagen: status %d\n%s", st, stderr)
	}
	stdout, stderr, st := runCLI("tune", "--data", data, "--fit-wdl", "--calibrate")
	if st != exitOK {
		t.Fatalf("tune: status %d\n%s", st, stderr)
	}
	for _, want := range []string{"wdl model fitted on ", "calibration of the linear evaluation's wdl model of hoyito3: model K 0.00", "| 0.9–1.0 |", "Brier score "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in:\n%s", want, stdout)
		}
	}
	if _, stderr, st := runCLI("tune", "--data", data, "--calibrate", "--out", "w.go"); st != exitUsage || !strings.Contains(stderr, "write no weights") {
		t.Errorf("--calibrate with --out: status %d, stderr %q", st, stderr)
	}
}

// tune --fit-wdl --save-wdl stores the fitted model in a network file,
// and --calibrate --eval net --evalfile measures that model; the
// engine's reports then use it.
func TestTuneSaveWDL(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.dat")
	if _, stderr, st := runCLI("datagen", "--game", "hoyito3", "--games", "6", "--nodes", "200", "--random-plies", "4", "--eval", "net", "--evalfile", testNetFile(t, dir), "--out", data); st != exitOK {
		t.Fatalf("datagen: status %d\n%s", st, stderr)
	}
	net := testNetFile(t, dir)
	stdout, stderr, st := runCLI("tune", "--data", data, "--fit-wdl", "--save-wdl", net)
	if st != exitOK {
		t.Fatalf("tune: status %d\n%s", st, stderr)
	}
	fit := regexp.MustCompile(`K (\d\.\d+), band (\d+\.\d)`).FindStringSubmatch(stdout)
	if fit == nil || !strings.Contains(stdout, "stored in "+net) {
		t.Fatalf("tune --fit-wdl --save-wdl said:\n%s", stdout)
	}
	n, err := nnue.ReadFile(net)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%.6f %.1f", n.WDL.K, n.WDL.Band); got != fit[1]+" "+fit[2] {
		t.Errorf("the file holds the model %s, tune printed K %s, band %s", got, fit[1], fit[2])
	}
	if !strings.Contains(n.Description, "\nwdl: sower tune --data ") {
		t.Errorf("the description does not record the fit: %q", n.Description)
	}
	stdout, stderr, st = runCLI("tune", "--data", data, "--calibrate", "--eval", "net", "--evalfile", net)
	if st != exitOK || !strings.Contains(stdout, "calibration of the network's wdl model of hoyito3: model K "+fit[1]) {
		t.Errorf("tune --calibrate --eval net: status %d, stderr %q, stdout:\n%s", st, stderr, stdout)
	}
	// Fitted, stored and calibrated in one run: the calibration measures
	// the model just stored, not the one the file held before.
	again := testNetFile(t, dir)
	stdout, stderr, st = runCLI("tune", "--data", data, "--fit-wdl", "--save-wdl", again, "--calibrate", "--eval", "net", "--evalfile", again)
	if st != exitOK || !strings.Contains(stdout, "calibration of the network's wdl model of hoyito3: model K "+fit[1]) {
		t.Errorf("tune --fit-wdl --save-wdl F --calibrate --eval net --evalfile F: status %d, stderr %q, stdout:\n%s", st, stderr, stdout)
	}
	// With --wdl-table: the table printed (a line a knot, one for 0) and
	// stored, and the calibration forecast by it.
	table := testNetFile(t, dir)
	stdout, stderr, st = runCLI("tune", "--data", data, "--fit-wdl", "--wdl-table", "--save-wdl", table, "--calibrate", "--eval", "net", "--evalfile", table)
	knots := regexp.MustCompile(`(?m)^ +[+-]\d+  win [01]\.\d{4}  draw [01]\.\d{4}  loss [01]\.\d{4}$`).FindAllString(stdout, -1)
	if st != exitOK || len(knots) != 33 || !strings.Contains(stdout, "wdl table fitted (log loss ") || !strings.Contains(stdout, "exactly 0  win ") ||
		!strings.Contains(stdout, "(forecast by its table)") {
		t.Errorf("tune --fit-wdl --wdl-table: status %d, %d knots, stderr %q, stdout:\n%s", st, len(knots), stderr, stdout)
	}
	if n, err := nnue.ReadFile(table); err != nil || n.WDL.Table.Empty() || n.WDL.Table.Check() != nil {
		t.Errorf("the file stored with --wdl-table: %v, model %+v", err, n.WDL)
	}
	// Each refused before the data is read.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--wdl-table"}, "--wdl-table"},
		{[]string{"--calibrate", "--wdl-table"}, "--wdl-table"},
		{[]string{"--calibrate", "--save-wdl", net}, "--save-wdl"},
		{[]string{"--fit-wdl", "--eval", "net"}, "--eval"},
		{[]string{"--fit-wdl", "--evalfile", net}, "--evalfile"},
		{[]string{"--out", filepath.Join(dir, "w.go"), "--evalfile", net}, "--evalfile"},
		{[]string{"--fit-wdl", "--save-wdl", data}, "not a Sower network"},
		{[]string{"--fit-wdl", "--save-wdl", filepath.Join(dir, "none.nnue")}, "--save-wdl: open " + filepath.Join(dir, "none.nnue") + ": no such file"},
		{[]string{"--calibrate", "--eval", "net", "--evalfile", data}, "not a Sower network"},
	} {
		if _, stderr, st := runCLI(append([]string{"tune", "--data", data}, tc.args...)...); st != exitUsage || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "positions in all") {
			t.Errorf("%v: status %d, stderr %q", tc.args, st, stderr)
		}
	}
}

// Proven bounds that leave the value open but decide the result say so:
// the Hoyito III start, searched to depth 12, is proven lost by 16 to 48
// seeds; a small Katro board stopped at depth 1 is not decided.
func TestSolveBoundsResult(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--game", "hoyito3", "--depth", "12", "--hash", "16"}, "not solved: proven bounds -48 -16 at depth 12, "},
		{[]string{"solve", "--game", "katro-6x3", "--depth", "1", "--hash", "16"}, "not solved: proven bounds -1 1 at depth 1, "},
	} {
		stdout, stderr, st := runQuick(t, tc.args...)
		if st != exitOK {
			t.Fatalf("%v: status %d, stderr %q", tc.args, st, stderr)
		}
		var last string
		for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
			last = l
		}
		certain := strings.HasSuffix(last, " ms; a certain loss for the side to move (wdl 0 0 1000)")
		if !strings.HasPrefix(last, tc.want) || certain != strings.Contains(tc.want, "-16") || (!certain && !strings.HasSuffix(last, " ms")) {
			t.Errorf("%v: last line %q", tc.args, last)
		}
	}
	for _, tc := range []struct {
		lo, hi int
		want   string
	}{{1, 1, "win"}, {2, 40, "win"}, {-8, -2, "loss"}, {0, 4, ""}, {-4, 0, ""}, {-1, 1, ""}} {
		got := boundsResult(tc.lo, tc.hi)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("boundsResult(%d, %d) = %q, want %s", tc.lo, tc.hi, got, tc.want)
		}
	}
}

// datagen --eval net plays with the network: its games differ from the
// linear evaluation's and with another lazy margin, and a run on a
// broker is refused.
func TestDatagenNet(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{}
	for _, ev := range [][]string{{"linear"}, {"net"}, {"net", "--evallazy", "0"}} {
		name := strings.Join(ev, "")
		out := filepath.Join(dir, name+".dat")
		args := append([]string{"datagen", "--game", "hoyito3", "--games", "4", "--nodes", "300", "--random-plies", "4", "--out", out, "--eval"}, ev...)
		if _, stderr, st := runCLI(args...); st != exitOK {
			t.Fatalf("%v: status %d\n%s", args, st, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = b
	}
	if bytes.Equal(files["linear"], files["net"]) {
		t.Error("datagen --eval net wrote the linear evaluation's games")
	}
	if bytes.Equal(files["net"], files["net--evallazy0"]) {
		t.Error("datagen --eval net wrote the same games with the lazy margins 1200 and 0")
	}
	if _, stderr, st := runCLI("datagen", "--game", "hoyito3", "--games", "4", "--eval", "net", "--broker", "http://127.0.0.1:1", "--out", filepath.Join(dir, "b.dat")); st != exitUsage || !strings.Contains(stderr, "--eval net") {
		t.Errorf("datagen --eval net --broker: status %d, stderr %q", st, stderr)
	}
	// A board no network evaluates (here a Katro network trained for
	// 6x3 only, on the 6x6 board) would be played with the linear
	// evaluation under the name of the network: refused, no file written.
	small := nnue.New(board.Katro, "6x3 only")
	small.Boards = 2
	smallFile := filepath.Join(dir, "k6x3.nnue")
	if err := small.WriteFile(smallFile); err != nil {
		t.Fatal(err)
	}
	katro := filepath.Join(dir, "k.dat")
	if _, stderr, st := runCLI("datagen", "--game", "katro", "--games", "1", "--nodes", "50", "--eval", "net", "--evalfile", smallFile, "--out", katro); st != exitUsage || !strings.Contains(stderr, "--eval net: no network evaluates katro") {
		t.Errorf("datagen --eval net for a game without a network: status %d, stderr %q", st, stderr)
	}
	if _, err := os.Stat(katro); err == nil {
		t.Error("datagen --eval net for a game without a network wrote a data file")
	}
}

// wdlNote records the fit as the description's last line, in place of an
// earlier fit's line, and only when it fits.
func TestWDLNote(t *testing.T) {
	long := strings.Repeat("x", nnue.MaxDescription-10)
	for _, tc := range []struct{ desc, command, want string }{
		{"sower train --data a.dat", "sower tune --fit-wdl --data b.dat", "sower train --data a.dat\nwdl: sower tune --fit-wdl --data b.dat"},
		{"sower train --data a.dat\nwdl: sower tune --data b.dat", "sower tune --data c.dat", "sower train --data a.dat\nwdl: sower tune --data c.dat"},
		{"train\nwdl: one\nnotes\nwdl: two", "three", "train\nnotes\nwdl: three"},
		{"", "sower tune", "\nwdl: sower tune"},
		{long + "\nwdl: a", "sower tune --data a-long-name.dat", long},
	} {
		if got := wdlNote(tc.desc, tc.command); got != tc.want {
			t.Errorf("wdlNote(%q, %q) = %q, want %q", tc.desc, tc.command, got, tc.want)
		}
	}
}
