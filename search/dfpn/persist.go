package dfpn

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/cespare/xxhash/v2"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/internal/atomicfile"
)

// The saved table's format (docs/dfpn.md, "The saved table"): a header, the
// records, and a checksum of everything before it, little-endian.
const (
	fileMagic   = "SOWRDFPN"
	fileVersion = 1
	recordBytes = 28
	// keepWork is the least work an unfinished entry needs to be saved:
	// a cheaper one is quickly searched again.
	keepWork = 8
)

// ErrForeign is the error (wrapped) of Load for a file of another game,
// other rule options or another format; ErrDamaged for a file that is not
// a whole saved table.
var (
	ErrForeign = errors.New("not a saved table of this board")
	ErrDamaged = errors.New("damaged")
)

// Save writes the table (the proven and disproven entries and the
// unfinished ones with some work below them) for Load to continue from. It
// returns the entries written. The table is of the variant of the last
// search or Load.
func (s *Solver) Save(w io.Writer) (int, error) {
	if s.v == nil {
		return 0, errors.New("dfpn: save: nothing searched yet")
	}
	h := xxhash.New()
	bw := bufio.NewWriter(io.MultiWriter(w, h))
	var n uint64
	for i := range s.tt.e {
		if keep(&s.tt.e[i]) {
			n++
		}
	}
	bw.Write(header(s.v, n))
	var rec [recordBytes]byte
	for i := range s.tt.e {
		if e := &s.tt.e[i]; keep(e) {
			putRecord(rec[:], e)
			bw.Write(rec[:])
		}
	}
	if err := bw.Flush(); err != nil {
		return 0, fmt.Errorf("dfpn: save: %w", err)
	}
	var sum [8]byte
	binary.LittleEndian.PutUint64(sum[:], h.Sum64())
	if _, err := w.Write(sum[:]); err != nil {
		return 0, fmt.Errorf("dfpn: save: %w", err)
	}
	return int(n), nil
}

// SaveFile writes the table (Save) to path whole or not at all
// (internal/atomicfile: the file holds the old table or the new one, even
// after a crash) and returns the entries written.
func (s *Solver) SaveFile(path string) (int, error) {
	var n int
	err := atomicfile.Write(path, func(w io.Writer) error {
		var err error
		n, err = s.Save(w)
		return err
	})
	return n, err
}

// LoadFile reads the table that SaveFile wrote to path (Load). Its errors
// name the file: the os package's when it cannot be opened, Load's
// (ErrForeign, ErrDamaged) after the path.
func (s *Solver) LoadFile(path string, v *board.Variant) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := s.Load(bufio.NewReaderSize(f, 1<<20), v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// keep reports whether an entry is saved: present, not resting on a
// repetition of the line that found it, final or with work below it.
func keep(e *entry) bool {
	return e.flags == flagPresent && (e.pn == 0 || e.dn == 0 || e.work >= keepWork)
}

// header returns the file's header for variant v and n records: the magic,
// the version, the record size, the variant's name and rule options, the
// key of its start (so that a change of the keys is caught) and n.
func header(v *board.Variant, n uint64) []byte {
	r := v.Rules()
	b := []byte(fileMagic)
	b = binary.LittleEndian.AppendUint16(b, fileVersion)
	b = binary.LittleEndian.AppendUint16(b, recordBytes)
	b = append(b, byte(len(v.Name())))
	b = append(b, v.Name()...)
	b = append(b, byte(r.CaptureSide), byte(r.LastFour), byte(r.Repetition))
	b = binary.LittleEndian.AppendUint32(b, uint32(r.NoCaptureLimit))
	start := v.Start()
	b = binary.LittleEndian.AppendUint64(b, start.Key())
	return binary.LittleEndian.AppendUint64(b, n)
}

// putRecord writes entry e as a record.
func putRecord(b []byte, e *entry) {
	binary.LittleEndian.PutUint64(b[0:], e.key)
	binary.LittleEndian.PutUint32(b[8:], e.pn)
	binary.LittleEndian.PutUint32(b[12:], e.dn)
	binary.LittleEndian.PutUint32(b[16:], e.work)
	binary.LittleEndian.PutUint32(b[20:], uint32(e.clock))
	binary.LittleEndian.PutUint16(b[24:], e.dist)
	b[26] = byte(e.move)
	b[27] = e.flags
}

// record reads a record, checking that it is one Save writes for v.
func record(b []byte, v *board.Variant) (entry, error) {
	e := entry{
		key:   binary.LittleEndian.Uint64(b[0:]),
		pn:    binary.LittleEndian.Uint32(b[8:]),
		dn:    binary.LittleEndian.Uint32(b[12:]),
		work:  binary.LittleEndian.Uint32(b[16:]),
		clock: int32(binary.LittleEndian.Uint32(b[20:])),
		dist:  binary.LittleEndian.Uint16(b[24:]),
		move:  board.Move(b[26]),
		flags: b[27],
	}
	final := (e.pn == 0 && e.dn == inf) || (e.pn == inf && e.dn == 0)
	switch {
	case e.flags != flagPresent:
		return e, errors.New("bad flags")
	case !final && (e.pn == 0 || e.dn == 0 || e.pn > maxPN || e.dn > maxPN):
		return e, errors.New("bad proof numbers")
	case e.move != board.NoMove && !v.OnBoard(e.move):
		return e, errors.New("bad move")
	}
	return e, nil
}

// Load reads a table that Save wrote for variant v into the solver's table
// (of any size: entries go where the replacement policy puts them), for
// searches of v's positions to continue from. A file of another game,
// other options or format is refused (ErrForeign), as is one damaged
// (ErrDamaged); then the table is left empty.
func (s *Solver) Load(r io.Reader, v *board.Variant) error {
	s.tt.clear()
	s.setVariant(v)
	if err := s.load(bufio.NewReader(r), v); err != nil {
		s.tt.clear()
		return fmt.Errorf("dfpn: load: %w", err)
	}
	return nil
}

// load is Load's reading.
func (s *Solver) load(r io.Reader, v *board.Variant) error {
	h := xxhash.New()
	tr := io.TeeReader(r, h)
	var fixed [len(fileMagic) + 5]byte
	if _, err := io.ReadFull(tr, fixed[:]); err != nil || string(fixed[:len(fileMagic)]) != fileMagic {
		return fmt.Errorf("%w: it does not start with %s", ErrForeign, fileMagic)
	}
	version := binary.LittleEndian.Uint16(fixed[len(fileMagic):])
	size := binary.LittleEndian.Uint16(fixed[len(fileMagic)+2:])
	if version != fileVersion || size != recordBytes {
		return fmt.Errorf("%w: format version %d (records of %d bytes), want %d (%d)", ErrForeign, version, size, fileVersion, recordBytes)
	}
	name := make([]byte, fixed[len(fixed)-1])
	if _, err := io.ReadFull(tr, name); err != nil {
		return fmt.Errorf("%w: the header is cut short", ErrDamaged)
	}
	// The rule options (7 bytes), the start's key and the count.
	var rest [7 + 8 + 8]byte
	if _, err := io.ReadFull(tr, rest[:]); err != nil {
		return fmt.Errorf("%w: the header is cut short", ErrDamaged)
	}
	if string(name) != v.Name() {
		return fmt.Errorf("%w: a table of %s, want %s", ErrForeign, printable(name), v.Name())
	}
	want := header(v, 0)[len(fixed)+len(name):]
	if string(rest[:7]) != string(want[:7]) {
		r := board.Rules{CaptureSide: board.CaptureSide(rest[0]), LastFour: board.LastFour(rest[1]), Repetition: board.Repetition(rest[2]),
			NoCaptureLimit: int(binary.LittleEndian.Uint32(rest[3:]))}
		return fmt.Errorf("%w: a table of %s with %s, want %s", ErrForeign, v.Name(), rulesString(r), rulesString(v.Rules()))
	}
	if string(rest[7:15]) != string(want[7:15]) {
		return fmt.Errorf("%w: a table of %s with other position keys (another version of the rules' keys)", ErrForeign, v.Name())
	}
	n := binary.LittleEndian.Uint64(rest[15:])
	var rec [recordBytes]byte
	for i := uint64(0); i < n; i++ {
		if _, err := io.ReadFull(tr, rec[:]); err != nil {
			return fmt.Errorf("%w: %d of %d records", ErrDamaged, i, n)
		}
		e, err := record(rec[:], v)
		if err != nil {
			return fmt.Errorf("%w: record %d: %v", ErrDamaged, i, err)
		}
		s.tt.put(e)
	}
	var sum [8]byte
	if _, err := io.ReadFull(r, sum[:]); err != nil {
		return fmt.Errorf("%w: no checksum", ErrDamaged)
	}
	if binary.LittleEndian.Uint64(sum[:]) != h.Sum64() {
		return fmt.Errorf("%w: the checksum does not match", ErrDamaged)
	}
	if _, err := r.Read(sum[:1]); err != io.EOF {
		return fmt.Errorf("%w: bytes after the checksum", ErrDamaged)
	}
	return nil
}

// printable returns a name read from a file, safe to print.
func printable(b []byte) string {
	for _, c := range b {
		if c < ' ' || c > '~' {
			return fmt.Sprintf("%q", b)
		}
	}
	return string(b)
}

// rulesString words rule options as sower's options do.
func rulesString(r board.Rules) string {
	return fmt.Sprintf("CaptureSide %s, LastFour %s, Repetition %s, NoCaptureLimit %d", r.CaptureSide, r.LastFour, r.Repetition, r.NoCaptureLimit)
}
