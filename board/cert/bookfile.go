package cert

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/cespare/xxhash/v2"

	"github.com/sower-engine/sower/board"
)

// A book file holds a Book as it is in memory, so that a book built once
// from certificates (which walks every proof) is read back in a moment.
// It is a cache, not a proof: it is written from a book whose proofs were
// checked, and a checksum guards it against damage, not against forgery.
// Byte by byte (integers little-endian):
//
//	0      8   magic "SOWRBOOK"
//	8      4   version, 1
//	12     2   length L of the variant's name
//	14     L   the variant's name (board.New reads it)
//	14+L   8   N, the number of positions
//	then   8N  the positions' hashes (the key hash of cert.Book), strictly
//	           increasing
//	then   4N  their entries: the winner's move (bits 0-7), the proof's
//	           longest line in plies (bits 8-19), the capture-free plies
//	           the proof needs (bits 20-31)
//	then   ⌈N/8⌉ the side to move, the winner, of each position: bit i%8
//	           of byte i/8 set for North
//	then   8   xxhash64 of every byte before
const (
	bookMagic   = "SOWRBOOK"
	bookVersion = 1
	// maxBookPositions bounds N so that a damaged count cannot ask for
	// more memory than a book could need (2^32 positions: 52 GB).
	maxBookPositions = 1 << 32
)

// WriteTo writes b as a book file.
func (b *Book) WriteTo(w io.Writer) (int64, error) {
	h := xxhash.New()
	cw := &countWriter{w: io.MultiWriter(w, h)}
	bw := bufio.NewWriterSize(cw, 1<<16)
	name := b.v.Name()
	var head []byte
	head = append(head, bookMagic...)
	head = binary.LittleEndian.AppendUint32(head, bookVersion)
	head = binary.LittleEndian.AppendUint16(head, uint16(len(name)))
	head = append(head, name...)
	head = binary.LittleEndian.AppendUint64(head, uint64(len(b.hashes)))
	bw.Write(head)
	var buf [8]byte
	for _, x := range b.hashes {
		binary.LittleEndian.PutUint64(buf[:], x)
		bw.Write(buf[:8])
	}
	for _, e := range b.entries {
		binary.LittleEndian.PutUint32(buf[:], e)
		bw.Write(buf[:4])
	}
	var bits byte
	for i, north := range b.winner {
		if north {
			bits |= 1 << (i % 8)
		}
		if i%8 == 7 || i == len(b.winner)-1 {
			bw.WriteByte(bits)
			bits = 0
		}
	}
	if err := bw.Flush(); err != nil {
		return cw.n, err
	}
	n, err := w.Write(binary.LittleEndian.AppendUint64(nil, h.Sum64()))
	return cw.n + int64(n), err
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// ReadBook reads a book file written by Book.WriteTo. A file that is
// damaged, cut short, of another version or of no Katro variant is
// refused with what was wrong.
func ReadBook(r io.Reader) (*Book, error) {
	rd := &bookReader{br: bufio.NewReaderSize(r, 1<<16), h: xxhash.New()}
	head := make([]byte, 14)
	if err := rd.full(head, "header"); err != nil {
		return nil, err
	}
	if string(head[:8]) != bookMagic {
		return nil, errors.New("book file: not a book file (no SOWRBOOK magic)")
	}
	if ver := binary.LittleEndian.Uint32(head[8:]); ver != bookVersion {
		return nil, fmt.Errorf("book file: version %d, want %d", ver, bookVersion)
	}
	name := make([]byte, binary.LittleEndian.Uint16(head[12:]))
	if err := rd.full(name, "variant's name"); err != nil {
		return nil, err
	}
	v, err := board.New(string(name))
	if err != nil {
		return nil, fmt.Errorf("book file: %w", err)
	}
	b, err := NewBook(v)
	if err != nil {
		return nil, fmt.Errorf("book file: %w", err)
	}
	var buf [8]byte
	if err := rd.full(buf[:], "count of positions"); err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint64(buf[:])
	if n > maxBookPositions {
		return nil, fmt.Errorf("book file: %d positions, more than a book holds", n)
	}
	// A file's size must match the count; from a reader of unknown size
	// the slices grow as the bytes arrive, so that a count the input does
	// not back up cannot claim the memory at once.
	grow := min(n, 1<<20)
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			if want := int64(14+len(name)+8+8) + int64(n)*12 + int64(n+7)/8; fi.Size() != want {
				return nil, fmt.Errorf("book file: %d bytes, where %d positions take %d", fi.Size(), n, want)
			}
			grow = n
		}
	}
	b.hashes = make([]uint64, 0, grow)
	b.entries = make([]uint32, 0, grow)
	b.winner = make([]bool, 0, grow)
	chunk := make([]byte, 1<<16)
	for done := uint64(0); done < n; {
		k := min(n-done, uint64(len(chunk)/8))
		if err := rd.full(chunk[:8*k], "hashes"); err != nil {
			return nil, err
		}
		for i := range k {
			x := binary.LittleEndian.Uint64(chunk[8*i:])
			if j := len(b.hashes); j > 0 && x <= b.hashes[j-1] {
				return nil, fmt.Errorf("book file: hash %d of %d is not above the one before", j, n)
			}
			b.hashes = append(b.hashes, x)
		}
		done += k
	}
	for done := uint64(0); done < n; {
		k := min(n-done, uint64(len(chunk)/4))
		if err := rd.full(chunk[:4*k], "entries"); err != nil {
			return nil, err
		}
		for i := range k {
			b.entries = append(b.entries, binary.LittleEndian.Uint32(chunk[4*i:]))
		}
		done += k
	}
	for done := uint64(0); done < n; {
		k := min((n-done+7)/8, uint64(len(chunk)))
		if err := rd.full(chunk[:k], "sides to move"); err != nil {
			return nil, err
		}
		for _, c := range chunk[:k] {
			for j := 0; j < 8 && done < n; j++ {
				b.winner = append(b.winner, c&(1<<j) != 0)
				done++
			}
		}
	}
	want := rd.h.Sum64()
	if _, err := io.ReadFull(rd.br, buf[:]); err != nil {
		return nil, bookError("checksum", err)
	}
	if got := binary.LittleEndian.Uint64(buf[:]); got != want {
		return nil, fmt.Errorf("book file: checksum %016x, the contents give %016x: the file is damaged", got, want)
	}
	if _, err := rd.br.ReadByte(); err != io.EOF {
		return nil, errors.New("book file: bytes after the checksum")
	}
	return b, nil
}

// bookReader reads a book file, hashing what it reads.
type bookReader struct {
	br *bufio.Reader
	h  *xxhash.Digest
}

// full reads len(p) bytes of the file's part named part.
func (r *bookReader) full(p []byte, part string) error {
	if _, err := io.ReadFull(r.br, p); err != nil {
		return bookError(part, err)
	}
	r.h.Write(p)
	return nil
}

// bookError names the part of a book file that could not be read.
func bookError(part string, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("book file: cut short in the %s", part)
	}
	return fmt.Errorf("book file: the %s: %w", part, err)
}
