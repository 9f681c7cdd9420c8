package campaign_test

import (
	"context"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/sower-engine/sower/search/dfpn"
	"github.com/sower-engine/sower/search/dfpn/campaign"
)

// TestMemoryLimit: Config.MemoryLimit is the runtime's memory limit while
// the campaign searches, and the limit before it is back when Run returns.
// (That it is back before the join, not only after it, the test does not
// see: the join reports nothing.)
func TestMemoryLimit(t *testing.T) {
	const limit = 3 << 40 // far above what the test takes: the limit only has to be seen
	before := debug.SetMemoryLimit(-1)
	g := startGame(t)
	w := winner(t, g)
	dir := t.TempDir()
	var seen []int64
	cfg := campaign.Config{
		Dir: filepath.Join(dir, "work"), Winner: w, Solver: dfpn.Config{HashMiB: 16}, MemoryLimit: limit,
		Progress: func(campaign.Report) { seen = append(seen, debug.SetMemoryLimit(-1)) },
	}
	if _, err := campaign.Run(context.Background(), g, filepath.Join(dir, "p.proof"), cfg); err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 {
		t.Fatal("no report")
	}
	for i, l := range seen {
		if l != limit {
			t.Errorf("report %d: memory limit %d, want %d", i, l, limit)
		}
	}
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("after Run: memory limit %d, want the one before, %d", got, before)
	}
}
