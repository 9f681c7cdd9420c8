package search

import (
	"testing"

	"github.com/sower-engine/sower/board"
)

func TestInfoSettled(t *testing.T) {
	for _, c := range []struct {
		name string
		info Info
		want bool
	}{
		{"estimate", Info{Family: board.Katro, Depth: 9, Score: 35, Bound: BoundExact}, false},
		{"katro win beyond the depth", Info{Family: board.Katro, Depth: 4, Score: KatroWin(5), Bound: BoundExact, Proven: true}, false},
		{"katro win within the depth", Info{Family: board.Katro, Depth: 5, Score: KatroWin(5), Bound: BoundExact, Proven: true}, true},
		{"katro loss within the depth", Info{Family: board.Katro, Depth: 6, Score: -KatroWin(4), Bound: BoundExact, Proven: true}, true},
		{"katro draw proven", Info{Family: board.Katro, Depth: 3, Score: 0, Bound: BoundExact, Proven: true}, true},
		{"katro mate score not proven", Info{Family: board.Katro, Depth: 9, Score: KatroWin(5), Bound: BoundExact}, false},
		{"hoyito margin proven", Info{Family: board.Hoyito, Depth: 2, Score: HoyitoEnd(8, 20), Bound: BoundExact, Proven: true}, true},
		{"hoyito lower bound", Info{Family: board.Hoyito, Depth: 2, Score: HoyitoEnd(8, 20), Bound: BoundLower, Proven: true}, false},
		{"hoyito estimate", Info{Family: board.Hoyito, Depth: 12, Score: 300, Bound: BoundExact}, false},
	} {
		if got := c.info.Settled(); got != c.want {
			t.Errorf("%s: Settled() = %v, want %v", c.name, got, c.want)
		}
	}
}
