package protocol

import (
	"slices"
	"strings"
	"testing"
)

// TestProvenLine: a proven result is said once in an info string line,
// and a depth-limited search goes on to its depth after the proof.
func TestProvenLine(t *testing.T) {
	s := newSession(t, Config{})
	s.send("setoption name UCI_Variant value katro-4x4", "position fen 2,1,2,0/8,6,5,3/1,0,1,2/0,1,0,0 N 3", "go depth 10")
	move, lines := s.bestmove()
	if move != "a4" {
		t.Errorf("bestmove %s, want the win a4", move)
	}
	var proofs []string
	for _, l := range lines {
		if strings.HasPrefix(l, "info string proven") {
			proofs = append(proofs, l)
		}
	}
	if want := []string{"info string proven: win in 3 plies"}; !slices.Equal(proofs, want) {
		t.Errorf("proof lines %q, want %q", proofs, want)
	}
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "info depth 10 ") }) {
		t.Errorf("the search stopped before depth 10:\n%s", strings.Join(lines, "\n"))
	}
}
