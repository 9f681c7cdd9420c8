package tables

import "github.com/cespare/xxhash/v2"

// EntrySize is the size in bytes of one position's entry in a table file.
const EntrySize = 4

// Entry is what a table says about one position, from the side to move's
// view, in seeds of the final margin of the seeds now on the board.
type Entry struct {
	// Lo is what the side to move can force; Hi what the opponent can hold
	// it to; each by play that ends the game or captures. Lo == Hi is the
	// exact value.
	Lo, Hi int
	// DistLo is the number of plies within which the side to move forces
	// a capture (or the end of the game) that secures Lo; 0 when Lo is
	// the least margin possible, which needs no forcing. DistHi is the
	// same for the opponent and Hi.
	DistLo, DistHi int
}

// Exact reports whether the entry is the exact value.
func (e Entry) Exact() bool { return e.Lo == e.Hi }

// Distance returns the plies within which both bounds are secured: the
// larger of DistLo and DistHi. A real game whose no-capture clock leaves at
// least this many plies cannot end by the limit before the bounds are.
func (e Entry) Distance() int { return max(e.DistLo, e.DistHi) }

// decode reads an entry from its four bytes: lo, hi (signed), dlo, dhi.
func decode(b []byte) Entry {
	_ = b[3]
	return Entry{Lo: int(int8(b[0])), Hi: int(int8(b[1])), DistLo: int(b[2]), DistHi: int(b[3])}
}

// Layer is the table of one layer: every board with Seeds() seeds, with
// the side to move (one half for a capturer set; two for a fixed set, the
// first with the player who would receive the last seeds to move).
type Layer struct {
	seeds int
	opts  Options
	n     uint64 // positions per half
	data  []byte // halves × n entries
	sum   uint64 // checksum of data
	// lowerSum is the checksum of the layer below that this one was built
	// from; exact counts the entries with Lo == Hi.
	lowerSum uint64
	exact    uint64
	close    func() error
}

// Entries returns the number of entries (both halves of a fixed set).
func (l *Layer) Entries() uint64 { return uint64(len(l.data) / EntrySize) }

// Size returns the size of the layer's entries in bytes.
func (l *Layer) Size() int { return len(l.data) }

// Close releases the layer's memory (unmapping a mapped file). The layer
// must not be used afterwards.
func (l *Layer) Close() error {
	if l.close == nil {
		return nil
	}
	err := l.close()
	l.close, l.data = nil, nil
	return err
}

// at returns the entry of the position with the given half and rank.
func (l *Layer) at(half int, r uint64) Entry {
	i := (uint64(half)*l.n + r) * EntrySize
	return decode(l.data[i : i+EntrySize])
}

// lookup returns the entry of board c with the side to move in half.
func (l *Layer) lookup(half int, c *cells) Entry { return l.at(half, rank(c)) }

// memLayer wraps entries built in memory as a layer.
func memLayer(seeds int, opts Options, data []byte, lowerSum, exact uint64) *Layer {
	return &Layer{seeds: seeds, opts: opts, n: Positions(seeds), data: data, sum: xxhash.Sum64(data), lowerSum: lowerSum, exact: exact}
}
