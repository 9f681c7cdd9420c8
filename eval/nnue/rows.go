package nnue

import (
	"math/bits"
	"unsafe"
)

// The plain loops of the accumulator and the dense layer. A build with
// GOEXPERIMENT=simd on amd64 uses the vector versions of rows_simd.go
// when the processor has AVX2, and these otherwise; tests check that both
// give the same numbers.
//
// The plain row operations work on four int16 lanes at a time in a
// uint64 (SWAR, "SIMD within a register"): each lane's sum wraps as an
// int16 sum does, because the carry out of a lane's top bit is dropped
// (the top bits are added apart, by xor), so the results are the int16
// loops' bit for bit, on any byte order (a lane is 16 aligned bits of the
// word either way). rowsEqualLoops in the tests checks them against the
// lane-by-lane loops.

// laneTops has the top bit of each 16-bit lane.
const laneTops = 0x8000_8000_8000_8000

// add4 adds four int16 lanes, wrapping.
func add4(a, b uint64) uint64 { return ((a &^ laneTops) + (b &^ laneTops)) ^ ((a ^ b) & laneTops) }

// sub4 subtracts four int16 lanes, wrapping.
func sub4(a, b uint64) uint64 { return ((a | laneTops) - (b &^ laneTops)) ^ ((a ^ ^b) & laneTops) }

// words views a row of Hidden int16 as Hidden/4 words. An accumulator's
// values are 8-byte aligned (Accumulator) and the feature weights are in
// practice (a large slice); a misaligned row would be slower on amd64 and
// arm64, not wrong, and the checks of -race allow it for a pointer-free
// type.
func words(r *[Hidden]int16) *[Hidden / 4]uint64 {
	return (*[Hidden / 4]uint64)(unsafe.Pointer(r))
}

func addRowPlain(acc, w *[Hidden]int16) {
	a, b := words(acc), words(w)
	for i := range a {
		a[i] = add4(a[i], b[i])
	}
}

func subRowPlain(acc, w *[Hidden]int16) {
	a, b := words(acc), words(w)
	for i := range a {
		a[i] = sub4(a[i], b[i])
	}
}

func subAddRowPlain(acc, old, nw *[Hidden]int16) {
	a, o, n := words(acc), words(old), words(nw)
	for i := range a {
		a[i] = sub4(add4(a[i], n[i]), o[i])
	}
}

// propagatePlain is Net.propagate with the transposed weights: the
// clipped accumulators' non-zero values each add their weights to every
// neuron's sum, two neurons to an int64 (x·(a + b·2^32) = x·a + x·b·2^32).
// Net.check bounds every neuron's sum within an int32, so each half is
// read back exactly: the low half as a signed 32-bit number, the high
// half as the rest shifted down. Integer sums do not depend on their
// order, so the result is the definition's.
//
// The four sums are kept in variables, which the compiler holds in
// registers (see the constant after the function).
func (m *Model) propagatePlain(us, them *[Hidden]int16) int {
	a0, a1, a2, a3 := m.bias[0], m.bias[1], m.bias[2], m.bias[3]
	for p, a := range [2]*[Hidden]int16{us, them} {
		w := (*[Hidden][L1 / 2]int64)(m.dense[p*Hidden:])
		for mask := positive(a); mask != 0; mask &= mask - 1 {
			i := bits.TrailingZeros32(mask)
			v, r := int64(min(a[i], QA)), &w[i]
			a0 += v * r[0]
			a1 += v * r[1]
			a2 += v * r[2]
			a3 += v * r[3]
		}
	}
	var sum [L1]int32
	for k, x := range [L1 / 2]int64{a0, a1, a2, a3} {
		lo := int64(int32(uint32(x)))
		sum[2*k], sum[2*k+1] = int32(lo), int32((x-lo)>>32)
	}
	return m.net.output(&sum)
}

// positive's mask has room for Hidden bits: this fails to compile
// otherwise.
const _ = uint(32 - Hidden)

// positive returns a bit for each value of a above zero, a[i]'s at bit i,
// without a branch per value: -x is negative exactly when x is positive.
func positive(a *[Hidden]int16) uint32 {
	var mask uint32
	for i, x := range a {
		mask |= uint32(-int32(x)) >> 31 << i
	}
	return mask
}

// propagatePlain's sums are four: this fails to compile otherwise (a
// negative constant overflows a uint).
const _ = uint(L1/2-4) + uint(4-L1/2)

// output returns the score of the dense layer's sums.
func (n *Net) output(sum *[L1]int32) int {
	out := int64(n.OutBias)
	for j, s := range sum {
		out += int64(activate(s)) * int64(n.Out[j])
	}
	return int(roundDiv(out*OutScale, QA*QB))
}
