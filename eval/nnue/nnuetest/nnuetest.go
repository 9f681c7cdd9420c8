// Package nnuetest provides networks for the tests of the packages that
// evaluate with one (search, protocol), as net/http/httptest serves the
// tests of HTTP code.
package nnuetest

import (
	"math/rand/v2"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
)

// RandomNet returns a network of family f with random weights of a
// trained network's sizes, the same for the same seed: its scores are
// noise, but every layer works. It evaluates every board of f and has no
// win/draw/loss model.
func RandomNet(f board.Family, seed uint64) *nnue.Net {
	rng := rand.New(rand.NewPCG(seed, 11))
	n := nnue.New(f, "test")
	r16 := func(k int) int16 { return int16(rng.IntN(2*k+1) - k) }
	for i := range n.FT {
		n.FT[i] = r16(150)
	}
	for i := range n.FTBias {
		n.FTBias[i] = r16(100) + 80
	}
	for j := range n.Dense {
		for i := range n.Dense[j] {
			n.Dense[j][i] = r16(30)
		}
		n.DenseBias[j] = int32(r16(2000))
		n.Out[j] = r16(400)
	}
	return n
}
