package tables

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cespare/xxhash/v2"
)

// clockIndexSize returns the size of the clock section's index for total
// positions: one offset per block and one past the last.
func clockIndexSize(total uint64) uint64 {
	return ((total+ClockBlock-1)/ClockBlock + 1) * 8
}

// changeLog keeps the changes of the clock rounds in a temporary file, as
// (position uint32, value int8) records round after round, so that the
// builder does not hold them in memory; counts holds each position's
// number of changes and each round's.
type changeLog struct {
	f      *os.File
	w      *bufio.Writer
	counts []uint8 // by position
	rounds []uint64
	total  uint64
}

// newChangeLog starts a log for total positions next to the layer file at
// path, named after it (RemoveLeftovers knows the name).
func newChangeLog(path string, total uint64) (*changeLog, error) {
	f, err := os.CreateTemp(filepath.Dir(path), changeLogPattern(filepath.Base(path)))
	if err != nil {
		return nil, err
	}
	return &changeLog{f: f, w: bufio.NewWriterSize(f, 1<<20), counts: make([]uint8, total)}, nil
}

// add records round h's changes; h must be the next round.
func (g *changeLog) add(h int, xs []uint32, vs []int8) error {
	g.rounds = append(g.rounds, uint64(len(xs)))
	var rec [5]byte
	for i, x := range xs {
		if g.counts[x] == 255 {
			return fmt.Errorf("position %d changes more than 255 times", x)
		}
		g.counts[x]++
		binary.LittleEndian.PutUint32(rec[:], x)
		rec[4] = byte(vs[i])
		if _, err := g.w.Write(rec[:]); err != nil {
			return err
		}
	}
	g.total += uint64(len(xs))
	return nil
}

// close removes the log's file.
func (g *changeLog) close() {
	g.f.Close()
	os.Remove(g.f.Name())
}

// section lays out the clock section from the log (see the file format)
// and sets each entry's settle horizon (the last change's).
func (g *changeLog) section(entries []byte) ([]byte, error) {
	if err := g.w.Flush(); err != nil {
		return nil, err
	}
	if _, err := g.f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	total := uint64(len(g.counts))
	idx := clockIndexSize(total)
	clk := make([]byte, idx+total+2*g.total)
	// Block offsets, the count bytes, and each position's first slot as
	// an offset within its block (a block holds at most 64 + 64×255×2
	// bytes, so 16 bits would do; 32 keep the arithmetic plain).
	slot := make([]uint32, total)
	off := uint64(0)
	for blk := uint64(0); blk*ClockBlock < total; blk++ {
		binary.LittleEndian.PutUint64(clk[blk*8:], off)
		lo, hi := blk*ClockBlock, min(total, (blk+1)*ClockBlock)
		copy(clk[idx+off:], g.counts[lo:hi])
		in := hi - lo
		for x := lo; x < hi; x++ {
			slot[x] = uint32(in)
			in += 2 * uint64(g.counts[x])
		}
		off += in
	}
	binary.LittleEndian.PutUint64(clk[((total+ClockBlock-1)/ClockBlock)*8:], off)
	r := bufio.NewReaderSize(g.f, 1<<20)
	var rec [5]byte
	for h, n := range g.rounds {
		for ; n > 0; n-- {
			if _, err := io.ReadFull(r, rec[:]); err != nil {
				return nil, fmt.Errorf("reading back the changes: %w", err)
			}
			x := uint64(binary.LittleEndian.Uint32(rec[:]))
			base := idx + binary.LittleEndian.Uint64(clk[(x/ClockBlock)*8:])
			at := base + uint64(slot[x])
			clk[at], clk[at+1] = byte(h+1), rec[4]
			slot[x] += 2
			entries[x*EntrySize+5] = byte(h + 1)
		}
	}
	return clk, nil
}

// checkClock checks a layer's clock section: its checksum, that its index
// and counts describe its size, and that every position's changes rise in
// horizon up to the last horizon, hold values within the seeds, and end at
// the entry's settle horizon.
func checkClock(l *Layer, h header) error {
	done := make(chan error, 1)
	go func() { done <- clockSense(l, h) }()
	got := xxhash.Sum64(l.clk)
	err := <-done
	if got != h.clkSum {
		return fmt.Errorf("clock section checksum %016x, header says %016x: the file is damaged", got, h.clkSum)
	}
	return err
}

// clockSense is checkClock without the checksum.
func clockSense(l *Layer, h header) error {
	total := uint64(len(l.data) / EntrySize)
	blocks := (total + ClockBlock - 1) / ClockBlock
	idx := (blocks + 1) * 8
	le := binary.LittleEndian
	bad := errors.New("the clock section does not match its index: the file was not written by the builder")
	if uint64(len(l.clk)) < idx || le.Uint64(l.clk[blocks*8:]) != uint64(len(l.clk))-idx {
		return bad
	}
	n := int8(l.seeds)
	for blk := uint64(0); blk < blocks; blk++ {
		start, end := le.Uint64(l.clk[blk*8:]), le.Uint64(l.clk[(blk+1)*8:])
		nc := min(uint64(ClockBlock), total-blk*ClockBlock)
		if end < start || end-start < nc || idx+end > uint64(len(l.clk)) {
			return bad
		}
		counts := l.clk[idx+start : idx+start+nc]
		ev := l.clk[idx+start+nc : idx+end]
		for j, k := range counts {
			x := blk*ClockBlock + uint64(j)
			if 2*uint64(k) > uint64(len(ev)) {
				return bad
			}
			prev := uint8(0)
			for e := 0; e < 2*int(k); e += 2 {
				if ev[e] <= prev || int(ev[e]) > h.last || int8(ev[e+1]) < -n || int8(ev[e+1]) > n {
					return fmt.Errorf("entry %d: a change at horizon %d to %d after horizon %d: the file was not written by the builder", x, ev[e], int8(ev[e+1]), prev)
				}
				prev = ev[e]
			}
			if s := l.data[x*EntrySize+5]; s != prev {
				return fmt.Errorf("entry %d: settle horizon %d, but its last change is at %d: the file was not written by the builder", x, s, prev)
			}
			ev = ev[2*int(k):]
		}
		if len(ev) != 0 {
			return bad
		}
	}
	return nil
}
