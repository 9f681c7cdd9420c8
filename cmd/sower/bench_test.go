package main

import (
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
)

// TestBenchEvalLine checks the line sower bench --eval net prints before
// its node count: not the signature, and the evaluation of each family;
// the linear bench prints none.
func TestBenchEvalLine(t *testing.T) {
	katro := "katro: the linear evaluation (no network)"
	if n, err := nnue.Builtin(board.Katro); err != nil || n != nil {
		katro = "katro: a network for "
	}
	file := testNetFile(t, t.TempDir())
	for _, tc := range []struct {
		args []string
		want string // the line, or "" for none
	}{
		{nil, ""},
		{[]string{"--eval", "net"}, "Eval: net (not the signature, which is that of the linear evaluation); " + katro},
		{[]string{"--eval", "net", "--evalfile", file, "--evallazy", "1200"}, "Eval: net, lazy 1200 (not the signature, which is that of the linear evaluation); " + katro},
	} {
		args := append([]string{"bench", "--depth", "1"}, tc.args...)
		stdout, stderr, st := runCLI(args...)
		if st != exitOK {
			t.Fatalf("%v: status %d, stderr %q", args, st, stderr)
		}
		got := ""
		for _, line := range strings.Split(stdout, "\n") {
			if strings.HasPrefix(line, "Eval: ") {
				got = line
			}
		}
		switch {
		case tc.want == "" && got != "":
			t.Errorf("%v: a linear bench printed %q", args, got)
		case tc.want != "" && (!strings.HasPrefix(got, tc.want) || !strings.HasSuffix(got, "; hoyito3: a network for hoyito3")):
			t.Errorf("%v: got %q, want %q … hoyito3: a network for hoyito3", args, got, tc.want)
		}
	}
}
