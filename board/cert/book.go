package cert

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/sower-engine/sower/board"
)

// Book answers positions from proofs, for play: for every position of the
// winner that a certificate's proof reaches, the winner's move and the
// length of the proof's longest line from there; for a position of the
// loser whose every legal move leads into the book, the move that resists
// longest. Positions are stored by a 64-bit hash of their exact key, with
// the move and distances: 12 bytes a position, where the checker's exact
// table takes about 60. A hash collision between a position of a proof
// and one outside it is possible in principle (about one query in 10^12
// for katro-4x6's 17.8 million positions), which is why a Book serves
// play and Verify proves.
type Book struct {
	v       *board.Variant
	hashes  []uint64 // sorted
	entries []uint32 // by hashes: move | depth<<8 | need<<20
	winner  []bool   // by hashes: winner to move is North (set) or South
}

// Entry packing.
const (
	entryDepthShift = 8
	entryNeedShift  = 20
	entryMax        = 1<<12 - 1
)

// NewBook returns an empty book of variant v (a Katro board).
func NewBook(v *board.Variant) (*Book, error) {
	if v.Family() != board.Katro {
		return nil, errHoyito
	}
	return &Book{v: v}, nil
}

// Variant returns the book's variant.
func (b *Book) Variant() *board.Variant { return b.v }

// Len returns the number of positions of the winner the book holds.
func (b *Book) Len() int { return len(b.hashes) }

// Add reads a certificate (v1 or v2) and adds its proof from its root, the
// root its header names. The proof is walked as Verify walks it, without
// the no-capture limit (each position keeps the capture-free plies its
// proof needs, checked against the clock when it is probed). A
// certificate that does not hold is refused and leaves the book as it
// was.
func (b *Book) Add(ctx context.Context, r io.Reader) error {
	br, err := openCert(r)
	if err != nil {
		return err
	}
	var w *walker
	var root board.Position
	if isCompact(br) {
		c, err := readCompact(br, b.v)
		if err != nil {
			return err
		}
		w, root = c.walker(ctx, b.v, &Options{}), c.root
	} else {
		if w, root, err = b.readText(ctx, br); err != nil {
			return err
		}
	}
	w.limit = 0
	if _, _, err := w.run(root); err != nil {
		return fmt.Errorf("the proof from %s does not hold: %w", positionText(&root), err)
	}
	hashes := make([]uint64, 0, w.reached)
	entries := make([]uint32, 0, w.reached)
	north := make([]bool, 0, w.reached)
	for i := range w.index.keys {
		n := &w.nodes[i]
		if n.state != done {
			continue // listed in a v1 file, never reached
		}
		hashes = append(hashes, w.index.keys[i].hash())
		entries = append(entries, uint32(n.move)|uint32(min(n.depth, entryMax))<<entryDepthShift|uint32(min(n.need, entryMax))<<entryNeedShift)
		north = append(north, w.winner == board.North)
	}
	b.merge(hashes, entries, north)
	return nil
}

// Merge adds the positions of book o, of the same variant; a position
// both hold keeps the entry whose proof's longest line is shorter (b's
// at equal lengths), so that play from the merged book still shortens
// the proof at every move of the winner.
func (b *Book) Merge(o *Book) error {
	if o.v.Name() != b.v.Name() {
		return fmt.Errorf("a book of %s merged into one of %s", o.v.Name(), b.v.Name())
	}
	b.merge(slices.Clone(o.hashes), slices.Clone(o.entries), slices.Clone(o.winner))
	return nil
}

// merge adds positions to the book, sorted by hash; a position both hold
// keeps the entry of the shorter proof (the book's own at equal lengths).
func (b *Book) merge(hashes []uint64, entries []uint32, north []bool) {
	hashes = append(slices.Clone(b.hashes), hashes...)
	entries = append(slices.Clone(b.entries), entries...)
	north = append(slices.Clone(b.winner), north...)
	order := make([]int32, len(hashes))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int {
		switch {
		case hashes[x] < hashes[y]:
			return -1
		case hashes[x] > hashes[y]:
			return 1
		}
		// A position two proofs hold keeps the shorter proof's entry:
		// then every move the book plays leads to positions whose
		// longest lines are shorter still, so that its play can never
		// cycle through entries of different proofs. At equal lengths,
		// the book's own entry first.
		if dx, dy := entries[x]>>entryDepthShift&entryMax, entries[y]>>entryDepthShift&entryMax; dx != dy {
			return int(dx) - int(dy)
		}
		return int(x - y)
	})
	b.hashes, b.entries, b.winner = b.hashes[:0], b.entries[:0], b.winner[:0]
	for k, i := range order {
		if k > 0 && hashes[i] == hashes[order[k-1]] {
			continue
		}
		b.hashes = append(b.hashes, hashes[i])
		b.entries = append(b.entries, entries[i])
		b.winner = append(b.winner, north[i])
	}
}

// readText reads a v1 certificate for Add: it needs its root and winner in
// the header.
func (b *Book) readText(ctx context.Context, br *bufio.Reader) (*walker, board.Position, error) {
	w := newWalker(ctx, b.v, board.South, &Options{})
	var st Stats
	h, err := w.read(br, &st)
	if err != nil {
		return nil, board.Position{}, err
	}
	if h.root == "" || h.winner == "" {
		return nil, board.Position{}, &FormatError{Err: errors.New("a certificate for a book names its root and winner in its header")}
	}
	root, err := b.v.ParsePosition(h.root + " 0")
	if err != nil {
		return nil, board.Position{}, &FormatError{Line: h.rootLine, Err: fmt.Errorf("# root: %v", err)}
	}
	if h.winner == board.North.String() {
		w.winner = board.North
	}
	w.useListed()
	return w, root, nil
}

// hash returns a 64-bit hash of k.
func (k *key) hash() uint64 {
	h := uint64(0x243f6a8885a308d3)
	for _, x := range k {
		h = (h ^ x) * 0x100000001b3
		h ^= h >> 29
		h *= 0xbf58476d1ce4e5b9
		h ^= h >> 32
	}
	return h
}

// winnerEntry returns the entry of p, a position whose side to move is the
// winner of a proof in the book, when it is there and safe at p's clock
// under p's own no-capture limit (one book serves every limit).
func (b *Book) winnerEntry(p *board.Position) (uint32, bool) {
	k := keyOf(p)
	h := k.hash()
	i, ok := slices.BinarySearch(b.hashes, h)
	if !ok || b.winner[i] != (p.Side() == board.North) {
		return 0, false
	}
	e := b.entries[i]
	need := int(e >> entryNeedShift)
	if lim := p.Variant().Rules().NoCaptureLimit; lim > 0 && p.Clock()+need >= lim {
		return 0, false // the proof's capture-free runs would reach the limit
	}
	return e, true
}

// Probe answers p from the book: ok when p is a position of a proof's
// winner (win is true; move is the proof's move) or a position of the
// loser whose every legal move leads to such a position (win is false;
// move is the one whose proof is longest). plies is the proof's longest
// line from p: the win comes within plies plies, whatever the loser does;
// the loss no later. A position whose game is over, or that is not p's
// variant, is not answered.
func (b *Book) Probe(p *board.Position) (move board.Move, plies int, win, ok bool) {
	if p.Variant() == nil || p.Variant().Name() != b.v.Name() || len(b.hashes) == 0 {
		return 0, 0, false, false
	}
	if e, ok := b.winnerEntry(p); ok {
		m := board.Move(e & 0xff)
		if p.CheckMove(m) != nil {
			return 0, 0, false, false // not expected: a hash collision
		}
		return m, int(e >> entryDepthShift & entryMax), true, true
	}
	var l board.MoveList
	p.GenerateMoves(&l)
	best, longest := board.NoMove, -1
	for _, m := range l.Slice() {
		c := *p
		if !c.Play(m) {
			continue
		}
		e, ok := b.winnerEntry(&c)
		if !ok {
			return 0, 0, false, false
		}
		if d := int(e >> entryDepthShift & entryMax); d > longest {
			best, longest = m, d
		}
	}
	if best == board.NoMove {
		return 0, 0, false, false // no legal move: the game is over
	}
	return best, longest + 1, false, true
}

// Line returns the proof's line from p as the book plays it, both sides'
// moves, at most max plies.
func (b *Book) Line(p board.Position, max int) []board.Move {
	var line []board.Move
	for len(line) < max {
		m, _, _, ok := b.Probe(&p)
		if !ok || !p.Play(m) {
			break
		}
		line = append(line, m)
	}
	return line
}
