package tables

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cespare/xxhash/v2"
)

// File format, version 2 (all integers little-endian):
//
//	offset size  field
//	0      8     magic "SOWERTB\x00"
//	8      4     format version (2)
//	12     4     header size (96)
//	16     1     game (1 = Hoyito III)
//	17     1     seeds on the board in this layer
//	18     1     CaptureSide (0 any, 1 opponent)
//	19     1     LastFour kind (0 capturer, 1 fixed)
//	20     1     halves (1 or 2)
//	21     1     entry size (6)
//	22     2     no-capture limit L in plies (0: none, no clock values)
//	24     8     positions per half: C(seeds+11, 11)
//	32     8     checksum of the layer below (its bytes 40-47 and 72-79
//	             hashed together; 0 for 8 seeds)
//	40     8     checksum of this layer's entries
//	48     8     positions with exact bounds (Lo == Hi)
//	56     2     last horizon P computed (0 when L is 0)
//	58     1     period of the values from P on: 1 (fixed) or 2 (V_h =
//	             V_{h-2} for h > P); 0 when L is 0
//	59     1     clock block size B (64)
//	60     4     zero
//	64     8     size of the clock section in bytes
//	72     8     checksum of the clock section
//	80     8     changes stored in the clock section
//	88     8     checksum of bytes 0-87
//	96     ...   entries: halves × positions × 6 bytes, by half, then rank
//	...    ...   the clock section
//
// An entry is lo (int8), hi (int8), distLo (uint8), distHi (uint8),
// value (int8) and settle (uint8). value is the exact value under
// Repetition off at clock 0 (L plies left); settle is the horizon (plies
// left) from which the position's value no longer changes, up to P.
//
// The clock section lists, for every position, the horizons h ≤ P at which
// its value V_h differs from V_{h-1} (V_0 being the row margin: the seeds
// of the mover's row minus the opponent's): blocks of B positions in entry
// order, first an index of (blocks+1) uint64 offsets of each block from the
// end of the index, then the blocks, each B count bytes (changes of each
// position) followed by the changes of its positions in order, two bytes
// each: the horizon (uint8) and the value from it on (int8). The value at
// horizon h is that of the last change at or below h* (h* = h up to P;
// above P, P when the period is 1 or h−P is even, P−1 otherwise), or the
// row margin if there is none. The checksums are xxhash64.

// Format constants.
const (
	Version    = 2
	HeaderSize = 96
	EntrySize  = 6
	// ClockBlock is the number of positions of a clock-section block.
	ClockBlock = 64
	gameHoyito = 1
)

var magic = []byte("SOWERTB\x00")

// header is the decoded header of a table file.
type header struct {
	seeds    int
	opts     Options
	halves   int
	n        uint64
	lowerSum uint64
	sum      uint64
	exact    uint64
	last     int
	period   int
	clkSize  uint64
	clkSum   uint64
	changes  uint64
}

// identity returns the checksum that names a layer to the layer above it:
// its entries' and its clock section's checksums hashed together.
func (h *header) identity() uint64 {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:], h.sum)
	binary.LittleEndian.PutUint64(b[8:], h.clkSum)
	return xxhash.Sum64(b[:])
}

// encode returns the header bytes.
func (h *header) encode() []byte {
	b := make([]byte, HeaderSize)
	copy(b, magic)
	le := binary.LittleEndian
	le.PutUint32(b[8:], Version)
	le.PutUint32(b[12:], HeaderSize)
	b[16] = gameHoyito
	b[17] = byte(h.seeds)
	b[18] = byte(h.opts.CaptureSide)
	if h.opts.Fixed {
		b[19] = 1
	}
	b[20] = byte(h.halves)
	b[21] = EntrySize
	le.PutUint16(b[22:], uint16(h.opts.Limit))
	le.PutUint64(b[24:], h.n)
	le.PutUint64(b[32:], h.lowerSum)
	le.PutUint64(b[40:], h.sum)
	le.PutUint64(b[48:], h.exact)
	le.PutUint16(b[56:], uint16(h.last))
	b[58] = byte(h.period)
	b[59] = ClockBlock
	le.PutUint64(b[64:], h.clkSize)
	le.PutUint64(b[72:], h.clkSum)
	le.PutUint64(b[80:], h.changes)
	le.PutUint64(b[88:], xxhash.Sum64(b[:88]))
	return b
}

// errVersion1 is the error for a file of the first format.
var errVersion1 = errors.New("format version 1, from an earlier Sower: this program reads version 2, which adds the exact values under Repetition off; build the tables again with sower tables build")

// decodeHeader checks and decodes the header bytes of a file of size bytes.
func decodeHeader(b []byte, size int64) (header, error) {
	var h header
	le := binary.LittleEndian
	if len(b) >= 12 && bytes.Equal(b[:8], magic) && le.Uint32(b[8:]) == 1 {
		return h, errVersion1
	}
	if len(b) < HeaderSize {
		return h, fmt.Errorf("file is %d bytes, shorter than the %d-byte header", len(b), HeaderSize)
	}
	if !bytes.Equal(b[:8], magic) {
		return h, errors.New("not a Sower table file (bad magic)")
	}
	if v := le.Uint32(b[8:]); v != Version {
		return h, fmt.Errorf("format version %d, this program reads version %d", v, Version)
	}
	if sum := xxhash.Sum64(b[:88]); le.Uint64(b[88:]) != sum {
		return h, errors.New("header checksum does not match: the header is damaged")
	}
	if hs := le.Uint32(b[12:]); hs != HeaderSize {
		return h, fmt.Errorf("header size %d, want %d", hs, HeaderSize)
	}
	if b[16] != gameHoyito {
		return h, fmt.Errorf("game %d is not Hoyito III", b[16])
	}
	h.seeds = int(b[17])
	if err := checkLayer(h.seeds); err != nil {
		return h, err
	}
	if b[18] > 1 || b[19] > 1 {
		return h, fmt.Errorf("unknown rule options %d/%d", b[18], b[19])
	}
	h.opts = Options{CaptureSide: captureSide(b[18]), Fixed: b[19] == 1, Limit: int(le.Uint16(b[22:]))}
	h.halves = int(b[20])
	if h.halves != h.opts.halves() {
		return h, fmt.Errorf("%d halves, want %d for %s tables", h.halves, h.opts.halves(), h.opts)
	}
	if b[21] != EntrySize {
		return h, fmt.Errorf("entry size %d, want %d", b[21], EntrySize)
	}
	h.n = le.Uint64(b[24:])
	if want := Positions(h.seeds); h.n != want {
		return h, fmt.Errorf("%d positions per half, want %d for %d seeds", h.n, want, h.seeds)
	}
	h.lowerSum = le.Uint64(b[32:])
	h.sum = le.Uint64(b[40:])
	h.exact = le.Uint64(b[48:])
	h.last, h.period = int(le.Uint16(b[56:])), int(b[58])
	switch {
	case h.opts.Limit == 0 && (h.last != 0 || h.period != 0):
		return h, fmt.Errorf("clock values (last horizon %d, period %d) for a set without a no-capture limit", h.last, h.period)
	case h.opts.Limit > 0 && (h.last < 1 || h.last > h.opts.Limit || h.last > maxHorizon || (h.period != 1 && h.period != 2)):
		return h, fmt.Errorf("last horizon %d and period %d do not fit the limit %d", h.last, h.period, h.opts.Limit)
	}
	if b[59] != ClockBlock {
		return h, fmt.Errorf("clock block size %d, want %d", b[59], ClockBlock)
	}
	h.clkSize, h.clkSum, h.changes = le.Uint64(b[64:]), le.Uint64(b[72:]), le.Uint64(b[80:])
	entries := uint64(h.halves) * h.n * EntrySize
	if min := clockIndexSize(uint64(h.halves)*h.n) + uint64(h.halves)*h.n; h.clkSize < min || h.clkSize != min+2*h.changes {
		return h, fmt.Errorf("clock section of %d bytes with %d changes, want %d", h.clkSize, h.changes, min+2*h.changes)
	}
	if want := HeaderSize + int64(entries) + int64(h.clkSize); size != want {
		return h, fmt.Errorf("file is %d bytes, want %d: truncated or padded", size, want)
	}
	return h, nil
}

// writeLayer writes a layer file atomically: to a temporary file in the
// same directory, synced, then renamed over path.
func writeLayer(path string, h header, data, clk []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+layerTmpInfix+"*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	for _, step := range []func() error{
		func() error { return tmp.Chmod(0o644) },
		func() error { _, err := tmp.Write(h.encode()); return err },
		func() error { _, err := tmp.Write(data); return err },
		func() error { _, err := tmp.Write(clk); return err },
		tmp.Sync,
	} {
		if err := step(); err != nil {
			tmp.Close()
			return err
		}
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// OpenLayer maps a table file into memory after checking its header, its
// size and the checksums of its entries and clock section. A damaged,
// truncated, foreign or version-1 file is refused with an error naming the
// file and what is wrong.
func OpenLayer(path string) (*Layer, error) {
	l, err := openLayer(path)
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	return l, nil
}

// FileError is the error for a table file that cannot be used: missing,
// unreadable, damaged, foreign or of another format version. It reads
// "table <path>: <what is wrong>".
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string { return "table " + e.Path + ": " + e.Err.Error() }

// Unwrap returns what is wrong with the file.
func (e *FileError) Unwrap() error { return e.Err }

func openLayer(path string) (*Layer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	hb := make([]byte, HeaderSize)
	if n, err := io.ReadFull(f, hb); err != nil {
		if _, verr := decodeHeader(hb[:n], fi.Size()); errors.Is(verr, errVersion1) {
			return nil, verr
		}
		return nil, fmt.Errorf("file is %d bytes, shorter than the %d-byte header", fi.Size(), HeaderSize)
	}
	h, err := decodeHeader(hb, fi.Size())
	if err != nil {
		return nil, err
	}
	data, unmap, err := mapFile(f, fi.Size())
	if err != nil {
		return nil, err
	}
	l, err := newLayer(h, data[HeaderSize:])
	if err != nil {
		unmap()
		return nil, err
	}
	l.close = unmap
	return l, nil
}

// newLayer checks a layer's payload (entries then clock section) against
// its header and wraps it.
func newLayer(h header, payload []byte) (*Layer, error) {
	entries := uint64(h.halves) * h.n * EntrySize
	l := &Layer{seeds: h.seeds, opts: h.opts, n: h.n, data: payload[:entries], clk: payload[entries:],
		sum: h.sum, clkSum: h.clkSum, lowerSum: h.lowerSum, exact: h.exact, last: h.last, period: h.period}
	l.id = h.identity()
	if err := checkEntries(l.data, h); err != nil {
		return nil, err
	}
	if err := checkClock(l, h); err != nil {
		return nil, err
	}
	return l, nil
}

// checkEntries checks, in one pass over the entries, their checksum and
// that they make sense: bounds and values within the seeds on the board,
// lo not above hi, settle horizons within the last horizon, and as many
// exact entries as the header says. A file whose checksum matches but
// whose entries do not make sense was not written by the builder, and is
// refused as well.
func checkEntries(data []byte, h header) error {
	// The sense check runs beside the checksum, on the other core: the
	// open costs little more than the checksum alone.
	type result struct {
		exact uint64
		bad   int // the first entry that makes no sense, or -1
	}
	done := make(chan result, 1)
	go func() {
		e, bad := sensible(data, h.seeds, h.last)
		done <- result{e, bad}
	}()
	d := xxhash.New()
	d.Write(data)
	r := <-done
	if got := d.Sum64(); got != h.sum {
		return fmt.Errorf("entries checksum %016x, header says %016x: the file is damaged", got, h.sum)
	}
	if r.bad >= 0 {
		e := data[r.bad*EntrySize:]
		return fmt.Errorf("entry %d has bounds [%d, %d], value %d and settle horizon %d, impossible with %d seeds on the board and last horizon %d: the file was not written by the builder",
			r.bad, int8(e[0]), int8(e[1]), int8(e[4]), e[5], h.seeds, h.last)
	}
	if r.exact != h.exact {
		return fmt.Errorf("%d entries are exact, the header says %d: the file was not written by the builder", r.exact, h.exact)
	}
	return nil
}

// sensible counts the exact entries of c (whole entries) and returns the
// index of the first one that breaks -n <= lo <= hi <= n, -n <= value <= n
// or settle <= last, or -1. It tests the bounds without branches (x+n as
// an unsigned number: a negative one is larger than any bound).
func sensible(c []byte, n, last int) (exact uint64, bad int) {
	bad = -1
	for i := 0; i+EntrySize <= len(c); i += EntrySize {
		lo, hi, v, s := int(int8(c[i])), int(int8(c[i+1])), int(int8(c[i+4])), int(c[i+5])
		if lo == hi {
			exact++
		}
		ok := uint(lo+n) <= uint(hi+n) && uint(hi+n) <= uint(2*n) && uint(v+n) <= uint(2*n) && s <= last
		if !ok && bad < 0 {
			bad = i / EntrySize
		}
	}
	return exact, bad
}
