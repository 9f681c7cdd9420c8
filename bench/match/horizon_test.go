package match

import (
	"slices"
	"strings"
	"testing"

	"github.com/sower-engine/sower/bench/record"
)

// plies returns move records of alternating sides from first, those at
// the indexes in mates reported with a mate score.
func plies(first string, n int, mates ...int) []record.MoveRecord {
	var ms []record.MoveRecord
	side := first
	for i := range n {
		m := record.MoveRecord{Move: "a1", Side: side}
		if slices.Contains(mates, i) {
			k := 3
			m.Mate = &k
		}
		ms = append(ms, m)
		if side == "S" {
			side = "N"
		} else {
			side = "S"
		}
	}
	return ms
}

// TestProofHorizons: derived by hand, the plies from each engine's first
// move reported with a mate score to the game's end, that move included.
func TestProofHorizons(t *testing.T) {
	for _, c := range []struct {
		name string
		rec  record.GameRecord
		want [2]int
	}{
		// Five plies S N S N S; engine1 plays South: its first mate at
		// ply 3 (index 2), 3 plies before the end; engine2's at index 3.
		{"both", record.GameRecord{Engine1: "south", Moves: plies("S", 5, 2, 3, 4)}, [2]int{3, 2}},
		// engine1 plays North; South (engine2) reports from the first ply.
		{"engine2 only", record.GameRecord{Engine1: "north", Moves: plies("S", 4, 0, 2)}, [2]int{-1, 4}},
		{"none", record.GameRecord{Engine1: "south", Moves: plies("S", 6)}, [2]int{-1, -1}},
		// An opening where North moves first (a Katro start position
		// with North to move).
		{"north first", record.GameRecord{Engine1: "north", Moves: plies("N", 3, 2)}, [2]int{1, -1}},
	} {
		if got := proofHorizons(&c.rec); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestHorizonReport: the report's line, with quartiles by linear
// interpolation between ranks (of 12, 16, 18, 20: 15, 17 and 18.5).
func TestHorizonReport(t *testing.T) {
	s := Summary{Names: [2]string{"prover", "plain"}, Score: WDL{5, 3, 2},
		Horizons: [2][]int{{20, 12, 18, 16}, {9}}}
	var b strings.Builder
	s.WriteReport(&b)
	want := "Proof horizon (plies before the end at the first mate score): prover median 17.0, quartiles 15.0 and 18.5, in 4 of 10 games; plain median 9.0, quartiles 9.0 and 9.0, in 1 of 10 games\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("report:\n%s\nwant the line\n%s", b.String(), want)
	}
	s.Horizons = [2][]int{}
	b.Reset()
	s.WriteReport(&b)
	if strings.Contains(b.String(), "Proof horizon") {
		t.Errorf("no mate reported, yet:\n%s", b.String())
	}
}

// TestTallyHorizons: a tally counts each game's proof horizons into the
// summary, engine by engine, whichever side it played.
func TestTallyHorizons(t *testing.T) {
	tally, err := NewTally(Config{Variant: variant(t, "katro-4x4"), Games: 4, Engines: [2]EngineSpec{builtin("greedy"), builtin("random")}})
	if err != nil {
		t.Fatal(err)
	}
	for i, rec := range []record.GameRecord{
		{Engine1: "south", Moves: plies("S", 5, 2, 3), Result: "1-0", Winner: "south"},
		{Engine1: "north", Moves: plies("S", 6, 1), Result: "0-1", Winner: "north"},
		{Engine1: "south", Moves: plies("S", 4), Result: "1/2-1/2", Winner: "draw"},
	} {
		rec.Game = i + 1
		tally.Restore(&rec)
	}
	got := tally.Summary().Horizons
	if want := [2][]int{{3, 5}, {2}}; !slices.Equal(got[0], want[0]) || !slices.Equal(got[1], want[1]) {
		t.Errorf("horizons %v, want %v", got, want)
	}
}
