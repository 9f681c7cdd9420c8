package board

import (
	"math/rand/v2"
	"testing"
)

// TestWordPrimitives compares the word-parallel counters (SeedsOf,
// NonEmpty, HolesWith, FrontDepth, BackDepth) with counts made hole by hole
// on positions of random games of every variant.
func TestWordPrimitives(t *testing.T) {
	for _, name := range Names() {
		v, _ := New(name)
		rng := rand.New(rand.NewPCG(5, 6))
		for range 30 {
			playRandom(t, v.Start(), rng, 400, func(p Position) {
				for s := South; s <= North; s++ {
					seeds, with := 0, map[int]int{}
					front, back := -1, -1
					for d := 0; d < v.Depth(); d++ {
						row := p.Row(s, d)
						nonEmpty := 0
						for c := 0; c < v.Cols(); c++ {
							seeds += int(row[c])
							with[int(row[c])]++
							if row[c] > 0 {
								nonEmpty++
							}
						}
						if got := p.NonEmpty(s, d); got != nonEmpty {
							t.Fatalf("%s %s NonEmpty(%s, %d) = %d, want %d", name, p.String(), s, d, got, nonEmpty)
						}
						if nonEmpty > 0 {
							front = d
							if back < 0 {
								back = d
							}
						}
					}
					if got := p.SeedsOf(s); got != seeds {
						t.Fatalf("%s %s SeedsOf(%s) = %d, want %d", name, p.String(), s, got, seeds)
					}
					for n := 0; n <= 8; n++ {
						if got := p.HolesWith(s, n); got != with[n] {
							t.Fatalf("%s %s HolesWith(%s, %d) = %d, want %d", name, p.String(), s, n, got, with[n])
						}
					}
					if p.FrontDepth(s) != front || p.BackDepth(s) != back {
						t.Fatalf("%s %s front/back of %s = %d/%d, want %d/%d", name, p.String(), s, p.FrontDepth(s), p.BackDepth(s), front, back)
					}
				}
			})
		}
	}
}
