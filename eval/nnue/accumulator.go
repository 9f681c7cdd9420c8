package nnue

import (
	"math/bits"

	"github.com/sower-engine/sower/board"
)

// Accumulator holds the feature transformer's output for both
// perspectives of one position, and the snapshot of the position it was
// computed from: Model.Update brings it to any other position of the same
// board by the holes whose bucket differs. The zero Accumulator is empty:
// its first Update is a refresh.
type Accumulator struct {
	_     [0]uint64        // aligns v for the plain row loops (rows.go)
	v     [2][Hidden]int16 // by perspective: South's, North's
	snap  snapshot
	valid bool
}

// Invalidate empties a: its next Update is a refresh.
func (a *Accumulator) Invalidate() { a.valid = false }

// Policy chooses how Update brings an accumulator to a new position.
type Policy uint8

// Update policies. Auto is what Update does; the others are for
// measurement.
const (
	// Auto updates by the changed holes unless their rows outnumber a
	// refresh's.
	Auto Policy = iota
	// Incremental always updates by the changed holes.
	Incremental
	// Refresh always recomputes from the bias.
	Refresh
)

// Refresh computes a from position p, ignoring what it held.
func (m *Model) Refresh(a *Accumulator, p *board.Position) {
	m.read(p, &a.snap)
	m.refresh(a)
}

// refresh recomputes a from its snapshot.
func (m *Model) refresh(a *Accumulator) {
	n := m.net
	for persp := range a.v {
		acc := &a.v[persp]
		*acc = n.FTBias
		for r := 0; r < m.regions; r++ {
			for k := 0; k < m.lanes; k++ {
				if b := a.snap.bucket[r][k]; b != 0 {
					addRow(acc, n.row(int(m.slot[persp][r][k])+int(b)-1))
				}
			}
		}
		if m.regions == 1 {
			for s := board.South; s <= board.North; s++ {
				addRow(acc, n.row(captureInput(board.Side(persp), s, a.snap.capt[s])))
			}
		}
	}
	a.valid = true
}

// Update brings a to position p: by the holes (and captures) that changed
// since a was computed, or by a refresh when that takes fewer rows or a
// is empty. It returns the number of holes and capture counts that
// changed, or -1 after a refresh of an empty accumulator.
func (m *Model) Update(a *Accumulator, p *board.Position) int {
	return m.UpdateWith(a, p, Auto)
}

// UpdateWith is Update with a chosen policy.
func (m *Model) UpdateWith(a *Accumulator, p *board.Position, pol Policy) int {
	var s snapshot
	m.read(p, &s)
	return m.apply(a, &s, pol)
}

// UpdateFrom brings a to position p starting from a or from base,
// whichever was computed from a position closer to p (fewer holes whose
// bucket differs): a search keeps an accumulator per ply and follows a
// move from the parent's, or from a sibling's at the same ply. It returns
// what Update does.
func (m *Model) UpdateFrom(a, base *Accumulator, p *board.Position) int {
	var s snapshot
	m.read(p, &s)
	if !base.valid {
		return m.apply(a, &s, Auto)
	}
	db, nb := diff(&base.snap, &s)
	if a.valid {
		if da, na := diff(&a.snap, &s); na <= nb {
			return m.applyDiff(a, &s, &da, na, Auto)
		}
	}
	*a = *base
	return m.applyDiff(a, &s, &db, nb, Auto)
}

// apply brings a to snapshot s under policy pol (see UpdateWith).
func (m *Model) apply(a *Accumulator, sp *snapshot, pol Policy) int {
	s := *sp
	if !a.valid {
		a.snap = s
		m.refresh(a)
		return -1
	}
	d, changed := diff(&a.snap, &s)
	return m.applyDiff(a, &s, &d, changed, pol)
}

// applyDiff is apply to a valid accumulator, given diff(&a.snap, s).
func (m *Model) applyDiff(a *Accumulator, s *snapshot, d *[snapWords]uint64, changed int, pol Policy) int {
	// Count the passes over a row each way: an update makes one per
	// changed hole (subtracting its old row and adding its new one in the
	// same pass) and per changed capture count; a refresh one per input.
	refRows := 0
	for i := range d {
		refRows += bits.OnesCount64(nonzeroBytes(s.word(i)) & laneMask(i))
	}
	if m.regions == 1 {
		refRows += 2
	}
	if pol == Refresh || (pol == Auto && changed > refRows) {
		a.snap = *s
		m.refresh(a)
		return changed
	}
	if changed == 0 {
		return 0
	}
	for persp := range a.v {
		m.applyRows(&a.v[persp], board.Side(persp), &a.snap, s, d)
	}
	a.snap = *s
	return changed
}

// applyRows brings perspective persp's accumulator acc from snapshot old
// to nw, whose differing bytes d marks (diff).
func (m *Model) applyRows(acc *[Hidden]int16, persp board.Side, old, nw *snapshot, d *[snapWords]uint64) {
	n := m.net
	for i, w := range d {
		for w &= laneMask(i); w != 0; w &= w - 1 {
			j := 8*i + bits.TrailingZeros64(w)>>3
			r, k := j/maxLanes, j%maxLanes
			o, b := old.bucket[r][k], nw.bucket[r][k]
			base := int(m.slot[persp][r][k]) - 1
			switch {
			case o == 0:
				addRow(acc, n.row(base+int(b)))
			case b == 0:
				subRow(acc, n.row(base+int(o)))
			default:
				subAddRow(acc, n.row(base+int(o)), n.row(base+int(b)))
			}
		}
	}
	if d[snapWords-1]&captureBytes == 0 {
		return
	}
	for side := board.South; side <= board.North; side++ {
		if o, c := old.capt[side], nw.capt[side]; o != c {
			subAddRow(acc, n.row(captureInput(persp, side, o)), n.row(captureInput(persp, side, c)))
		}
	}
}

// Evaluate returns the score of the position a was computed from, for its
// side to move stm, in hundredths of a seed.
func (m *Model) Evaluate(a *Accumulator, stm board.Side) int {
	return m.propagate(&a.v[stm], &a.v[stm.Other()])
}

// EvaluatePosition scores p from scratch (a refresh into a temporary
// accumulator). It allocates nothing.
func (m *Model) EvaluatePosition(p *board.Position) int {
	var a Accumulator
	m.Refresh(&a, p)
	return m.Evaluate(&a, p.Side())
}

// Equal reports whether a and b hold the same values for both
// perspectives and were computed from the same snapshot.
func (a *Accumulator) Equal(b *Accumulator) bool {
	return a.valid == b.valid && a.v == b.v && a.snap == b.snap
}
