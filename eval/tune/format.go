package tune

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sower-engine/sower/board"
)

// Magic opens every data file; Version is the format's version. Version
// 2 added the Repetition option to the header; version 1 files, which
// lack it, are read as Repetition threefold.
const (
	Magic   = "SOWERDAT"
	Version = 2
)

// recordFixed is the size of a record without its holes.
const recordFixed = 16

// Record is one position of a self-play game with its labels.
type Record struct {
	Game   uint32         // the game's number in its run
	Ply    uint16         // plies played in the game before the position
	Pos    board.Position // the position (not following a pass)
	Score  int16          // the search's score for the side to move, in hundredths of a seed
	Result board.Result   // the game's result: SouthWins, NorthWins or Draw
}

// Target returns the game's result for the side to move: 1 for a win, 0.5
// for a draw, 0 for a loss.
func (r *Record) Target() float64 { return r.Result.Score(r.Pos.Side()) }

// RecordSize returns the size in bytes of one record of v.
func RecordSize(v *board.Variant) int { return recordFixed + v.Rows()*v.Cols() }

// header returns the file header for v.
func header(v *board.Variant) []byte {
	r := v.Rules()
	b := []byte(Magic)
	b = binary.LittleEndian.AppendUint16(b, Version)
	b = append(b, byte(len(v.Name())))
	b = append(b, v.Name()...)
	b = append(b, byte(r.CaptureSide), byte(r.LastFour), byte(r.Repetition))
	b = binary.LittleEndian.AppendUint32(b, uint32(r.NoCaptureLimit))
	b = append(b, byte(v.Rows()*v.Cols()))
	b = binary.LittleEndian.AppendUint16(b, uint16(RecordSize(v)))
	return b
}

// Writer writes a data file.
type Writer struct {
	v   *board.Variant
	w   *bufio.Writer
	buf []byte
}

// NewWriter writes the header for v to w and returns a Writer of records.
func NewWriter(w io.Writer, v *board.Variant) (*Writer, error) {
	wr := AppendWriter(w, v)
	if _, err := wr.w.Write(header(v)); err != nil {
		return nil, err
	}
	return wr, nil
}

// AppendWriter returns a Writer of records for v that writes no header,
// to continue a file (see Scan).
func AppendWriter(w io.Writer, v *board.Variant) *Writer {
	return &Writer{v: v, w: bufio.NewWriter(w)}
}

// Write writes one record. Records are buffered until Flush.
func (w *Writer) Write(r *Record) error {
	if r.Pos.Variant() == nil || r.Pos.Variant().Name() != w.v.Name() {
		return errors.New("record of another game")
	}
	w.buf = appendRecord(w.buf[:0], r)
	_, err := w.w.Write(w.buf)
	return err
}

// Flush writes the buffered records.
func (w *Writer) Flush() error { return w.w.Flush() }

// appendRecord encodes r.
func appendRecord(b []byte, r *Record) []byte {
	p := &r.Pos
	b = binary.LittleEndian.AppendUint32(b, r.Game)
	b = binary.LittleEndian.AppendUint16(b, r.Ply)
	b = append(b, byte(p.Side()), byte(p.Captured(board.South)), byte(p.Captured(board.North)))
	b = binary.LittleEndian.AppendUint32(b, uint32(p.Clock()))
	b = binary.LittleEndian.AppendUint16(b, uint16(r.Score))
	b = append(b, byte(r.Result))
	for _, h := range p.Variant().Holes() {
		b = append(b, byte(p.Count(h)))
	}
	return b
}

// Reader reads a data file.
type Reader struct {
	v    *board.Variant
	r    *bufio.Reader
	buf  []byte
	n    int64 // records read
	head int64 // header size
}

// NewReader reads the header from r and returns a Reader of its records.
func NewReader(r io.Reader) (*Reader, error) {
	br := bufio.NewReader(r)
	fixed := make([]byte, len(Magic)+3)
	n, err := io.ReadFull(br, fixed)
	if n < len(Magic) || string(fixed[:len(Magic)]) != Magic {
		return nil, errors.New("not a Sower data file (bad magic)")
	}
	if err != nil {
		return nil, fmt.Errorf("data header: %w", shortIsEOF(err))
	}
	ver := binary.LittleEndian.Uint16(fixed[len(Magic):])
	if ver != 1 && ver != Version {
		return nil, fmt.Errorf("data format version %d: this program reads versions 1 and %d", ver, Version)
	}
	name := make([]byte, fixed[len(fixed)-1])
	rest := make([]byte, 10)
	if ver == 1 {
		rest = rest[:9] // no Repetition byte
	}
	if _, err := io.ReadFull(br, name); err != nil {
		return nil, fmt.Errorf("data header: %w", shortIsEOF(err))
	}
	if _, err := io.ReadFull(br, rest); err != nil {
		return nil, fmt.Errorf("data header: %w", shortIsEOF(err))
	}
	rules := board.Rules{CaptureSide: board.CaptureSide(rest[0]), LastFour: board.LastFour(rest[1])}
	tail := rest[2:]
	if ver >= 2 {
		rules.Repetition, tail = board.Repetition(rest[2]), rest[3:]
	}
	lim := binary.LittleEndian.Uint32(tail)
	if lim > 1<<30 {
		return nil, fmt.Errorf("data header: no-capture limit %d out of range", lim)
	}
	rules.NoCaptureLimit = int(lim)
	v, err := board.NewWithRules(string(name), rules)
	if err != nil {
		return nil, fmt.Errorf("data header: %w", err)
	}
	if int(tail[4]) != v.Rows()*v.Cols() || int(binary.LittleEndian.Uint16(tail[5:])) != RecordSize(v) {
		return nil, fmt.Errorf("data header: hole count %d or record size %d does not fit %s", tail[4], binary.LittleEndian.Uint16(tail[5:]), v.Name())
	}
	return &Reader{v: v, r: br, buf: make([]byte, RecordSize(v)), head: int64(len(fixed) + len(name) + len(rest))}, nil
}

func shortIsEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// Variant returns the game and rules of the file.
func (r *Reader) Variant() *board.Variant { return r.v }

// Offset returns the size of the header and the records read so far: where
// the next record starts.
func (r *Reader) Offset() int64 { return r.head + r.n*int64(len(r.buf)) }

// Read reads the next record. It returns io.EOF at the end of the file,
// io.ErrUnexpectedEOF for a record cut short, and an error naming the
// record for one that is not valid.
func (r *Reader) Read(rec *Record) error {
	if _, err := io.ReadFull(r.r, r.buf); err != nil {
		return err
	}
	if err := decodeRecord(r.v, r.buf, rec); err != nil {
		return fmt.Errorf("record %d: %w", r.n+1, err)
	}
	r.n++
	return nil
}

// decodeRecord decodes and checks one record.
func decodeRecord(v *board.Variant, b []byte, rec *Record) error {
	rec.Game = binary.LittleEndian.Uint32(b)
	rec.Ply = binary.LittleEndian.Uint16(b[4:])
	side, cs, cn := b[6], b[7], b[8]
	clock := binary.LittleEndian.Uint32(b[9:])
	rec.Score = int16(binary.LittleEndian.Uint16(b[13:]))
	rec.Result = board.Result(b[15])
	if rec.Result < board.SouthWins || rec.Result > board.Draw {
		return fmt.Errorf("result %d: want 1 (South wins), 2 (North wins) or 3 (draw)", b[15])
	}
	if side > 1 {
		return fmt.Errorf("side %d: want 0 (South) or 1 (North)", side)
	}
	if clock > 1<<31-1 {
		return fmt.Errorf("clock %d out of range", clock)
	}
	// Build the position through the notation, which checks every rule.
	var sb strings.Builder
	holes := b[recordFixed:]
	for r := v.Rows() - 1; r >= 0; r-- {
		for c := 0; c < v.Cols(); c++ {
			if c > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(strconv.Itoa(int(holes[r*v.Cols()+c])))
		}
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	sb.WriteByte(' ')
	sb.WriteByte(board.Side(side).Letter())
	if v.Family() == board.Hoyito {
		fmt.Fprintf(&sb, " %d %d", cs, cn)
	} else if cs != 0 || cn != 0 {
		return errors.New("a Katro record has captures")
	}
	fmt.Fprintf(&sb, " %d", clock)
	p, err := v.ParsePosition(sb.String())
	if err != nil {
		return err
	}
	if p.Status(nil).Over() {
		return errors.New("the position is a finished game")
	}
	rec.Pos = p
	return nil
}

// ScanResult is what Scan found in a data file.
type ScanResult struct {
	Variant *board.Variant
	Records int
	Games   map[uint32]bool // the games with at least one record
	// Valid is the size of the header and the whole records: a file cut
	// short by an interruption is continued from there.
	Valid int64
	// LastGame is the game of the last whole record (-1 when there is
	// none), and LastStart and LastRecords where that game's last run of
	// records starts and how many it holds: the part of the file to drop
	// with a record of the same game cut short after it.
	LastGame    int64
	LastStart   int64
	LastRecords int
}

// Scan reads a whole data file to continue it: its variant, how many
// records and which games it holds, and where its last whole record ends.
// A record cut short at the end is not an error; an invalid record is.
func Scan(r io.Reader) (ScanResult, error) {
	rd, err := NewReader(r)
	if err != nil {
		return ScanResult{}, err
	}
	res := ScanResult{Variant: rd.Variant(), Games: map[uint32]bool{}, LastGame: -1}
	var rec Record
	for {
		at := rd.Offset()
		err := rd.Read(&rec)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return res, err
		}
		if int64(rec.Game) != res.LastGame {
			res.LastGame, res.LastStart, res.LastRecords = int64(rec.Game), at, 0
		}
		res.Records++
		res.LastRecords++
		res.Games[rec.Game] = true
	}
	res.Valid = rd.Offset()
	return res, nil
}
