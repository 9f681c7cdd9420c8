package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestVerifyJoin proves a lost katro-4x6 position in pieces, one
// certificate for the position after each of South's moves, and checks
// that sower verify accepts them together, writes them joined as one
// certificate that it then accepts alone, and refuses them with a piece
// missing.
func TestVerifyJoin(t *testing.T) {
	const lost = "8,2,1,1,2,0/0,1,3,7,1,1/0,0,2,8,1,0/1,1,0,1,2,5 S 0"
	v, err := board.New("katro-4x6")
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParsePosition(lost)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var pieces []string
	for _, m := range p.LegalMoves() {
		piece := filepath.Join(dir, m.String()+".txt.gz")
		if stdout, _, st := runCLI("solve", "--game", "katro-4x6", "--fen", lost, "--moves", m.String(), "--hash", "16", "--first", "north", "--proof", piece); st != exitOK || !strings.Contains(stdout, "North wins") {
			t.Fatalf("solve after %s: status %d, %s", m, st, stdout)
		}
		pieces = append(pieces, "--proof", piece)
	}
	if len(pieces) < 4 {
		t.Fatalf("%s: %d moves, want two or more", lost, len(pieces)/2)
	}
	root := []string{"verify", "--game", "katro-4x6", "--fen", lost}
	stdout, stderr, st := runCLI(append(root, pieces...)...)
	want := fmt.Sprintf("proof holds: North wins katro-4x6 from %s; %d certificates, ", lost, len(pieces)/2)
	if st != exitOK || !strings.HasPrefix(stdout, want) {
		t.Errorf("verify the pieces: status %d\nstdout %s\nstderr %s\nwant %s", st, stdout, stderr, want)
	}
	joined := filepath.Join(dir, "joined.txt.gz")
	stdout, stderr, st = runCLI(append(append(root, pieces...), "--join", joined)...)
	if st != exitOK || !strings.Contains(stdout, "into "+joined+": ") || !strings.Contains(stdout, "\nproof holds: North wins katro-4x6 from "+lost+"; ") {
		t.Errorf("verify --join: status %d\nstdout %s\nstderr %s", st, stdout, stderr)
	}
	if stdout, _, st := runCLI(append(root, "--proof", joined)...); st != exitOK || !strings.HasPrefix(stdout, "proof holds: North wins") {
		t.Errorf("verify the joined certificate alone: status %d, %s", st, stdout)
	}
	// Without the last piece, its position has no move, unless another
	// piece's proof passes through it.
	last := p.LegalMoves()[len(pieces)/2-1]
	after, _ := p.After(last)
	noClock := after.String()[:strings.LastIndexByte(after.String(), ' ')]
	stdout, _, st = runCLI(append(root, pieces[:len(pieces)-2]...)...)
	if st != exitFail || !strings.Contains(stdout, "proof refused: no winning move is known for position "+noClock+" (winner to move)") {
		t.Errorf("verify without the piece after %s: status %d, %s", last, st, stdout)
	}
	if _, stderr, st := runCLI(append(append(root, pieces...), "--join", dir)...); st != exitUsage || !strings.Contains(stderr, "--join "+dir+": a directory") {
		t.Errorf("--join naming a directory: status %d, %s", st, stderr)
	}
}
