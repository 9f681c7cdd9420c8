//go:build !(goexperiment.simd && amd64)

package nnue

func addRow(acc, w *[Hidden]int16)          { addRowPlain(acc, w) }
func subRow(acc, w *[Hidden]int16)          { subRowPlain(acc, w) }
func subAddRow(acc, old, nw *[Hidden]int16) { subAddRowPlain(acc, old, nw) }

// propagate scores the accumulators: us is the side to move's, them the
// opponent's.
func (m *Model) propagate(us, them *[Hidden]int16) int { return m.propagatePlain(us, them) }
