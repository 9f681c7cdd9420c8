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
// neuron's sum, two neurons to an int64 (x·(a + b·2^32) = x·a + x·b·2^32).
// Net.check bounds every neuron's sum within an int32, so each half is
// read back exactly: the low half as a signed 32-bit number, the high
// half as the rest shifted down. Integer sums do not depend on their
// order, so the result is the definition's.
func (m *Model) propagatePlain(us, them *[Hidden]int16) int {
	acc := m.bias
	for p, a := range [2]*[Hidden]int16{us, them} {
		for i, x := range a {
			if x <= 0 {
				continue
			}
			v := int64(min(x, QA))
			w := &m.dense[p*Hidden+i]
			for k := range acc {
				acc[k] += v * w[k]
			}
		}
	}
	var sum [L1]int32
	for k, x := range acc {
		lo := int64(int32(uint32(x)))
		sum[2*k], sum[2*k+1] = int32(lo), int32((x-lo)>>32)
	}
	return m.net.output(&sum)
}

// output returns the score of the dense layer's sums.
func (n *Net) output(sum *[L1]int32) int {
	out := int64(n.OutBias)
	for j, s := range sum {
		out += int64(activate(s)) * int64(n.Out[j])
	}
	return int(roundDiv(out*OutScale, QA*QB))
}
