package dfpn

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestMeasureInit compares the first estimates on random katro-4x4 and
// katro-4x6 positions, 14 to 40 plies before the end of a random game:
// how many each solves within a budget, and the nodes it takes. It only
// reports (SOWER_DFPN_INIT=1).
func TestMeasureInit(t *testing.T) {
	if os.Getenv("SOWER_DFPN_INIT") == "" {
		t.Skip("set SOWER_DFPN_INIT=1 to measure the estimates")
	}
	for _, name := range []string{"katro-4x6"} {
		v, _ := board.New(name)
		rng := rand.New(rand.NewPCG(3, 4))
		var roots []board.Position
		for len(roots) < 40 {
			if p, ok := lateSample(v, rng, 40); ok && p.Clock() >= 0 {
				roots = append(roots, p)
			}
		}
		for _, in := range []Init{InitMobility, InitUniform, InitSeeds, InitSeedsMobility} {
			s, err := New(Config{HashMiB: 256, MaxNodes: 1_000_000, Init: in})
			if err != nil {
				t.Fatal(err)
			}
			solved, nodes := 0, uint64(0)
			for _, p := range roots {
				s.tt.clear()
				res, _ := s.Solve(context.Background(), p, nil, nil)
				nodes += res.Nodes
				if res.Outcome != Unknown {
					solved++
				}
			}
			t.Logf("%s init %d: %d of %d solved, %d nodes", name, in, solved, len(roots), nodes)
		}
	}
}
