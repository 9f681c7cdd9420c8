package match

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
)

// TestReplayWarning checks that a match with more pairs than openings says
// that its later games repeat when both engines think to a node count or
// a depth, and not when a clock or a time per move makes games differ.
func TestReplayWarning(t *testing.T) {
	v := variant(t, board.NameHoyito3)
	openings := []board.Position{v.Start(), v.Start()}
	for _, tc := range []struct {
		name   string
		limits [2]timecontrol.Limit
		games  int
		warn   bool
	}{
		{"nodes", [2]timecontrol.Limit{{Nodes: 5000}, {Nodes: 5000}}, 6, true},
		{"depth and nodes", [2]timecontrol.Limit{{Depth: 8}, {Nodes: 5000}}, 5, true},
		{"enough openings", [2]timecontrol.Limit{{Nodes: 5000}, {Nodes: 5000}}, 4, false},
		{"a clock", [2]timecontrol.Limit{{Base: time.Second, Inc: time.Millisecond}, {Nodes: 5000}}, 6, false},
		{"time per move", [2]timecontrol.Limit{{MoveTime: time.Second, Nodes: 5000}, {Nodes: 5000}}, 6, false},
	} {
		var progress bytes.Buffer
		cfg := &Config{Variant: v, Openings: openings, Games: tc.games, Progress: &progress}
		cfg.Engines[0].Limit, cfg.Engines[1].Limit = tc.limits[0], tc.limits[1]
		newRunner(cfg)
		got := strings.Contains(progress.String(), "only the first 4 games are distinct")
		if got != tc.warn {
			t.Errorf("%s, %d games: warned %v, want %v (%q)", tc.name, tc.games, got, tc.warn, progress.String())
		}
	}
}
