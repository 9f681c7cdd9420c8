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

// File format, version 1 (all integers little-endian):
//
//	offset size  field
//	0      8     magic "SOWERTB\x00"
//	8      4     format version (1)
//	12     4     header size (64)
//	16     1     game (1 = Hoyito III)
//	17     1     seeds on the board in this layer
//	18     1     CaptureSide (0 any, 1 opponent)
//	19     1     LastFour kind (0 capturer, 1 fixed)
//	20     1     halves (1 or 2)
//	21     1     entry size (4)
//	22     2     zero
//	24     8     positions per half: C(seeds+11, 11)
//	32     8     checksum of the layer below's entries (0 for 8 seeds)
//	40     8     checksum of this layer's entries
//	48     8     positions with exact values (Lo == Hi)
//	56     8     checksum of bytes 0-55
//	64     ...   entries: halves × positions × 4 bytes, by half, then rank
//
// An entry is lo (int8), hi (int8), distLo (uint8), distHi (uint8). The
// checksums are xxhash64. The file is exactly 64 bytes longer than its
// entries.

// Format constants.
const (
	Version    = 1
	HeaderSize = 64
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
}

// encode returns the 64 header bytes.
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
	le.PutUint64(b[24:], h.n)
	le.PutUint64(b[32:], h.lowerSum)
	le.PutUint64(b[40:], h.sum)
	le.PutUint64(b[48:], h.exact)
	le.PutUint64(b[56:], xxhash.Sum64(b[:56]))
	return b
}

// decodeHeader checks and decodes the header bytes of a file of size bytes.
func decodeHeader(b []byte, size int64) (header, error) {
	var h header
	if len(b) < HeaderSize {
		return h, fmt.Errorf("file is %d bytes, shorter than the %d-byte header", len(b), HeaderSize)
	}
	if !bytes.Equal(b[:8], magic) {
		return h, errors.New("not a Sower table file (bad magic)")
	}
	le := binary.LittleEndian
	if v := le.Uint32(b[8:]); v != Version {
		return h, fmt.Errorf("format version %d, this program reads version %d", v, Version)
	}
	if sum := xxhash.Sum64(b[:56]); le.Uint64(b[56:]) != sum {
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
	h.opts = Options{CaptureSide: captureSide(b[18]), Fixed: b[19] == 1}
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
	if want := HeaderSize + int64(h.halves)*int64(h.n)*EntrySize; size != want {
		return h, fmt.Errorf("file is %d bytes, want %d: truncated or padded", size, want)
	}
	return h, nil
}

// writeLayer writes a layer file atomically: to a temporary file in the
// same directory, synced, then renamed over path.
func writeLayer(path string, h header, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(h.encode()); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// OpenLayer maps a table file into memory after checking its header, its
// size and the checksum of its entries. A damaged, truncated or foreign
// file is refused with an error naming the file and what is wrong.
func OpenLayer(path string) (*Layer, error) {
	l, err := openLayer(path)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", path, err)
	}
	return l, nil
}

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
	if _, err := io.ReadFull(f, hb); err != nil {
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
	l := &Layer{seeds: h.seeds, opts: h.opts, n: h.n, data: data[HeaderSize:], sum: h.sum, lowerSum: h.lowerSum, exact: h.exact, close: unmap}
	if err := checkEntries(l.data, h); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// checkEntries checks, in one pass over the entries, their checksum and
// that they make sense: bounds within the seeds on the board, lo not above
// hi, and as many exact entries as the header says. A file whose checksum
// matches but whose entries do not make sense was not written by the
// builder, and is refused as well.
func checkEntries(data []byte, h header) error {
	// The sense check runs beside the checksum, on the other core: the
	// open costs little more than the checksum alone.
	type result struct {
		exact uint64
		ok    bool
	}
	done := make(chan result, 1)
	go func() {
		e, ok := sensible(data, h.seeds)
		done <- result{e, ok}
	}()
	d := xxhash.New()
	d.Write(data)
	r := <-done
	exact, sane := r.exact, r.ok
	if got := d.Sum64(); got != h.sum {
		return fmt.Errorf("entries checksum %016x, header says %016x: the file is damaged", got, h.sum)
	}
	if !sane {
		for i := 0; i < len(data); i += EntrySize {
			if _, ok := sensible(data[i:i+EntrySize], h.seeds); !ok {
				return fmt.Errorf("entry %d has bounds [%d, %d], impossible with %d seeds on the board: the file was not written by the builder",
					i/EntrySize, int8(data[i]), int8(data[i+1]), h.seeds)
			}
		}
	}
	if exact != h.exact {
		return fmt.Errorf("%d entries are exact, the header says %d: the file was not written by the builder", exact, h.exact)
	}
	return nil
}

// sensible counts the exact entries of c (whole entries) and reports
// whether every one has -n <= lo <= hi <= n. It reads two entries at a
// time and tests the bounds without branches (lo+n and hi+n as unsigned
// numbers: a negative one is larger than any bound), which makes the
// check about three times as fast as an entry-by-entry loop.
func sensible(c []byte, n int) (exact uint64, ok bool) {
	ok = true
	i := 0
	for ; i+2*EntrySize <= len(c); i += 2 * EntrySize {
		w := binary.LittleEndian.Uint64(c[i:])
		lo0, hi0 := int(int8(w)), int(int8(w>>8))
		lo1, hi1 := int(int8(w>>32)), int(int8(w>>40))
		if lo0 == hi0 {
			exact++
		}
		if lo1 == hi1 {
			exact++
		}
		ok = ok && uint(lo0+n) <= uint(hi0+n) && uint(hi0+n) <= uint(2*n) &&
			uint(lo1+n) <= uint(hi1+n) && uint(hi1+n) <= uint(2*n)
	}
	if i+EntrySize <= len(c) {
		lo, hi := int(int8(c[i])), int(int8(c[i+1]))
		if lo == hi {
			exact++
		}
		ok = ok && uint(lo+n) <= uint(hi+n) && uint(hi+n) <= uint(2*n)
	}
	return exact, ok
}

// readLayer decodes a whole table file held in memory (for fuzzing and
// tests; files are mapped by OpenLayer).
func readLayer(b []byte) (*Layer, error) {
	h, err := decodeHeader(b, int64(len(b)))
	if err != nil {
		return nil, err
	}
	l := &Layer{seeds: h.seeds, opts: h.opts, n: h.n, data: b[HeaderSize:], sum: h.sum, lowerSum: h.lowerSum, exact: h.exact}
	if err := checkEntries(l.data, h); err != nil {
		return nil, err
	}
	return l, nil
}
