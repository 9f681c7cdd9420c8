package cert

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/sower-engine/sower/board"
)

// FormatError reports a certificate that cannot be read as one for the
// position and game given: a read error, a damaged gzip stream, a line that
// is not a position line or a header, a position of another board, or a
// header that names another game or root. A proof that can be read but does
// not hold is reported by other errors.
type FormatError struct {
	Line int // 1-based, or 0 when no line is concerned
	Err  error
}

// Error returns the message, with the line number when there is one.
func (e *FormatError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %v", e.Line, e.Err)
	}
	return e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *FormatError) Unwrap() error { return e.Err }

// errHoyito refuses a certificate for Hoyito III.
var errHoyito = errors.New("proof certificates are for Katro; Hoyito III has extra turns, passes and seed totals that they do not cover")

// maxLine is the longest line a certificate may hold, in bytes.
const maxLine = 1 << 16

// Verify reads a certificate from r (gzip-compressed or not: the first two
// bytes tell) and checks, with the rules alone, that it proves a win from
// root. The winner is the side the header's "# winner" line names; without
// one, the side to move at the root if the root is listed, else the other
// side. The proof holds when, playing the listed move at each of the
// winner's turns and every legal move at the loser's, every line ends with
// the loser to move and no legal move, no position is reached again from
// itself, no capture-free run reaches the variant's no-capture limit from
// the root's clock, and no position repeats one of opts.History for the
// third time. Lines the walk never reaches are allowed and counted in
// Stats.Unused.
//
// The error is a *FormatError when the certificate cannot be read; any
// other error says why the proof does not hold, naming the position (in
// notation without the clock, or with it where the clock matters) and the
// line of the certificate, or is ctx's error when ctx is done.
func Verify(ctx context.Context, r io.Reader, root board.Position, opts Options) (Stats, error) {
	var st Stats
	v := root.Variant()
	if v.Family() != board.Katro {
		return st, errHoyito
	}
	br, err := openCert(r)
	if err != nil {
		return st, err
	}
	if isCompact(br) {
		return verifyCompact(ctx, br, root, opts)
	}
	w := newWalker(ctx, v, root.Side(), &opts)
	w.phase = "checking"
	h, err := w.read(br, &st)
	if err != nil {
		return st, err
	}
	if err := h.check(v, &root); err != nil {
		return st, err
	}
	rk := keyOf(&root)
	switch _, listed := w.index.get(rk); {
	case h.winner != "":
		if h.winner == board.North.String() {
			w.winner = board.North
		} else {
			w.winner = board.South
		}
	case !listed:
		w.winner = root.Side().Other()
	}
	w.useListed()
	need, depth, err := w.run(root)
	w.stats(&st, need, depth)
	st.Unused = len(w.nodes) - st.WinnerReached
	return st, err
}

// useListed makes the walker take the winner's moves from the lines of a
// v1 certificate read into its index (read): a position not listed is
// refused, and an illegal move is named by its line.
func (w *walker) useListed() {
	w.lookup = func(p *board.Position) (int32, error) {
		if i, ok := w.index.get(keyOf(p)); ok {
			return i, nil
		}
		return 0, fmt.Errorf("position %s (winner to move) is not in the certificate", positionText(p))
	}
	w.moveErr = func(n *node, p *board.Position, err error) error {
		return fmt.Errorf("line %d: %s is not legal in %s: %v", n.line, n.move, positionText(p), err)
	}
}

// read reads the certificate's lines into the walker's index and returns
// its header.
func (w *walker) read(r *bufio.Reader, st *Stats) (header, error) {
	return readLines(w.ctx, r, w.v, func(k key, m board.Move, n int) error {
		st.Listed++
		if err := w.add(k, m, n, st); err != nil {
			return err
		}
		if n%progressEvery == 0 {
			w.progress("reading", n)
		}
		return nil
	})
}

// openCert returns a buffered reader of the certificate in r, decompressed
// when its first two bytes are gzip's magic number.
func openCert(r io.Reader) (*bufio.Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, &FormatError{Err: fmt.Errorf("gzip: %w", err)}
		}
		return bufio.NewReaderSize(gz, 1<<16), nil
	}
	return br, nil
}

// readLines reads a v1 certificate of variant v from br (opened by
// openCert), passes each position line to add with its key, move and line
// number, and returns the header. It checks the header's game as it comes
// and its count of positions at the end, and looks at ctx every few
// thousand lines. Errors in the file are *FormatError; add's own errors and
// ctx's are returned as they are.
func readLines(ctx context.Context, br *bufio.Reader, v *board.Variant, add func(k key, m board.Move, n int) error) (header, error) {
	h := header{positions: -1}
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 4096), maxLine)
	lp := newLineParser(v)
	n, listed := 0, 0
	for sc.Scan() {
		n++
		line := bytes.TrimSuffix(sc.Bytes(), []byte{'\r'})
		switch {
		case len(line) == 0:
			continue
		case line[0] == '#':
			if err := h.parse(line, n); err != nil {
				return h, &FormatError{Line: n, Err: err}
			}
			if h.version == Version2 {
				return h, &FormatError{Line: n, Err: errors.New("a version 2 header line in a version 1 certificate")}
			}
			if err := h.checkGame(v); err != nil {
				return h, err
			}
			continue
		}
		k, m, err := lp.parse(line)
		if err != nil {
			return h, &FormatError{Line: n, Err: err}
		}
		listed++
		if err := add(k, m, n); err != nil {
			return h, err
		}
		if n%progressEvery == 0 {
			if err := ctx.Err(); err != nil {
				return h, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("longer than %d bytes", maxLine)
		}
		return h, &FormatError{Line: n + 1, Err: err}
	}
	if h.positions >= 0 && h.positions != listed {
		return h, &FormatError{Err: fmt.Errorf("the header states %d positions, the certificate lists %d: it is incomplete or damaged", h.positions, listed)}
	}
	return h, nil
}

// add lists the position of key k with move m, from line n.
func (w *walker) add(k key, m board.Move, n int, st *Stats) error {
	if i, ok := w.index.get(k); ok {
		first := &w.nodes[i]
		if first.move != m {
			return relisted(n, int(first.line), m, first.move)
		}
		st.Duplicates++
		return nil
	}
	w.index.add(k)
	w.nodes = append(w.nodes, node{line: uint32(n), move: m})
	return nil
}

// relisted is the error of line n, which lists the position of line first
// again with move m instead of was.
func relisted(n, first int, m, was board.Move) error {
	return fmt.Errorf("line %d: the position of line %d is listed again with another move (%s, there %s)", n, first, m, was)
}

// checkGame checks the game the header states, if any.
func (h *header) checkGame(v *board.Variant) error {
	if h.game != "" && h.game != v.Name() {
		return &FormatError{Err: fmt.Errorf("the certificate is for %s, not %s", clip([]byte(h.game)), v.Name())}
	}
	return nil
}

// check checks the root the header states, if any.
func (h *header) check(v *board.Variant, root *board.Position) error {
	if h.root == "" {
		return nil
	}
	want := positionText(root)
	b := []byte(h.root)
	if i := bytes.LastIndexByte(b, ' '); i > 0 && len(b)-i == 2 {
		lp := newLineParser(v)
		side := board.South
		if b[i+1]|0x20 == 'n' {
			side = board.North
		}
		if k, ok := lp.readRows(b[:i], side); ok && (b[i+1]|0x20 == 's' || b[i+1]|0x20 == 'n') {
			if k == keyOf(root) {
				return nil
			}
		}
	}
	// A root is at most a few hundred bytes: it is quoted whole.
	return &FormatError{Line: h.rootLine, Err: fmt.Errorf("the certificate is for the root %s, not %s", clipAt(b, 400), want)}
}
