package protocol

import (
	"slices"
	"strings"
	"testing"
)

// TestBinaryMaxHash: sower --max-hash caps the Hash option.
func TestBinaryMaxHash(t *testing.T) {
	bin := buildSower(t)
	s, _ := startSower(t, bin, "--max-hash", "64")
	s.send("uci")
	if got := s.expect("uciok"); !slices.Contains(got, "option name Hash type spin default 16 min 1 max 64") {
		t.Errorf("uci with --max-hash 64:\n%s", strings.Join(got, "\n"))
	}
	s.send("setoption name Hash value 65", "setoption name Hash value 64")
	if got := errorLines(s.sync()); len(got) != 1 || !strings.Contains(got[0], `"65" is not an integer from 1 to 64`) {
		t.Errorf("Hash 65 and 64 with --max-hash 64: errors %q", got)
	}
	s.send("go depth 2")
	s.bestmove()
	s.send("quit")
}
