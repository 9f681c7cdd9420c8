package cert

import (
	"context"
	"fmt"
	"io"

	"github.com/sower-engine/sower/board"
)

// Pieces gathers the moves of several certificates of one variant, so that
// proofs made in parts (a position's after each of the loser's moves, each
// with a table of its own) can be written as one certificate by Write,
// with Pieces.Oracle as its oracle. A position listed by two certificates
// with different moves keeps the first one read; within one certificate
// that is refused, as Verify refuses it. Write then walks the joined
// proof from its root and refuses it, naming the position, when it does
// not hold: the pieces are trusted in nothing.
type Pieces struct {
	v      *board.Variant
	moves  map[key]piece
	winner string // the winner the certificates state ("" none so far)
	read   int    // certificates read
	// Lines counts the position lines read, and Overridden those whose
	// position an earlier certificate listed with another move.
	Lines, Overridden int
}

// piece is a position's move in Pieces: the move, the certificate that
// listed it first (0-based) and the line.
type piece struct {
	move board.Move
	cert uint16
	line uint32
}

// NewPieces returns an empty set of pieces of variant v (a Katro board).
func NewPieces(v *board.Variant) (*Pieces, error) {
	if v.Family() != board.Katro {
		return nil, errHoyito
	}
	return &Pieces{v: v, moves: map[key]piece{}}, nil
}

// maxPieces is the most certificates a Pieces takes.
const maxPieces = 1 << 16

// Read adds the certificate in r (version 1, gzipped or not, or version 2).
// A version 2 certificate is decoded by walking its proof from the root its
// header names, which must hold on its own. It refuses, as Verify
// does, a certificate that cannot be read (*FormatError), one that lists a
// position twice with different moves, and one that names another winner
// than those read before. After an error the pieces hold part of the
// certificate: they are not to be used further.
func (p *Pieces) Read(ctx context.Context, r io.Reader) error {
	if p.read == maxPieces {
		return fmt.Errorf("more than %d certificates", maxPieces)
	}
	c := uint16(p.read)
	br, err := openCert(r)
	if err != nil {
		return err
	}
	read := readLines
	if isCompact(br) {
		read = readCompactPiece
	}
	h, err := read(ctx, br, p.v, func(k key, m board.Move, n int) error {
		p.Lines++
		old, ok := p.moves[k]
		switch {
		case !ok:
			p.moves[k] = piece{move: m, cert: c, line: uint32(n)}
		case old.move == m:
		case old.cert == c:
			return relisted(n, int(old.line), m, old.move)
		default:
			p.Overridden++
		}
		return nil
	})
	if err != nil {
		return err
	}
	p.read++
	switch {
	case h.winner == "":
	case p.winner == "":
		p.winner = h.winner
	case h.winner != p.winner:
		return fmt.Errorf("this certificate proves %s's win, an earlier one %s's", h.winner, p.winner)
	}
	return nil
}

// Winner returns the side whose win the certificates prove from root: the
// one their "# winner" lines name, or without one, as Verify decides, the
// side to move at root when root is listed, else the other side.
func (p *Pieces) Winner(root *board.Position) board.Side {
	switch p.winner {
	case board.North.String():
		return board.North
	case board.South.String():
		return board.South
	}
	if _, ok := p.moves[keyOf(root)]; ok {
		return root.Side()
	}
	return root.Side().Other()
}

// Oracle returns the pieces' move of each position listed.
func (p *Pieces) Oracle() Oracle {
	return func(pos *board.Position) (board.Move, bool) {
		pc, ok := p.moves[keyOf(pos)]
		return pc.move, ok
	}
}
