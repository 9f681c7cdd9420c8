package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search"
)

// TestReportPrinter feeds the analyse printer reports by hand: a line
// equal to the last is not printed again, and once a report is settled the
// search is stopped (once) and later reports but the proof are dropped.
func TestReportPrinter(t *testing.T) {
	var out bytes.Buffer
	stops := 0
	pr := &reportPrinter{w: &out, settle: func() { stops++ }}
	cb := pr.callbacks()
	est := search.Info{Family: board.Katro, Depth: 3, Score: 40, Bound: search.BoundExact}
	win := search.Info{Family: board.Katro, Depth: 5, Score: search.KatroWin(5), Bound: search.BoundExact, Proven: true}
	cb.Info(est)
	cb.Info(est) // the same line again
	cb.CurrMove(search.CurrMove{Depth: 4, Number: 1})
	cb.Info(win)
	cb.Proven(search.Proof{Family: board.Katro, Depth: 5, Score: win.Score, Plies: 5})
	deeper := win
	deeper.Depth = 6
	cb.Info(deeper)
	cb.CurrMove(search.CurrMove{Depth: 7, Number: 1})
	want := "info depth 3 score cp 40 nodes 0 nps 0 time 0 hashfull 0\n" +
		"info depth 4 currmove (none) currmovenumber 1\n" +
		"info depth 5 score mate 3 nodes 0 nps 0 time 0 hashfull 0\n" +
		"info string proven: win in 5 plies\n"
	if out.String() != want || stops != 1 {
		t.Errorf("printed\n%s(%d stops), want\n%s(1 stop)", out.String(), stops, want)
	}
}

// TestAnalyseStopsWhenSettled analyses a katro-6x3 position won in a few
// plies to depth 100: the search stops once the win is settled instead of
// printing an info line per depth up to 100, no line is printed twice,
// and the last info line before bestmove is the settled one.
func TestAnalyseStopsWhenSettled(t *testing.T) {
	stdout, stderr, st := runCLI("analyse", "--game", "katro-6x3", "--moves", "a1 a6 a1 c6 c1 b6 a1 a6 b1 a6 c1 c6", "--depth", "100")
	if st != exitOK {
		t.Fatalf("status %d, stderr %s", st, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	seen := map[string]bool{}
	var infos []string
	for _, l := range lines {
		if seen[l] && strings.HasPrefix(l, "info") {
			t.Errorf("line printed twice: %q", l)
		}
		seen[l] = true
		if strings.HasPrefix(l, "info depth") && !strings.Contains(l, "currmove") {
			infos = append(infos, l)
		}
	}
	if len(infos) == 0 || len(infos) > 10 || !strings.Contains(stdout, "info string proven: win in 3 plies") {
		t.Fatalf("%d info lines:\n%s", len(infos), stdout)
	}
	if last := infos[len(infos)-1]; !strings.HasPrefix(last, "info depth 3 ") || !strings.Contains(last, "score mate 2") ||
		lines[len(lines)-1] != "bestmove c1 ponder b6" {
		t.Errorf("last info line %q, output\n%s", last, stdout)
	}
}
