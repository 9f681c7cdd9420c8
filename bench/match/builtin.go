package match

import (
	"context"
	"math/rand/v2"

	"github.com/sower-engine/sower/board"
)

// mover is a built-in player's move choice ("builtin:random",
// "builtin:greedy"), used by one game at a time.
type mover interface {
	// move returns a legal move in the game's current position, which is
	// not over.
	move(ctx context.Context, g *board.Game) board.Move
}

// randomMover plays a uniformly random legal move.
type randomMover struct{ rng *rand.Rand }

// newRandom returns a random player drawing from a generator seeded with
// seed.
func newRandom(seed uint64) *randomMover {
	return &randomMover{rand.New(rand.NewPCG(seed, 0x72616e646f6d))}
}

func (r *randomMover) move(_ context.Context, g *board.Game) board.Move {
	p := g.Position()
	legal := p.LegalMoves()
	return legal[r.rng.IntN(len(legal))]
}

// greedyMover plays the move that leaves it the best seed balance at once
// (board.Position.Balance): in Katro the seeds in its half less the
// opponent's, in Hoyito III its captures less the opponent's (with the
// seeds a game-ending move awards). Ties are broken at random.
type greedyMover struct{ rng *rand.Rand }

// newGreedy returns a greedy player breaking ties with a generator seeded
// with seed.
func newGreedy(seed uint64) *greedyMover {
	return &greedyMover{rand.New(rand.NewPCG(seed, 0x677265656479))}
}

func (g *greedyMover) move(_ context.Context, game *board.Game) board.Move {
	p := game.Position()
	me := p.Side()
	var best []board.Move
	bestScore := -1 << 30
	for _, m := range p.LegalMoves() {
		c, err := p.After(m)
		if err != nil {
			continue
		}
		s := c.Balance(me)
		switch {
		case s > bestScore:
			bestScore, best = s, append(best[:0], m)
		case s == bestScore:
			best = append(best, m)
		}
	}
	return best[g.rng.IntN(len(best))]
}

// randomOpenings returns n distinct start positions made by plies random
// legal moves from v's start, skipping games already over, from a
// generator seeded with seed. Fewer are returned if there are not n
// distinct ones.
func randomOpenings(v *board.Variant, n, plies int, seed uint64) []board.Position {
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
