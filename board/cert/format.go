package cert

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sower-engine/sower/board"
)

// The certificate formats' versions, written in the first header line as
// "# sower proof certificate v1" or "… v2". Version 1 is text, one line per
// position of the winner; version 2 is compact: a text header, then the
// winner's moves as indices in one zstd frame (format2.go, docs/proofs.md).
const (
	Version  = 1
	Version2 = 2
)

// Header keys, each written "# <key> <value>".
const (
	headerMagic     = "sower proof certificate"
	headerGame      = "game"
	headerRoot      = "root"
	headerWinner    = "winner"
	headerPositions = "positions"
	headerMoves     = "moves" // v2: the last header line, "# moves zstd"
)

// appendPosition appends p's rows and side in the rule book's notation
// without the clock, as in "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S".
func appendPosition(b []byte, p *board.Position) []byte {
	v := p.Variant()
	for r := v.Rows() - 1; r >= 0; r-- {
		for c := 0; c < v.Cols(); c++ {
			if c > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(p.Count(board.HoleMove(r, c))), 10)
		}
		if r > 0 {
			b = append(b, '/')
		}
	}
	return append(b, ' ', p.Side().Letter())
}

// appendLine appends the certificate line of p and its move m, with its
// newline.
func appendLine(b []byte, p *board.Position, m board.Move) []byte {
	b = appendPosition(b, p)
	return append(b, '\t', 'a'+byte(m.Col()), '1'+byte(m.Row()), '\n')
}

// positionText returns p in notation without the clock, for messages.
func positionText(p *board.Position) string { return string(appendPosition(nil, p)) }

// lineParser reads position lines of one variant without allocating.
type lineParser struct {
	v                 *board.Variant
	rows, cols, total int
	depth             int // rows per player
}

func newLineParser(v *board.Variant) *lineParser {
	return &lineParser{v: v, rows: v.Rows(), cols: v.Cols(), total: v.Total(), depth: v.Depth()}
}

// errLineShape is the message of a line that is not a position line.
const errLineShape = "not `<rows> <side>\\t<move>`"

// parse reads a position line (without its line ending): the rows, one
// space, the side, a TAB and the move. It returns the position's key and
// the move; the move is a hole of the board, not yet known to be legal.
func (lp *lineParser) parse(b []byte) (key, board.Move, error) {
	tab := bytes.IndexByte(b, '\t')
	if tab < 0 {
		return key{}, 0, fmt.Errorf("%s: no TAB before the move", errLineShape)
	}
	pos, mv := b[:tab], b[tab+1:]
	if len(pos) < 3 || pos[len(pos)-2] != ' ' {
		return key{}, 0, fmt.Errorf("%s: want the rows, one space and the side S or N before the TAB", errLineShape)
	}
	var side board.Side
	switch pos[len(pos)-1] {
	case 'S', 's':
		side = board.South
	case 'N', 'n':
		side = board.North
	default:
		return key{}, 0, fmt.Errorf("side %q: want S or N", clip(pos[len(pos)-1:]))
	}
	rows := pos[:len(pos)-2]
	k, ok := lp.readRows(rows, side)
	if !ok {
		return key{}, 0, lp.rowsError(rows, side)
	}
	m, err := lp.parseMove(mv)
	if err != nil {
		return key{}, 0, err
	}
	return k, m, nil
}

// readRows reads the rows into a key with the side to move, and reports
// whether they are a valid position of the variant: the board's shape,
// counts no larger than the game's total, the seeds adding up to it, and
// seeds on the side not to move (rule book section 3).
func (lp *lineParser) readRows(b []byte, side board.Side) (key, bool) {
	var k key
	r, c, n, digits, sum := lp.rows-1, 0, 0, 0, 0
	own := [2]int{}
	end := func() bool {
		if digits == 0 || n > lp.total || c >= lp.cols {
			return false
		}
		k.set(r*lp.cols+c, n)
		sum += n
		owner := board.South
		if r >= lp.depth {
			owner = board.North
		}
		own[owner] += n
		n, digits = 0, 0
		return true
	}
	for _, ch := range b {
		switch {
		case ch >= '0' && ch <= '9':
			digits++
			n = min(n*10+int(ch-'0'), 1000) // large counts stay too large
		case ch == ',':
			if !end() {
				return k, false
			}
			c++
		case ch == '/':
			if !end() || c != lp.cols-1 {
				return k, false
			}
			r, c = r-1, 0
			if r < 0 {
				return k, false
			}
		default:
			return k, false
		}
	}
	if !end() || r != 0 || c != lp.cols-1 || sum != lp.total || own[side.Other()] == 0 {
		return k, false
	}
	k.setSide(side)
	return k, true
}

// rowsError says why rows are not a position of the variant, in the words
// of the notation's parser.
func (lp *lineParser) rowsError(rows []byte, side board.Side) error {
	if bytes.ContainsAny(rows, " \t") {
		return fmt.Errorf("%s: want the rows, one space and the side S or N before the TAB", errLineShape)
	}
	_, err := lp.v.ParsePosition(string(rows) + " " + string(side.Letter()) + " 0")
	if err == nil { // not expected: the two read the same positions
		return fmt.Errorf("rows %q are not a %s board", clip(rows), lp.v.Name())
	}
	return err
}

// parseMove reads a hole of the board such as "a1" (either case).
func (lp *lineParser) parseMove(b []byte) (board.Move, error) {
	if len(b) != 2 {
		return 0, fmt.Errorf("move %q: want a hole such as a1", clip(b))
	}
	col, row := int(b[0]|0x20)-'a', int(b[1])-'1'
	if col < 0 || col >= lp.cols || row < 0 || row >= lp.rows {
		return 0, fmt.Errorf("move %q: not a hole of the %s board (columns a-%c, rows 1-%d)",
			clip(b), lp.v.Name(), 'a'+byte(lp.cols-1), lp.rows)
	}
	return board.HoleMove(row, col), nil
}

// clip quotes at most 40 bytes of input in a message.
func clip(b []byte) string { return clipAt(b, 40) }

// clipAt quotes at most n bytes of input in a message.
func clipAt(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// header is what a certificate's header lines state; empty fields were not
// stated.
type header struct {
	version            int // 0 when not stated (a v1 file may omit the line)
	game, root, winner string
	positions          int // -1 when not stated
	rootLine           int
	moves              string // v2: the coding of the moves ("zstd")
}

// parseHeader reads one header line (starting with '#') into h. Unknown
// lines are ignored; a known one with a malformed value is an error.
func (h *header) parse(line []byte, n int) error {
	text := strings.TrimSpace(string(line[1:]))
	if rest, ok := strings.CutPrefix(text, headerMagic); ok {
		switch v := strings.TrimSpace(rest); v {
		case "v1":
			h.version = Version
		case "v2":
			h.version = Version2
		default:
			return fmt.Errorf("certificate version %q: this checker reads v1 and v2", clip([]byte(v)))
		}
		return nil
	}
	name, value, _ := strings.Cut(text, " ")
	value = strings.TrimSpace(value)
	switch name {
	case headerGame:
		h.game = value
	case headerRoot:
		h.root, h.rootLine = value, n
	case headerWinner:
		if value != board.South.String() && value != board.North.String() {
			return fmt.Errorf("# winner %q: want South or North", clip([]byte(value)))
		}
		h.winner = value
	case headerPositions:
		p, err := strconv.Atoi(value)
		if err != nil || p < 0 {
			return fmt.Errorf("# positions %q: want a count", clip([]byte(value)))
		}
		h.positions = p
	case headerMoves:
		h.moves = value
	}
	return nil
}

// Header is what a certificate's header states of its proof: empty
// strings for what it does not state (a v1 file may state nothing).
type Header struct {
	Version int    // 1 or 2
	Game    string // the game's name, such as katro-4x6
	Root    string // the root's rows and side, without a clock
	Winner  string // South or North
}

// ReadHeader reads the header of the certificate in r (v1, plain or
// gzipped, or v2): the lines starting with '#' before the first position
// line of a v1 file, or the whole header of a v2 file. It reads no
// further than the header.
func ReadHeader(r io.Reader) (Header, error) {
	br, err := openCert(r)
	if err != nil {
		return Header{}, err
	}
	var h header
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		if len(line) == 0 || line[0] != '#' {
			break
		}
		if len(line) > maxHeader {
			return Header{}, &FormatError{Line: n, Err: fmt.Errorf("longer than %d bytes", maxHeader)}
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte{'\n'}), []byte{'\r'})
		if err := h.parse(line, n); err != nil {
			return Header{}, &FormatError{Line: n, Err: err}
		}
		if h.moves != "" || err != nil {
			break
		}
	}
	v := h.version
	if v == 0 {
		v = Version
	}
	return Header{Version: v, Game: h.game, Root: h.root, Winner: h.winner}, nil
}
