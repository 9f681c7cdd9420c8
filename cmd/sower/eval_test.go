package main

import (
	"strconv"
	"strings"
	"testing"
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
