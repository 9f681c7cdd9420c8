package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
)

// TestSolveDfpn solves the katro-4x4 start by proof-number search, writes
// its certificate (plain and gzipped), has sower verify accept it, and
// checks the refusals of the options that do not go with the method.
func TestSolveDfpn(t *testing.T) {
	dir := t.TempDir()
	plain, zipped := filepath.Join(dir, "k44.txt"), filepath.Join(dir, "k44.txt.gz")
	for _, proof := range []string{plain, zipped} {
		stdout, stderr, st := runCLI("solve", "--game", "katro-4x4", "--hash", "16", "--proof", proof)
		if st != exitOK || !strings.Contains(stdout, "solved: a win for the side to move (South wins in at most ") ||
			!strings.Contains(stdout, "proof written to "+proof) || !strings.Contains(stdout, "by a proof campaign") {
			t.Fatalf("solve --proof %s: status %d\nstdout %s\nstderr %s", proof, st, stdout, stderr)
		}
		stdout, _, st = runCLI("verify", "--game", "katro-4x4", "--proof", proof)
		if st != exitOK || !strings.HasPrefix(stdout, "proof holds: South wins katro-4x4 from 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 0") {
			t.Errorf("verify %s: status %d, %s", proof, st, stdout)
		}
	}
	// Two threads on one table: the proof holds as well.
	proof2 := filepath.Join(dir, "k44-2.txt")
	if stdout, _, st := runCLI("solve", "--game", "katro-4x4", "--hash", "16", "--threads", "2", "--proof", proof2); st != exitOK || !strings.Contains(stdout, "2 threads") {
		t.Fatalf("solve --threads 2: status %d, %s", st, stdout)
	}
	if stdout, _, st := runCLI("verify", "--game", "katro-4x4", "--proof", proof2); st != exitOK {
		t.Errorf("verify the proof of two threads: status %d, %s", st, stdout)
	}
	// A lost position: the side to move loses, and the certificate proves
	// the other side's win.
	lost := "8,2,1,1,2,0/0,1,3,7,1,1/0,0,2,8,1,0/1,1,0,1,2,5 S 0"
	proof := filepath.Join(dir, "lost.txt")
	stdout, _, st := runCLI("solve", "--game", "katro-4x6", "--fen", lost, "--hash", "16", "--proof", proof)
	if st != exitOK || !strings.Contains(stdout, "solved: a loss for the side to move (North wins in at most ") {
		t.Fatalf("solve --fen %s: status %d, %s", lost, st, stdout)
	}
	if stdout, _, st = runCLI("verify", "--game", "katro-4x6", "--fen", lost, "--proof", proof); st != exitOK || !strings.HasPrefix(stdout, "proof holds: North wins") {
		t.Errorf("verify the loss: status %d, %s", st, stdout)
	}
	// Asking first for the winner's win: the same answer, and the
	// loser's question is never asked.
	for _, first := range []string{"opponent", "north"} {
		stdout, stderr, st := runCLI("solve", "--game", "katro-4x6", "--fen", lost, "--hash", "16", "--first", first)
		if st != exitOK || !strings.Contains(stdout, "solved: a loss for the side to move (North wins in at most ") ||
			!strings.Contains(stderr, "solve: North wins? ") || strings.Contains(stderr, "South wins?") {
			t.Errorf("solve --first %s: status %d\nstdout %s\nstderr %s", first, st, stdout, stderr)
		}
	}
	// --first eval (the default) asks first for the side the evaluation
	// favours, in a position where it favours the side to move and in one
	// where it favours the other; --first mover asks for the side to move.
	for _, fen := range []string{lost, "0,0,0,1,0,0/0,0,1,0,1,1/10,1,4,2,13,3/1,2,3,4,1,0 S 4"} {
		v, err := board.New("katro-4x6")
		if err != nil {
			t.Fatal(err)
		}
		p, err := v.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		want := p.Side()
		if eval.New(v).Evaluate(&p) < 0 {
			want = want.Other()
		}
		for _, first := range []string{"eval", ""} {
			args := []string{"solve", "--game", "katro-4x6", "--fen", fen, "--hash", "16", "--threads", "1"}
			if first != "" {
				args = append(args, "--first", first)
			}
			_, stderr, _ := runCLI(args...)
			if !strings.HasPrefix(stderr, "solve: "+want.String()+" wins? ") {
				t.Errorf("solve --first %q --fen %s: the evaluation favours %s; stderr %.200s", first, fen, want, stderr)
			}
		}
		_, stderr, _ := runCLI("solve", "--game", "katro-4x6", "--fen", fen, "--hash", "16", "--threads", "1", "--first", "mover")
		if !strings.HasPrefix(stderr, "solve: "+p.Side().String()+" wins? ") {
			t.Errorf("solve --first mover --fen %s: %s is to move; stderr %.200s", fen, p.Side(), stderr)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--first", "west"}, `--first "west": want mover, opponent, eval, south or north`},
		{[]string{"solve", "--method", "ab", "--first", "north"}, "--first: only for --method dfpn"},
		{[]string{"solve", "--game", "hoyito3", "--method", "dfpn"}, "--method dfpn: proof-number search is for Katro"},
		{[]string{"solve", "--method", "pn"}, `--method "pn": want ab or dfpn`},
		{[]string{"solve", "--method", "dfpn", "--depth", "3"}, "--depth: only for --method ab"},
		{[]string{"solve", "--method", "ab", "--proof", plain}, "--proof: certificates are written by --method dfpn"},
		{[]string{"solve", "--proof", dir}, "--proof " + dir + ": a directory, want a file"},
		{[]string{"solve", "--threads", "0"}, "--threads 0: want 1 to 256"},
		{[]string{"solve", "--method", "ab", "--threads", "2"}, "--threads: only for --method dfpn"},
	} {
		_, stderr, st := runCLI(c.args...)
		if st != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: status %d, stderr %q; want 2 and %q", c.args, st, stderr, c.want)
		}
	}
}

// TestSolveSaveResume saves the solver's table, resumes from it, and
// refuses a damaged or foreign table with a usage error.
func TestSolveSaveResume(t *testing.T) {
	dir := t.TempDir()
	table := filepath.Join(dir, "k44.dfpn")
	stdout, _, st := runCLI("solve", "--game", "katro-4x4", "--hash", "16", "--save", table)
	if st != exitOK || !strings.Contains(stdout, "table saved to "+table) {
		t.Fatalf("solve --save: status %d, %s", st, stdout)
	}
	stdout, _, st = runCLI("solve", "--game", "katro-4x4", "--hash", "16", "--resume", table)
	if st != exitOK || !strings.Contains(stdout, "resumed from "+table) || !strings.Contains(stdout, "solved: a win for the side to move (South wins") {
		t.Fatalf("solve --resume: status %d, %s", st, stdout)
	}
	b, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(dir, "damaged.dfpn")
	b[len(b)/2] ^= 1
	if err := os.WriteFile(damaged, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--game", "katro-4x4", "--resume", damaged}, "--resume " + damaged + ": dfpn: load: damaged"},
		{[]string{"solve", "--game", "katro-6x3", "--resume", table}, "not a saved table of this board: a table of katro-4x4, want katro-6x3"},
		{[]string{"solve", "--game", "katro-4x4", "--resume", filepath.Join(dir, "none")}, "--resume: open"},
		{[]string{"solve", "--game", "katro-4x4", "--method", "ab", "--save", table}, "--save and --resume: only for --method dfpn"},
	} {
		_, stderr, st := runCLI(c.args...)
		if st != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: status %d, stderr %q; want 2 and %q", c.args, st, stderr, c.want)
		}
	}
}

// TestKatro46Whole checks the whole katro-4x6 certificate in testdata
// from the start (docs/proofs.md, "katro-4x6"): North, the second
// player, wins, by the rules alone.
func TestKatro46Whole(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the whole katro-4x6 certificate")
	}
	stdout, stderr, st := runCLI("verify", "--game", "katro-4x6", "--proof", "../../testdata/proofs/katro-4x6.proof")
	if st != exitOK || !strings.HasPrefix(stdout, "proof holds: North wins katro-4x6 from 2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0;") {
		t.Errorf("verify: status %d\nstdout %s\nstderr %s", st, stdout, stderr)
	}
}

// TestKatro46FirstMoves checks the certificates the proof book embeds,
// katro-4x6 after each of South's first moves (docs/proofs.md): North
// wins each, by the rules alone. The large ones are checked in the full
// run only (TestKatro46Whole and the book's TestEmbedded check them too).
func TestKatro46FirstMoves(t *testing.T) {
	cases := []struct{ move, root string }{
		{"a1", "2,2,2,2,2,2/2,2,2,0,2,2/3,3,3,0,3,3/1,0,1,4,4,1 N 0"},
		{"c1", "2,2,2,2,2,2/2,2,2,2,0,2/3,3,3,3,1,4/0,3,1,0,1,4 N 0"},
		{"d1", "2,2,2,2,2,2/2,2,2,0,2,2/3,3,3,1,4,4/3,0,3,1,0,1 N 0"},
		{"b1", "2,2,2,2,2,2/0,2,2,0,0,0/2,5,5,1,0,2/5,3,1,2,1,5 N 0"}, // 812,676 positions
	}
	if testing.Short() {
		cases = cases[:3]
	}
	for _, c := range cases {
		proof := "../../search/book/proofs/katro-4x6/" + c.move + ".proof"
		stdout, stderr, st := runCLI("verify", "--game", "katro-4x6", "--moves", c.move, "--proof", proof)
		if st != exitOK || !strings.HasPrefix(stdout, "proof holds: North wins katro-4x6 from "+c.root+";") {
			t.Errorf("verify after %s: status %d\nstdout %s\nstderr %s", c.move, st, stdout, stderr)
		}
	}
}

// TestProofConversion converts a stored v2 certificate to the v1 text
// format and back with verify --join: the v1 file lists one line per
// position of the winner, and the v2 file made from it is the stored one
// byte for byte.
func TestProofConversion(t *testing.T) {
	move, positions := "a1", 43424
	if testing.Short() {
		move, positions = "d1", 2844
	}
	stored := "../../search/book/proofs/katro-4x6/" + move + ".proof"
	dir := t.TempDir()
	text, back := filepath.Join(dir, "p.txt.gz"), filepath.Join(dir, "p.proof")
	for _, step := range [][2]string{{stored, text}, {text, back}} {
		stdout, stderr, st := runCLI("verify", "--game", "katro-4x6", "--moves", move, "--proof", step[0], "--join", step[1])
		if st != exitOK || !strings.Contains(stdout, fmt.Sprintf("%d positions of North listed", positions)) || !strings.Contains(stdout, "proof holds") {
			t.Fatalf("verify %s --join %s: status %d\nstdout %s\nstderr %s", step[0], step[1], st, stdout, stderr)
		}
	}
	want, err := os.ReadFile(stored)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("v2 to v1 to v2 gives another file (%d bytes, want %d)", len(got), len(want))
	}
}

// TestVerifyFromHeader: verify without --game or a root checks the
// certificate from the game and root its header names; a --fen without a
// clock, as the header writes the root, is read at clock 0; a wrong root
// is named whole in the refusal.
func TestVerifyFromHeader(t *testing.T) {
	proof := "../../search/book/proofs/katro-4x6/c1.proof"
	root := "2,2,2,2,2,2/2,2,2,2,0,2/3,3,3,3,1,4/0,3,1,0,1,4 N"
	for _, args := range [][]string{
		{"verify", "--proof", proof},
		{"verify", "--game", "katro-4x6", "--proof", proof},
		{"verify", "--game", "katro-4x6", "--fen", root, "--proof", proof},
	} {
		stdout, stderr, st := runCLI(args...)
		if st != exitOK || !strings.HasPrefix(stdout, "proof holds: North wins katro-4x6 from "+root+" 0;") {
			t.Errorf("%q: status %d\nstdout %s\nstderr %s", args, st, stdout, stderr)
		}
	}
	_, stderr, st := runCLI("verify", "--moves", "a1", "--proof", proof)
	want := "the certificate is for the root " + root + ", not 2,2,2,2,2,2/2,2,2,0,2,2/3,3,3,0,3,3/1,0,1,4,4,1 N"
	if st != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("another root: status %d, stderr %q, want %q", st, stderr, want)
	}
}
