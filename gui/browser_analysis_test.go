package gui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/internal/sowertest"
)

// analysisLinesJS reads the analysis card's lines.
const analysisLinesJS = `[...document.querySelectorAll('#analysis .pv-line')].map((d) => ({
  multipv: d.dataset.multipv, depth: d.dataset.depth, score: d.dataset.score,
  restored: d.dataset.restored || '', text: d.textContent }))`

type analysisLine struct{ MultiPV, Depth, Score, Restored, Text string }

// TestBrowserAnalysisReload analyses with a scripted engine whose first
// search (of each process) sends a depth-3 line after a while and whose
// later ones reach depth 12 at once: the tab analyses the position after
// a move to depth 12, then reloads. The depth-12 line is back at once,
// marked as kept from before the reload, and the new engine process's
// shallower search does not replace it.
func TestBrowserAnalysisReload(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the full run has it")
	}
	browser := newBrowser(t)
	bin := sowertest.Build(t, raceEnabled)
	cmd := scriptedCommand(t, "sleep 1500ms|info depth 3 score cp 10 nodes 5 nps 5 time 1 pv b1",
		"info depth 12 seldepth 14 score cp 50 nodes 1000 nps 1000 time 1 pv a1")
	srv := startServer(t, bin, "--engine", "scripted="+cmd)
	tb := newTab(t, browser, srv)
	r, _ := openGame(tb, board.NameKatro4x4, "south=human&north=human&mode=analysis&engine=scripted&animate=off")
	lines := func() []analysisLine { return eval[[]analysisLine](tb, analysisLinesJS) }
	// The start's analysis is the process's first search: its line is in
	// before the move, so that the analysis after the move is the second
	// (on a loaded machine the move could otherwise come first).
	waitUntil(tb, "the start's depth-3 line", 15*time.Second, lines, func(l []analysisLine) bool { return len(l) == 1 && l[0].Depth == "3" })
	playFirst(tb, r, 1)
	first := waitUntil(tb, "the depth-12 line", 15*time.Second, lines, func(l []analysisLine) bool { return len(l) == 1 && l[0].Depth == "12" })
	if first[0].Restored != "" {
		t.Fatalf("a line of a search in this tab marked restored: %+v", first[0])
	}
	tb.reload()
	check := func(when string) {
		got := lines()
		if len(got) != 1 || got[0].Depth != "12" || got[0].Score != "cp 50" || got[0].Restored != "true" || !strings.Contains(got[0].Text, "kept from before the reload") {
			t.Errorf("%s: %+v, want the depth-12 line, marked as kept from before it", when, got)
		}
	}
	waitUntil(tb, "the line kept from before the reload", 15*time.Second, lines, func(l []analysisLine) bool { return len(l) > 0 })
	check("after the reload")
	// The new search's depth-3 line comes after 1.5 s.
	time.Sleep(2500 * time.Millisecond)
	check("after the new search's shallower line")
}
