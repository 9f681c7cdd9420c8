package cert_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
)

// lostCases returns proved cases whose side to move loses, so that the
// proof is made of one proof for each of its moves.
func lostCases(t *testing.T, game string) []proofCase {
	var out []proofCase
	for _, c := range provedCases(t, game, 40) {
		if c.winner != c.root.Side() && len(c.root.LegalMoves()) >= 2 {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no lost position with two moves or more", game)
	}
	return out
}

// pieceCerts writes the certificate of the position after each of root's
// moves, with the solver's moves, and returns them with those positions.
func pieceCerts(t *testing.T, c proofCase) ([][]byte, []board.Position) {
	var certs [][]byte
	var kids []board.Position
	for _, m := range c.root.LegalMoves() {
		kid, err := c.root.After(m)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if _, err := cert.Write(context.Background(), &b, kid, c.winner, c.solver.oracle, cert.Options{}); err != nil {
			t.Fatalf("%s after %s: %v", c.root.String(), m, err)
		}
		certs, kids = append(certs, b.Bytes()), append(kids, kid)
	}
	return certs, kids
}

// joinPieces reads certs into Pieces and writes their proof from root.
func joinPieces(t *testing.T, root board.Position, certs [][]byte) ([]byte, *cert.Pieces, error) {
	p, err := cert.NewPieces(root.Variant())
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range certs {
		if err := p.Read(context.Background(), bytes.NewReader(c)); err != nil {
			return nil, p, err
		}
		if i == 0 && p.Winner(&root) == root.Side() {
			t.Fatalf("%s: the pieces' winner is the side to move", root.String())
		}
	}
	var b bytes.Buffer
	_, err = cert.Write(context.Background(), &b, root, p.Winner(&root), p.Oracle(), cert.Options{})
	return b.Bytes(), p, err
}

// TestJoinPieces proves lost positions of every Katro board by the proofs
// of the positions after each of their moves, joined: the joined
// certificate is the one written for the whole proof, byte for byte; a
// missing piece is refused naming its position, unless another piece
// covers it.
func TestJoinPieces(t *testing.T) {
	refused := 0
	for _, game := range games {
		for _, c := range lostCases(t, game) {
			certs, kids := pieceCerts(t, c)
			got, p, err := joinPieces(t, c.root, certs)
			if err != nil || !bytes.Equal(got, c.cert) {
				t.Errorf("%s: joined %d pieces: %v\n%s\nwant\n%s", c.root.String(), len(certs), err, got, c.cert)
			}
			if p.Overridden != 0 {
				t.Errorf("%s: %d lines overridden by pieces of one solver", c.root.String(), p.Overridden)
			}
			for i := range certs {
				rest := append(append([][]byte{}, certs[:i]...), certs[i+1:]...)
				_, _, err := joinPieces(t, c.root, rest)
				covered := false
				for _, r := range rest {
					covered = covered || bytes.Contains(r, []byte("\n"+noClock(&kids[i])+"\t"))
				}
				switch {
				case covered && err != nil:
					t.Errorf("%s without the piece of %s (listed by another): %v", c.root.String(), noClock(&kids[i]), err)
				case !covered && (err == nil || !strings.Contains(err.Error(), "no winning move is known for position "+noClock(&kids[i])+" ")):
					t.Errorf("%s without the piece of %s: %v", c.root.String(), noClock(&kids[i]), err)
				case !covered:
					refused++
				}
			}
		}
	}
	if refused == 0 {
		t.Error("no missing piece was refused: the test shows nothing")
	}
}

// TestJoinConflicts checks the readings of a position listed twice: with
// another move in one certificate it is refused, across certificates the
// first one read is kept and counted; certificates naming different
// winners, or of another game, are refused.
func TestJoinConflicts(t *testing.T) {
	c := lostCases(t, board.NameKatro6x3)[0]
	certs, _ := pieceCerts(t, c)
	ls := lines(certs[0])
	i := positionLines(ls)[0]
	pos, mv, _ := strings.Cut(ls[i], "\t")
	other := "a1"
	if mv == "a1" {
		other = "b1"
	}
	changed := append(append([]string{}, ls...), pos+"\t"+other)
	changed = withoutHeader(changed)
	if _, _, err := joinPieces(t, c.root, [][]byte{join(changed)}); err == nil || !strings.Contains(err.Error(), "is listed again with another move") {
		t.Errorf("a position listed twice in one certificate with two moves: %v", err)
	}
	swapped := append([]string{pos + "\t" + other}, withoutHeader(ls)[1:]...)
	all := append([][]byte{}, certs...)
	all = append(all, join(swapped))
	got, p, err := joinPieces(t, c.root, all)
	if err != nil || !bytes.Equal(got, c.cert) || p.Overridden != 1 {
		t.Errorf("a position another certificate lists first: %v, %d overridden, want the first move kept and 1", err, p.Overridden)
	}
	foreign := strings.Replace(string(certs[1]), "# winner "+c.winner.String(), "# winner "+c.winner.Other().String(), 1)
	if _, _, err := joinPieces(t, c.root, [][]byte{certs[0], []byte(foreign)}); err == nil || !strings.Contains(err.Error(), "this certificate proves "+c.winner.Other().String()+"'s win, an earlier one "+c.winner.String()+"'s") {
		t.Errorf("certificates of different winners: %v", err)
	}
	game := strings.Replace(string(certs[1]), "# game "+board.NameKatro6x3, "# game "+board.NameKatro4x4, 1)
	if _, _, err := joinPieces(t, c.root, [][]byte{[]byte(game)}); !isFormat(err) {
		t.Errorf("a certificate of another game: %v, want a FormatError", err)
	}
	if _, err := cert.NewPieces(mustVariant(t, board.NameHoyito3)); err == nil {
		t.Error("NewPieces(Hoyito III): no error")
	}
}

func mustVariant(t *testing.T, name string) *board.Variant {
	v, err := board.New(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
