package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
)

// TestEvalWeightsMultiplyOut reads sower eval's table and checks that every
// line but the hole values multiplies out as printed: score = weight ×
// (the side to move's value − the opponent's), truncated toward zero; that
// some weight has a fraction (the learned evaluation's blend), so that the
// check means something; and that the Katro term list says "hole values",
// not "tables", the name of the endgame tables.
func TestEvalWeightsMultiplyOut(t *testing.T) {
	fractions := 0
	for _, args := range [][]string{
		{"--game", "katro", "--moves", "a1 f6"},
		{"--game", "katro", "--fen", "4,1,5,0,1,5/1,0,7,3,0,9/0,4,7,3,2,0/0,2,2,1,1,1/0,1,1,3,1,1/1,1,1,1,1,1 N 0"},
		{"--game", "hoyito3", "--moves", "a1 c2"},
		{"--game", "hoyito3", "--fen", "8,1,1,1,7,7/0,8,2,7,2,0 N 0 4 0"},
	} {
		stdout, stderr, st := runCLI(append([]string{"eval", "--learned"}, args...)...)
		if st != exitOK {
			t.Fatalf("eval %v: status %d, %s", args, st, stderr)
		}
		north := strings.Contains(stdout, "North to move")
		table := stdout[strings.Index(stdout, "term "):]
		if strings.Contains(table, "\ntables ") || !strings.Contains(table, "\nhole values ") {
			t.Errorf("eval %v: want a hole values line and no tables line:\n%s", args, table)
		}
		for _, line := range strings.Split(table, "\n")[1:] {
			f := strings.Fields(line)
			if len(f) != 5 || line[0] == ' ' || strings.HasPrefix(line, "hole values") {
				continue
			}
			s, _ := strconv.Atoi(f[1])
			n, _ := strconv.Atoi(f[2])
			w, err := strconv.ParseFloat(f[3], 64)
			score, err2 := strconv.Atoi(f[4])
			if err != nil || err2 != nil {
				t.Fatalf("eval %v: line %q", args, line)
			}
			d := s - n
			if north {
				d = -d
			}
			if w != float64(int(w)) {
				fractions++
			}
			if int(w*float64(d)) != score {
				t.Errorf("eval %v: %q does not multiply out: %v × %d is not %d", args, line, w, d, score)
			}
		}
	}
	if fractions == 0 {
		t.Error("no weight with a fraction: the check tests nothing")
	}
}

// TestEvalNet checks sower eval --eval net: the network's total is the
// model's evaluation of the position, and bad input is refused with a
// message that names it.
func TestEvalNet(t *testing.T) {
	dir := t.TempDir()
	file := testNetFile(t, dir)
	n, err := nnue.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	m, err := nnue.NewModel(n, v)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		fen  string
		file bool
	}{
		{"8,1,1,1,7,7/0,8,2,7,2,0 N 0 4 0", true},
		{"1,1,1,1,1,1/1,1,1,1,1,1 S 28 8 0", false},
		{"0,3,0,2,0,5/4,0,0,1,9,0 S 12 12 3", true},
	} {
		p, err := v.ParsePosition(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		args := []string{"eval", "--game", "hoyito3", "--fen", tc.fen, "--eval", "net"}
		source := "network: the built-in hoyito3.nnue"
		if tc.file {
			args = append(args, "--evalfile", file)
			source = "network: file " + file
		}
		stdout, stderr, st := runCLI(args...)
		score := m.EvaluatePosition(&p)
		want := "network " + strconv.Itoa(score) + " for " + p.Side().String() + ", the side to move"
		if st != exitOK || !strings.Contains(stdout, want) || !strings.Contains(stdout, source) {
			t.Errorf("%v: status %d, stderr %q, want %q and %q in:\n%s", args, st, stderr, want, source, stdout)
		}
	}
	damaged := filepath.Join(dir, "damaged.nnue")
	b, _ := os.ReadFile(file)
	b[200] ^= 1
	if err := os.WriteFile(damaged, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--eval", "neural"}, "--eval neural: want auto, linear or net"},
		{[]string{"--eval", "linear", "--evalfile", file}, "it is read with --eval net or auto"},
		{[]string{"--learned", "--evalfile", file}, "--learned shows the linear evaluation; not with --evalfile"},
		{[]string{"--eval", "net", "--evalfile", filepath.Join(dir, "none.nnue")}, "none.nnue"},
		{[]string{"--eval", "net", "--evalfile", damaged}, "damaged file"},
		{[]string{"--eval", "net", "--learned"}, "--learned shows the linear evaluation"},
	} {
		_, stderr, st := runCLI(append([]string{"eval", "--game", "hoyito3"}, tc.args...)...)
		if st != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("eval %v: status %d, stderr %q, want %q", tc.args, st, stderr, tc.want)
		}
	}
}

// TestEvalNoNet checks sower eval --eval net on a board no network
// evaluates: it says why, and what would give one, then shows the linear
// evaluation the search plays with. Without a built-in Katro network no
// Katro board has one; with the built-in one, trained on 6x6 games only,
// katro-4x4 has none.
func TestEvalNoNet(t *testing.T) {
	builtin, err := nnue.Builtin(board.Katro)
	if err != nil {
		t.Fatal(err)
	}
	file := testNetFile(t, t.TempDir())
	type evalCase struct {
		args []string
		want string
	}
	cases := []evalCase{
		{nil, "no katro network (none is built in; give one with --evalfile): the linear evaluation plays"},
		{[]string{"--evalfile", file}, "no katro network (--evalfile " + file + " is a hoyito3 network, and none is built in): the linear evaluation plays"},
	}
	v, err := board.New("katro-4x4")
	if err != nil {
		t.Fatal(err)
	}
	if builtin != nil {
		if builtin.Evaluates(v) {
			t.Fatal("the built-in Katro network evaluates katro-4x4: this test needs a board it does not")
		}
		want := "the network does not evaluate katro-4x4: the search plays it with the linear evaluation"
		cases = []evalCase{{nil, want}, {[]string{"--evalfile", file}, want}}
	}
	for _, tc := range cases {
		args := append([]string{"eval", "--game", "katro-4x4", "--eval", "net"}, tc.args...)
		stdout, stderr, st := runCLI(args...)
		if st != exitOK || !strings.Contains(stdout, tc.want+"\n") || !strings.Contains(stdout, "\ntotal ") {
			t.Errorf("%v: status %d, stderr %q, want %q and the linear total in:\n%s", args, st, stderr, tc.want, stdout)
		}
	}
}
