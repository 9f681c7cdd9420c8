package nnue

import "github.com/sower-engine/sower/board"

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
	if base.valid && (!a.valid || m.distance(&base.snap, &s) < m.distance(&a.snap, &s)) {
		*a = *base
	}
	return m.apply(a, &s, Auto)
}

// distance counts the holes and capture counts that differ between two
// snapshots.
func (m *Model) distance(x, y *snapshot) int {
	d := 0
	for r := 0; r < m.regions; r++ {
		for k := 0; k < m.lanes; k++ {
			if x.bucket[r][k] != y.bucket[r][k] {
				d++
			}
		}
	}
	for side := range x.capt {
		if x.capt[side] != y.capt[side] {
			d++
		}
	}
	return d
}

// apply brings a to snapshot s under policy pol (see UpdateWith).
func (m *Model) apply(a *Accumulator, sp *snapshot, pol Policy) int {
	s := *sp
	if !a.valid {
		a.snap = s
		m.refresh(a)
		return -1
	}
	// Count the passes over a row each way: an update makes one per
	// changed hole (subtracting its old row and adding its new one in the
	// same pass) and per changed capture count; a refresh one per input.
	changed, refRows := 0, 0
	for r := 0; r < m.regions; r++ {
		for k := 0; k < m.lanes; k++ {
			o, nw := a.snap.bucket[r][k], s.bucket[r][k]
			if nw != 0 {
				refRows++
			}
			if o != nw {
				changed++
			}
		}
	}
	capChanged := false
	if m.regions == 1 {
		refRows += 2
		for side := range s.capt {
			if s.capt[side] != a.snap.capt[side] {
				changed++
				capChanged = true
			}
		}
	}
	if pol == Refresh || (pol == Auto && changed > refRows) {
		a.snap = s
		m.refresh(a)
		return changed
	}
	if changed == 0 {
		return 0
	}
	n := m.net
	for persp := range a.v {
		acc := &a.v[persp]
		for r := 0; r < m.regions; r++ {
			for k := 0; k < m.lanes; k++ {
				o, nw := a.snap.bucket[r][k], s.bucket[r][k]
				if o == nw {
					continue
				}
				base := int(m.slot[persp][r][k]) - 1
				switch {
				case o == 0:
					addRow(acc, n.row(base+int(nw)))
				case nw == 0:
					subRow(acc, n.row(base+int(o)))
				default:
					subAddRow(acc, n.row(base+int(o)), n.row(base+int(nw)))
				}
			}
		}
		if capChanged {
			for side := board.South; side <= board.North; side++ {
				o, nw := a.snap.capt[side], s.capt[side]
				if o != nw {
					subAddRow(acc, n.row(captureInput(board.Side(persp), side, o)), n.row(captureInput(board.Side(persp), side, nw)))
				}
			}
		}
	}
	a.snap = s
	return changed
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
