package bench

import (
	"math/rand/v2"

	"github.com/sower-engine/sower/board"
)

// Openings returns n distinct start positions made by plies random legal
// moves from v's start, skipping games already over, from a generator
// seeded with seed. Fewer are returned if there are not n distinct ones.
func Openings(v *board.Variant, n, plies int, seed uint64) []board.Position {
	rng := rand.New(rand.NewPCG(seed, 0x6f70656e))
	seen := map[string]bool{}
	var out []board.Position
	for tries := 0; len(out) < n && tries < 100*n; tries++ {
		g := board.NewGame(v.Start())
		for i := 0; i < plies && !g.Status().Over(); i++ {
			p := g.Position()
			l := p.LegalMoves()
			g.Play(l[rng.IntN(len(l))])
		}
		p := g.Position()
		if g.Status().Over() || seen[p.String()] {
			continue
		}
		seen[p.String()] = true
		out = append(out, p)
	}
	return out
}
