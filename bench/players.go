package bench

import (
	"context"
	"math/rand/v2"

	"github.com/sower-engine/sower/board"
)

// Player chooses moves. A Player is used by one game at a time.
type Player interface {
	// Name identifies the player in reports.
	Name() string
	// Move returns a legal move in the game's current position, which is
	// not over.
	Move(ctx context.Context, g *board.Game) board.Move
}

// Random plays a uniformly random legal move.
type Random struct{ rng *rand.Rand }

// NewRandom returns a random player drawing from a generator seeded with
// seed.
func NewRandom(seed uint64) *Random {
	return &Random{rand.New(rand.NewPCG(seed, 0x72616e646f6d))}
}

// Name returns "random".
func (r *Random) Name() string { return "random" }

// Move returns a random legal move.
func (r *Random) Move(_ context.Context, g *board.Game) board.Move {
	p := g.Position()
	legal := p.LegalMoves()
	return legal[r.rng.IntN(len(legal))]
}

// Greedy plays the move that leaves it the best seed balance at once: in
// Katro the seeds in its half less the opponent's, in Hoyito III its
// captures less the opponent's (with the seeds a game-ending move awards).
// Ties are broken at random.
type Greedy struct{ rng *rand.Rand }

// NewGreedy returns a greedy player breaking ties with a generator seeded
// with seed.
func NewGreedy(seed uint64) *Greedy {
	return &Greedy{rand.New(rand.NewPCG(seed, 0x677265656479))}
}

// Name returns "greedy".
func (g *Greedy) Name() string { return "greedy" }

// Move returns the best-balance move, ties broken at random.
func (g *Greedy) Move(_ context.Context, game *board.Game) board.Move {
	p := game.Position()
	me := p.Side()
	var best []board.Move
	bestScore := -1 << 30
	for _, m := range p.LegalMoves() {
		c, err := p.After(m)
		if err != nil {
			continue
		}
		s := Balance(&c, me)
		switch {
		case s > bestScore:
			bestScore, best = s, append(best[:0], m)
		case s == bestScore:
			best = append(best, m)
		}
	}
	return best[g.rng.IntN(len(best))]
}

// Balance returns side s's seed balance in p: seeds in its half less the
// opponent's (Katro), or its captures less the opponent's (Hoyito III).
func Balance(p *board.Position, s board.Side) int {
	if p.Variant().Family() == board.Hoyito {
		return p.Captured(s) - p.Captured(s.Other())
	}
	return p.SeedsOf(s) - p.SeedsOf(s.Other())
}
