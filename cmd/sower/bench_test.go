package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
)

// TestBenchEvalLine checks the line sower bench prints before its node
// count: the evaluation of each family, and whether the count is the
// signature (each family's default evaluation, whichever flags give it).
func TestBenchEvalLine(t *testing.T) {
	def := func(f board.Family) string {
		if nnue.PlaysByDefault(f) {
			return f.String() + ": a network for " + f.String() + ", lazy 1200"
		}
		return f.String() + ": the linear evaluation"
	}
	byDefault := "Eval: " + def(board.Katro) + "; " + def(board.Hoyito)
	const notSig = " (not the signature, which is that of each game's default evaluation, --eval auto)"
	hoyito := testNetFile(t, t.TempDir()) // a copy of Hoyito III's built-in network
	k, err := nnue.Builtin(board.Katro)
	if err != nil || k == nil {
		t.Fatalf("no built-in Katro network: %v", err)
	}
	katro := filepath.Join(t.TempDir(), "katro.nnue")
	if err := k.WriteFile(katro); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, byDefault},
		{[]string{"--eval", "auto", "--evallazy", "1200"}, byDefault},
		{[]string{"--eval", "linear"}, "Eval: katro: the linear evaluation; hoyito3: the linear evaluation" + notSig},
		{[]string{"--eval", "net"}, "Eval: katro: a network for katro, lazy 1200; hoyito3: a network for hoyito3, lazy 1200" + notSig},
		{[]string{"--evallazy", "0"}, "Eval: " + strings.ReplaceAll(byDefault[len("Eval: "):], ", lazy 1200", "") + notSig},
		{[]string{"--evalfile", hoyito}, byDefault},
		{[]string{"--evalfile", katro}, "Eval: katro: a network for katro, lazy 1200; " + def(board.Hoyito) + notSig},
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
		if got != tc.want {
			t.Errorf("%v:\n got %q\nwant %q", args, got, tc.want)
		}
	}
}
