package cert

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"

	"github.com/sower-engine/sower/board"
)

// Version 2, the compact format (docs/proofs.md, "Version 2"): text header
// lines, the last of them "# moves zstd", then one zstd frame that holds
// one byte per position of the winner, in the order in which the
// depth-first walk of the proof first reaches them: the index of the
// winner's move among the position's candidates (board.Position.
// GenerateMoves: the non-empty holes of the back row in circuit order).
// A decoder rebuilds the positions by walking the proof from the root the
// header names, so the positions themselves are not stored.

// movesZstd is the value of the "# moves" line: the coding of the moves.
const movesZstd = "zstd"

// maxHeader is the most bytes a v2 header may hold before its last line.
const maxHeader = 1 << 16

// maxCompactPositions bounds the positions a v2 header may state (the
// moves are held in memory, one byte each).
const maxCompactPositions = 1 << 32

// magic2 starts every v2 certificate.
var magic2 = []byte("# " + headerMagic + " v2\n")

// writeCompact is Write for FormatCompact: it walks the whole proof first,
// keeping one byte per position of the winner, then writes the header and
// the compressed moves.
func writeCompact(ctx context.Context, w io.Writer, root board.Position, winner board.Side, move Oracle, opts Options) (Stats, error) {
	var moves []byte
	st, err := walkOracle(ctx, root, winner, move, opts, true, func(_ *board.Position, _ board.Move, index int) error {
		moves = append(moves, byte(index))
		return nil
	})
	if err != nil {
		return st, err
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression),
		zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(true))
	if err != nil {
		return st, err
	}
	defer enc.Close()
	v := root.Variant()
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s# %s %s\n# %s %s\n# %s %s\n# %s %d\n# %s %s\n", magic2,
		headerGame, v.Name(), headerRoot, positionText(&root), headerWinner, winner,
		headerPositions, len(moves), headerMoves, movesZstd)
	if _, err := bw.Write(enc.EncodeAll(moves, nil)); err != nil {
		return st, err
	}
	return st, bw.Flush()
}

// isCompact reports whether br holds a v2 certificate.
func isCompact(br *bufio.Reader) bool {
	b, _ := br.Peek(len(magic2))
	return bytes.Equal(b, magic2)
}

// compact is a v2 certificate read: its header and moves.
type compact struct {
	h     header
	moves []byte
	root  board.Position // the header's root, at clock 0
}

// readCompact reads a v2 certificate of variant v from br: the header, of
// which game, root, winner, positions and moves are required, then the
// moves, decompressed whole (and so checked by the frame's checksum)
// before any is used.
func readCompact(br *bufio.Reader, v *board.Variant) (*compact, error) {
	c := &compact{h: header{positions: -1}}
	h := &c.h
	n, size := 0, 0
	for h.moves == "" {
		line, err := br.ReadSlice('\n')
		n++
		size += len(line)
		switch {
		case errors.Is(err, io.EOF) || errors.Is(err, bufio.ErrBufferFull) && size > maxHeader:
			return nil, &FormatError{Line: n, Err: errors.New("the header does not end with a line \"# moves zstd\": the file is cut short or not a v2 certificate")}
		case err != nil:
			return nil, &FormatError{Line: n, Err: err}
		case size > maxHeader:
			return nil, &FormatError{Line: n, Err: fmt.Errorf("the header is longer than %d bytes", maxHeader)}
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte{'\n'}), []byte{'\r'})
		if len(line) == 0 || line[0] != '#' {
			return nil, &FormatError{Line: n, Err: fmt.Errorf("%q is not a header line: a v2 header is lines starting with '#' up to \"# moves zstd\"", clip(line))}
		}
		if err := h.parse(line, n); err != nil {
			return nil, &FormatError{Line: n, Err: err}
		}
		if err := h.checkGame(v); err != nil {
			return nil, err
		}
	}
	switch {
	case h.moves != movesZstd:
		return nil, &FormatError{Line: n, Err: fmt.Errorf("# moves %q: want %s", clip([]byte(h.moves)), movesZstd)}
	case h.game == "":
		return nil, &FormatError{Err: errors.New("the header has no \"# game\" line (required in v2)")}
	case h.root == "":
		return nil, &FormatError{Err: errors.New("the header has no \"# root\" line (required in v2)")}
	case h.winner == "":
		return nil, &FormatError{Err: errors.New("the header has no \"# winner\" line (required in v2)")}
	case h.positions < 0:
		return nil, &FormatError{Err: errors.New("the header has no \"# positions\" line (required in v2)")}
	case h.positions > maxCompactPositions:
		return nil, &FormatError{Err: fmt.Errorf("# positions %d: at most %d", h.positions, maxCompactPositions)}
	}
	root, err := v.ParsePosition(h.root + " 0")
	if err != nil {
		return nil, &FormatError{Line: h.rootLine, Err: fmt.Errorf("# root: %v", err)}
	}
	c.root = root
	dec, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(h.positions)+1<<20))
	if err != nil {
		return nil, err
	}
	defer dec.Close()
	c.moves, err = io.ReadAll(io.LimitReader(dec, int64(h.positions)+1))
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || err == nil && len(c.moves) < h.positions:
		return nil, &FormatError{Err: fmt.Errorf("the moves after byte %d are cut short: %d of the %d the header states", size, len(c.moves), h.positions)}
	case err != nil:
		return nil, &FormatError{Err: fmt.Errorf("the compressed moves after byte %d are damaged: %v", size, err)}
	case len(c.moves) > h.positions:
		return nil, &FormatError{Err: fmt.Errorf("the compressed moves after byte %d hold more than the %d moves the header states", size, h.positions)}
	}
	// The frame must end where the file does, its checksum checked.
	var rest [1]byte
	if k, err := dec.Read(rest[:]); k != 0 || err != io.EOF {
		if err == nil || err == io.ErrUnexpectedEOF || k != 0 {
			err = errors.New("data after the moves")
		}
		return nil, &FormatError{Err: fmt.Errorf("the compressed moves after byte %d are damaged: %v", size, err)}
	}
	return c, nil
}

// walker returns a walker that takes the winner's moves from c in order,
// each new position of the winner the next byte.
func (c *compact) walker(ctx context.Context, v *board.Variant, opts *Options) *walker {
	w := newWalker(ctx, v, board.South, opts)
	w.reserve(len(c.moves))
	if c.h.winner == board.North.String() {
		w.winner = board.North
	}
	w.ordinal = true
	var cands board.MoveList
	w.lookup = func(p *board.Position) (int32, error) {
		k := keyOf(p)
		if i, ok := w.index.get(k); ok {
			return i, nil
		}
		at := len(w.nodes)
		if at == len(c.moves) {
			return 0, &FormatError{Err: fmt.Errorf("the moves end before position %d of the certificate, %s: it is cut short or damaged", at+1, positionText(p))}
		}
		p.GenerateMoves(&cands)
		b := int(c.moves[at])
		switch {
		case cands.N == 0:
			return 0, fmt.Errorf("position %s (position %d of the certificate): the winner, %s, has no legal move there and loses", positionText(p), at+1, p.Side())
		case b >= cands.N:
			return 0, &FormatError{Err: fmt.Errorf("position %d of the certificate, %s: move index %d, but it has %d candidate moves (%s); byte %d of the moves is damaged",
				at+1, positionText(p), b, cands.N, cands.String(), at)}
		}
		w.index.add(k)
		w.nodes = append(w.nodes, node{line: uint32(at + 1), move: cands.Moves[b]})
		return int32(at), nil
	}
	w.moveErr = func(n *node, p *board.Position, err error) error {
		return fmt.Errorf("position %d of the certificate: %s is not legal in %s: %v", n.line, n.move, positionText(p), err)
	}
	return w
}

// verifyCompact is Verify for a v2 certificate in br.
func verifyCompact(ctx context.Context, br *bufio.Reader, root board.Position, opts Options) (Stats, error) {
	var st Stats
	v := root.Variant()
	c, err := readCompact(br, v)
	if err != nil {
		return st, err
	}
	if err := c.h.check(v, &root); err != nil {
		return st, err
	}
	w := c.walker(ctx, v, &opts)
	w.phase = "checking"
	need, depth, err := w.run(root)
	w.stats(&st, need, depth)
	st.Listed = len(c.moves)
	if err == nil && len(w.nodes) < len(c.moves) {
		err = &FormatError{Err: fmt.Errorf("the proof reaches %d positions of the winner, the certificate holds %d moves: it is damaged", len(w.nodes), len(c.moves))}
	}
	return st, err
}

// readCompactPiece reads the v2 certificate in br into the pieces p, as
// certificate number cert: it walks the proof from the header's root (at
// clock 0, without the no-capture limit, which the joined walk checks) to
// learn its positions. add is called with each position's key, move and
// place in the certificate.
func readCompactPiece(ctx context.Context, br *bufio.Reader, v *board.Variant, add func(k key, m board.Move, n int) error) (header, error) {
	c, err := readCompact(br, v)
	if err != nil {
		return header{}, err
	}
	w := c.walker(ctx, v, &Options{})
	w.limit = 0
	if _, _, err := w.run(c.root); err != nil {
		return c.h, fmt.Errorf("the certificate for %s does not hold on its own: %w", c.h.root, err)
	}
	if len(w.nodes) < len(c.moves) {
		return c.h, &FormatError{Err: fmt.Errorf("the proof reaches %d positions of the winner, the certificate holds %d moves: it is damaged", len(w.nodes), len(c.moves))}
	}
	for i, k := range w.index.keys {
		if err := add(k, w.nodes[i].move, int(w.nodes[i].line)); err != nil {
			return c.h, err
		}
	}
	return c.h, nil
}
