package nnue

// The plain loops of the accumulator and the dense layer. A build with
// GOEXPERIMENT=simd on amd64 uses the vector versions of rows_simd.go
// when the processor has AVX2, and these otherwise; tests check that both
// give the same numbers.

func addRowPlain(acc, w *[Hidden]int16) {
	for i := range acc {
		acc[i] += w[i]
	}
}

func subRowPlain(acc, w *[Hidden]int16) {
	for i := range acc {
		acc[i] -= w[i]
	}
}

func subAddRowPlain(acc, old, nw *[Hidden]int16) {
	for i := range acc {
		acc[i] += nw[i] - old[i]
	}
}

// propagatePlain is Net.propagate with the transposed weights: the
// clipped accumulators' non-zero values each add their weights to every
// neuron's sum. Integer sums do not depend on their order, so the result
// is the same.
func (m *Model) propagatePlain(us, them *[Hidden]int16) int {
	n := m.net
	sum := n.DenseBias
	for p, acc := range [2]*[Hidden]int16{us, them} {
		for i, x := range acc {
			if x <= 0 {
				continue
			}
			v := int32(min(x, QA))
			w := &m.dense[p*Hidden+i]
			for j := range sum {
				sum[j] += v * int32(w[j])
			}
		}
	}
	return n.output(&sum)
}

// output returns the score of the dense layer's sums.
func (n *Net) output(sum *[L1]int32) int {
	out := int64(n.OutBias)
	for j, s := range sum {
		out += int64(activate(s)) * int64(n.Out[j])
	}
	return int(roundDiv(out*OutScale, QA*QB))
}
