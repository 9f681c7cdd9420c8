package eval

import (
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

// slowKatro computes the Katro terms hole by hole from the board's rows,
// independently of the circuit order the Evaluator works in.
func slowKatro(p *board.Position) features {
	var f features
	v := p.Variant()
	rowOf := func(s board.Side, d int) int { // board row, 0-based, of s's depth d
		if s == board.South {
			return d
		}
		return v.Rows() - 1 - d
	}
	var front [2][8]int
	for s := board.South; s <= board.North; s++ {
		fr, back := -1, -1
		for d := 0; d < v.Depth(); d++ {
			n := 0
			for c := 0; c < v.Cols(); c++ {
				k := p.Count(board.HoleMove(rowOf(s, d), c))
				f[s][KatroSeeds] += k
				if k > 0 {
					n++
				}
				if k == 1 {
					f[s][KatroSingles]++
				}
			}
			if n > 0 {
				if back < 0 {
					back = d
					f[s][KatroMobility] = n
				}
				fr = d
				f[s][KatroFront] = n
			}
		}
		if fr >= 0 {
			for c := 0; c < v.Cols(); c++ {
				front[s][c] = p.Count(board.HoleMove(rowOf(s, fr), c))
			}
		}
	}
	for s := board.South; s <= board.North; s++ {
		for c := 0; c < v.Cols(); c++ {
			if front[s.Other()][c] > 0 {
				f[s][KatroExposed] += front[s][c]
			}
		}
	}
	return f
}

// slowHoyito computes the Hoyito III terms by sowing each move's first lap
// on a copy of the board, hole by hole.
func slowHoyito(p *board.Position) features {
	var f features
	v := p.Variant()
	circuit := make([]board.Move, 0, 12)
	for c := 0; c < v.Cols(); c++ {
		circuit = append(circuit, board.HoleMove(0, c))
	}
	for c := v.Cols() - 1; c >= 0; c-- {
		circuit = append(circuit, board.HoleMove(1, c))
	}
	for s := board.South; s <= board.North; s++ {
		f[s][HoyitoCaptured] = p.Captured(s)
		for i, h := range circuit {
			n := p.Count(h)
			if v.Owner(h) != s || n == 0 {
				continue
			}
			f[s][HoyitoRow] += n
			f[s][HoyitoMoves]++
			counts := make([]int, len(circuit))
			for j, g := range circuit {
				counts[j] = p.Count(g)
			}
			counts[i] = 0
			j := i
			for ; n > 0; n-- {
				j = (j + 1) % len(circuit)
				counts[j]++
			}
			if counts[j] == 4 && j != i {
				f[s][HoyitoThrees]++
			}
		}
	}
	return f
}

// TestFeaturesMatchSlow compares the evaluator's terms with the slow
// computations on positions of random games of every variant.
func TestFeaturesMatchSlow(t *testing.T) {
	for _, name := range board.Names() {
		v, _ := board.New(name)
		e := New(v)
		rng := rand.New(rand.NewPCG(3, 4))
		for range 50 {
			g := board.NewGame(v.Start())
			for !g.Status().Over() {
				p := g.Position()
				var got features
				e.compute(&p, &got)
				want := slowKatro(&p)
				if v.Family() == board.Hoyito {
					want = slowHoyito(&p)
				}
				if got != want {
					t.Fatalf("%s %s: features %v, want %v", name, p.String(), got, want)
				}
				legal := p.LegalMoves()
				if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
