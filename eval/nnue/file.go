package nnue

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
)

// The file format (docs/nnue.md has it byte by byte): a header naming the
// format, the family and the architecture, a description, the weights
// little-endian layer by layer, and a CRC-32C of everything before it.
const (
	// Magic opens every network file.
	Magic = "SOWERNET"
	// FormatVersion is the version of the file format written. Read
	// reads it, version 2, whose win/draw/loss model has no table, and
	// version 1, which has no model.
	FormatVersion = 3
	// headerSize is the size of the fixed header, before the description.
	headerSize = 182
	// headerSizeV2 is version 2's: no table; headerSizeV1 version 1's: no
	// win/draw/loss model.
	headerSizeV2 = 46
	headerSizeV1 = 30
	// tableAt is the offset of the model's table in a version-3 file.
	tableAt = 44
	// MaxDescription bounds the description's length in bytes.
	MaxDescription = 4096
	// MaxFileSize bounds a network file: the largest family's weights
	// with the longest description.
	MaxFileSize = headerSize + MaxDescription + KatroInputs*Hidden*2 + fixedWeights + 4
	// fixedWeights is the size of the weights after the feature
	// transformer's: its bias, the dense layer and the output.
	fixedWeights = Hidden*2 + L1*2*Hidden*2 + L1*4 + L1*2 + 4
)

// castagnoli is the CRC-32C polynomial's table.
func castagnoli() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) }

// Size returns the size in bytes of n's file.
func (n *Net) Size() int {
	return n.header() + len(n.Description) + len(n.FT)*2 + fixedWeights + 4
}

// fileVersion returns the format version n is written in, so that a file
// is written back as it was read: version 1 for a network read from a
// version-1 file and given no win/draw/loss model since, version 2 for
// one read from a version-2 file and given no model table since;
// FormatVersion otherwise.
func (n *Net) fileVersion() uint16 {
	switch {
	case n.version == 1 && n.WDL == (eval.WDLModel{}):
		return 1
	case n.version == 2 && n.WDL.Table.Empty():
		return 2
	}
	return FormatVersion
}

// header returns the size of the fixed header of n's file.
func (n *Net) header() int { return headerOf(n.fileVersion()) }

// headerOf returns the size of the fixed header of a file of a format
// version.
func headerOf(version uint16) int {
	switch version {
	case 1:
		return headerSizeV1
	case 2:
		return headerSizeV2
	}
	return headerSize
}

// checkWDL reports whether m is a win/draw/loss model a file may hold:
// none (zero), or a positive finite K with a finite band of 0 or more,
// and a table (eval.WDLTable.Check) or none.
func checkWDL(m eval.WDLModel) error {
	switch {
	case m == eval.WDLModel{}:
		return nil
	case m.K == 0 && m.Band == 0:
		return errors.New("nnue: a win/draw/loss table without its model (K 0)")
	case !(m.K > 0) || math.IsInf(m.K, 0) || !(m.Band >= 0) || math.IsInf(m.Band, 0):
		return fmt.Errorf("nnue: win/draw/loss model K %g, band %g: want K above 0 and a band of 0 or more, both finite (or both 0: none)", m.K, m.Band)
	}
	if err := m.Table.Check(); err != nil {
		return fmt.Errorf("nnue: %w", err)
	}
	return nil
}

// AppendBinary appends n's file to b.
func (n *Net) AppendBinary(b []byte) ([]byte, error) {
	if err := n.check(); err != nil {
		return b, err
	}
	if err := checkWDL(n.WDL); err != nil {
		return b, err
	}
	if len(n.Description) > MaxDescription || !utf8.ValidString(n.Description) {
		return b, fmt.Errorf("nnue: the description must be UTF-8 of at most %d bytes", MaxDescription)
	}
	le := binary.LittleEndian
	start := len(b)
	b = append(b, Magic...)
	version := n.fileVersion()
	b = le.AppendUint16(b, version)
	b = append(b, byte(n.Family), Arch)
	b = le.AppendUint32(b, uint32(Inputs(n.Family)))
	b = le.AppendUint16(b, Hidden)
	b = le.AppendUint16(b, L1)
	b = append(b, Buckets, n.Boards)
	b = le.AppendUint16(b, QA)
	b = le.AppendUint16(b, QB)
	b = le.AppendUint16(b, OutScale)
	if version >= 2 {
		b = le.AppendUint64(b, math.Float64bits(n.WDL.K))
		b = le.AppendUint64(b, math.Float64bits(n.WDL.Band))
	}
	if version >= 3 {
		t := &n.WDL.Table
		for _, x := range t.Win {
			b = le.AppendUint16(b, x)
		}
		for _, x := range t.Loss {
			b = le.AppendUint16(b, x)
		}
		b = le.AppendUint16(b, t.Win0)
		b = le.AppendUint16(b, t.Loss0)
	}
	b = le.AppendUint16(b, uint16(len(n.Description)))
	b = append(b, n.Description...)
	for _, w := range n.FT {
		b = le.AppendUint16(b, uint16(w))
	}
	for _, w := range n.FTBias {
		b = le.AppendUint16(b, uint16(w))
	}
	for j := range n.Dense {
		for _, w := range n.Dense[j] {
			b = le.AppendUint16(b, uint16(w))
		}
	}
	for _, w := range n.DenseBias {
		b = le.AppendUint32(b, uint32(w))
	}
	for _, w := range n.Out {
		b = le.AppendUint16(b, uint16(w))
	}
	b = le.AppendUint32(b, uint32(n.OutBias))
	return le.AppendUint32(b, crc32.Checksum(b[start:], castagnoli())), nil
}

// WriteTo writes n's file to w.
func (n *Net) WriteTo(w io.Writer) (int64, error) {
	b, err := n.AppendBinary(make([]byte, 0, n.Size()))
	if err != nil {
		return 0, err
	}
	k, err := w.Write(b)
	return int64(k), err
}

// WriteFile writes n's file to the named file, whole or not at all:
// through a new file beside it, renamed over it once complete.
func (n *Net) WriteFile(name string) error {
	b, err := n.AppendBinary(nil)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// ErrNotNetwork is returned for a file that is not a Sower network.
var ErrNotNetwork = errors.New("nnue: not a Sower network file (its magic is not " + Magic + ")")

// Read reads a network file of family want from r. It refuses a file
// that is damaged (its checksum or size is wrong), of another format
// version, of another family or of another architecture, each with an
// error that says which.
func Read(r io.Reader, want board.Family) (*Net, error) {
	n, err := ReadAny(r)
	if err != nil {
		return nil, err
	}
	if n.Family != want {
		return nil, fmt.Errorf("nnue: the network is for %s, not %s", n.Family, want)
	}
	return n, nil
}

// ReadFile reads the named network file, of any family.
func ReadFile(name string) (*Net, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n, err := ReadAny(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return n, nil
}

// ReadAny reads a network file of either family from r.
func ReadAny(r io.Reader) (*Net, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	return Decode(b)
}

// checkArch checks the family and the architecture recorded in the header
// of b, a file at least as long as its version's fixed header (the fields
// it reads are in every version's).
func checkArch(b []byte) error {
	le := binary.LittleEndian
	f := board.Family(b[10])
	if f != board.Katro && f != board.Hoyito {
		return fmt.Errorf("nnue: unknown family %d", b[10])
	}
	got := [...]int{int(b[11]), int(le.Uint32(b[12:])), int(le.Uint16(b[16:])), int(le.Uint16(b[18:])), int(b[20]), int(le.Uint16(b[22:])), int(le.Uint16(b[24:])), int(le.Uint16(b[26:]))}
	want := [...]int{Arch, Inputs(f), Hidden, L1, Buckets, QA, QB, OutScale}
	if got != want {
		return fmt.Errorf("nnue: the network's architecture (number %d: %d inputs, %d, %d, 1; %d buckets; scales %d, %d, %d) is not this program's (number %d: %d inputs, %d, %d, 1; %d buckets; scales %d, %d, %d)",
			got[0], got[1], got[2], got[3], got[4], got[5], got[6], got[7], want[0], want[1], want[2], want[3], want[4], want[5], want[6], want[7])
	}
	return nil
}

// Decode decodes a whole network file (see Read).
func Decode(b []byte) (*Net, error) {
	le := binary.LittleEndian
	if len(b) < len(Magic) || string(b[:len(Magic)]) != Magic {
		return nil, ErrNotNetwork
	}
	if len(b) < 10 {
		return nil, fmt.Errorf("nnue: the file is cut short (%d bytes)", len(b))
	}
	version := le.Uint16(b[8:])
	if version < 1 || version > FormatVersion {
		return nil, fmt.Errorf("nnue: format version %d; this program reads versions 1 to %d", version, FormatVersion)
	}
	hs := headerOf(version)
	if len(b) < hs+4 {
		return nil, fmt.Errorf("nnue: the file is cut short (%d bytes)", len(b))
	}
	if len(b) > MaxFileSize {
		// A network of an earlier, wider architecture is larger than
		// any of this one's: say so rather than only that it is large.
		if err := checkArch(b); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("nnue: the file is larger than a network (%d bytes at most)", MaxFileSize)
	}
	body := b[:len(b)-4]
	if sum, want := crc32.Checksum(body, castagnoli()), le.Uint32(b[len(b)-4:]); sum != want {
		return nil, fmt.Errorf("nnue: damaged file: checksum %08x, recorded %08x", sum, want)
	}
	if err := checkArch(b); err != nil {
		return nil, err
	}
	f := board.Family(b[10])
	d := int(le.Uint16(b[hs-2:]))
	n := New(f, "")
	n.version = version
	if version >= 2 {
		n.WDL = eval.WDLModel{K: math.Float64frombits(le.Uint64(b[28:])), Band: math.Float64frombits(le.Uint64(b[36:]))}
		if version >= 3 {
			n.WDL.Table = decodeTable(b[tableAt:])
		}
		if err := checkWDL(n.WDL); err != nil {
			return nil, err
		}
	}
	if want := hs + d + len(n.FT)*2 + fixedWeights; len(body) != want {
		return nil, fmt.Errorf("nnue: the file has %d bytes, a %s network with this description %d", len(b), f, want+4)
	}
	if d > MaxDescription || !utf8.Valid(b[hs:hs+d]) {
		return nil, errors.New("nnue: the description is not UTF-8 of at most 4096 bytes")
	}
	n.Description = string(b[hs : hs+d])
	if n.Boards = b[21]; n.Boards&^allBoards(f) != 0 {
		return nil, fmt.Errorf("nnue: board bits %#x: a %s network has boards %#x", n.Boards, f, allBoards(f))
	}
	rd := reader{b: body[hs+d:]}
	for i := range n.FT {
		n.FT[i] = rd.i16()
	}
	for i := range n.FTBias {
		n.FTBias[i] = rd.i16()
	}
	for j := range n.Dense {
		for i := range n.Dense[j] {
			n.Dense[j][i] = rd.i16()
		}
	}
	for j := range n.DenseBias {
		n.DenseBias[j] = rd.i32()
	}
	for j := range n.Out {
		n.Out[j] = rd.i16()
	}
	n.OutBias = rd.i32()
	return n, nil
}

// decodeTable decodes a win/draw/loss table (a version-3 header's, from
// byte tableAt).
func decodeTable(b []byte) eval.WDLTable {
	var t eval.WDLTable
	rd := reader{b: b}
	for i := range t.Win {
		t.Win[i] = uint16(rd.i16())
	}
	for i := range t.Loss {
		t.Loss[i] = uint16(rd.i16())
	}
	t.Win0, t.Loss0 = uint16(rd.i16()), uint16(rd.i16())
	return t
}

// reader decodes little-endian integers from a slice whose length was
// checked.
type reader struct{ b []byte }

func (r *reader) i16() int16 {
	v := int16(binary.LittleEndian.Uint16(r.b))
	r.b = r.b[2:]
	return v
}

func (r *reader) i32() int32 {
	v := int32(binary.LittleEndian.Uint32(r.b))
	r.b = r.b[4:]
	return v
}
