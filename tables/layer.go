package tables

import "encoding/binary"

// Entry is what a table says about one position, from the side to move's
// view, in seeds of the final margin of the seeds now on the board.
type Entry struct {
	// Lo is what the side to move can force; Hi what the opponent can hold
	// it to; each by play that ends the game or captures. They hold under
	// either Repetition setting; Lo == Hi is the exact value under both.
	Lo, Hi int
	// DistLo is the number of plies within which the side to move forces
	// a capture (or the end of the game) that secures Lo; 0 when Lo is
	// the least margin possible, which needs no forcing. DistHi is the
	// same for the opponent and Hi.
	DistLo, DistHi int
	// Value is the exact value under Repetition off with the whole
	// no-capture limit left (clock 0); see Tables.Value for other clocks.
	// It is meaningless for a set without a limit.
	Value int
	// Settle is the fewest plies left before the limit (the horizon) from
	// which the value is Value (up to the layer's last horizon; see the
	// package comment for the positions whose value alternates).
	Settle int
}

// Exact reports whether the bounds meet: the value under any repetition
// rule and a limit that leaves time for the distances.
func (e Entry) Exact() bool { return e.Lo == e.Hi }

// Distance returns the plies within which both bounds are secured: the
// larger of DistLo and DistHi. A real game whose no-capture clock leaves at
// least this many plies cannot end by the limit before the bounds are.
func (e Entry) Distance() int { return max(e.DistLo, e.DistHi) }

// decode reads an entry from its six bytes: lo, hi (signed), dlo, dhi,
// value (signed), settle.
func decode(b []byte) Entry {
	_ = b[5]
	return Entry{Lo: int(int8(b[0])), Hi: int(int8(b[1])), DistLo: int(b[2]), DistHi: int(b[3]),
		Value: int(int8(b[4])), Settle: int(b[5])}
}

// Layer is the table of one layer: every board with Seeds() seeds, with
// the side to move (one half for a capturer set; two for a fixed set, the
// first with the player who would receive the last seeds to move).
type Layer struct {
	seeds int
	opts  Options
	n     uint64 // positions per half
	data  []byte // halves × n entries
	clk   []byte // the clock section
	// sum and clkSum are the checksums of data and clk; id names the
	// layer to the one above (see header.identity); lowerSum is the id of
	// the layer below that this one was built from; exact counts the
	// entries with Lo == Hi.
	sum, clkSum, id uint64
	lowerSum        uint64
	exact           uint64
	// last and period say how the values go on past the last horizon
	// computed (see the file format).
	last, period int
	close        func() error
}

// Entries returns the number of entries (both halves of a fixed set).
func (l *Layer) Entries() uint64 { return uint64(len(l.data) / EntrySize) }

// Size returns the size of the layer's data in bytes: the entries and the
// clock section.
func (l *Layer) Size() int { return len(l.data) + len(l.clk) }

// Close releases the layer's memory (unmapping a mapped file). The layer
// must not be used afterwards.
func (l *Layer) Close() error {
	if l.close == nil {
		return nil
	}
	err := l.close()
	l.close, l.data, l.clk = nil, nil, nil
	return err
}

// at returns the entry of the position with the given half and rank.
func (l *Layer) at(half int, r uint64) Entry {
	i := (uint64(half)*l.n + r) * EntrySize
	return decode(l.data[i : i+EntrySize])
}

// lookup returns the entry of board c with the side to move in half.
func (l *Layer) lookup(half int, c *cells) Entry { return l.at(half, rank(c)) }

// valueAt returns the exact value under Repetition off of the state of
// index i (half × n + rank), board c, with h ≥ 1 plies left before the
// limit. The set must have a limit.
func (l *Layer) valueAt(i uint64, c *cells, h int) int {
	e := l.data[i*EntrySize:]
	hs := h
	if hs > l.last {
		hs = l.last
		if l.period == 2 && (h-l.last)%2 != 0 {
			hs = l.last - 1
		}
	}
	s := int(e[5])
	if hs >= s && !(l.period == 2 && s == l.last) {
		return int(int8(e[4]))
	}
	v := c.rowSum(0) - c.rowSum(1)
	raw := l.changes(i)
	for k := 0; k+1 < len(raw) && int(raw[k]) <= hs; k += 2 {
		v = int(int8(raw[k+1]))
	}
	return v
}

// changes returns the changes of state i's value, two bytes each in
// increasing horizon: the horizon and the value from it on.
func (l *Layer) changes(i uint64) []byte {
	total := uint64(len(l.data) / EntrySize)
	blocks := (total + ClockBlock - 1) / ClockBlock
	blk, j := i/ClockBlock, i%ClockBlock
	base := (blocks+1)*8 + binary.LittleEndian.Uint64(l.clk[blk*8:])
	nc := min(uint64(ClockBlock), total-blk*ClockBlock)
	counts := l.clk[base : base+nc]
	skip := uint64(0)
	for _, k := range counts[:j] {
		skip += uint64(k)
	}
	start := base + nc + 2*skip
	return l.clk[start : start+2*uint64(counts[j])]
}
