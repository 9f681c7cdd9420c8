package nnue

import (
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

// randomNet returns a network of family f with random weights of sizes
// like a trained one's.
func randomNet(f board.Family, seed uint64) *Net {
	rng := rand.New(rand.NewPCG(seed, 7))
	n := New(f, "random")
	r16 := func(k int) int16 { return int16(rng.IntN(2*k+1) - k) }
	for i := range n.FT {
		n.FT[i] = r16(200)
	}
	for i := range n.FTBias {
		n.FTBias[i] = r16(100) + 60
	}
	for j := range n.Dense {
		for i := range n.Dense[j] {
			n.Dense[j][i] = r16(40)
		}
		n.DenseBias[j] = int32(r16(3000))
		n.Out[j] = r16(300)
	}
	n.OutBias = int32(r16(3000))
	return n
}

func variant(t testing.TB, name string) *board.Variant {
	t.Helper()
	v, err := board.New(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func model(t testing.TB, name string, seed uint64) Model {
	t.Helper()
	v := variant(t, name)
	m, err := NewModel(randomNet(v.Family(), seed), v)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// randomGame returns the positions of a random game of v from its start,
// at most plies long.
func randomGame(v *board.Variant, rng *rand.Rand, plies int) []board.Position {
	p := v.Start()
	out := []board.Position{p}
	var hist []uint64
	for len(out) <= plies {
		if p.Status(hist).Over() {
			break
		}
		moves := p.LegalMoves()
		if len(moves) == 0 {
			break
		}
		hist = append(hist, p.Key())
		p.Play(moves[rng.IntN(len(moves))])
		out = append(out, p)
	}
	return out
}
