package gui_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client/clienttest"
)

// evalNow is the shown position's score as #eval-now shows it.
type evalNow struct {
	Main, Words, WDL, Score, Forced string
}

const evalNowJS = `(() => {
  const b = document.querySelector('#eval-now');
  const t = s => { const e = b.querySelector(s); return e ? e.textContent.trim() : ''; };
  const main = b.querySelector('.eval-main');
  return { main: t('.eval-main'), words: main ? main.title : '', wdl: t('.wdl'), score: t('.eval-score'), forced: b.dataset.forced || '' };
})()`

// otherSpelling finds forced results spelt otherwise than "#N" (South
// wins with its N-th move) and "#-N" (North does), with their words
// ("South wins with its 3rd move from here"), on the page.
var otherSpelling = regexp.MustCompile(`\b(-?M\d+|mate -?\d+|[Ww]ins? in \d+|[Ll]oss in \d+)\b`)

// percents finds the percentages in a text.
var percents = regexp.MustCompile(`(\d+)%`)

// checkWDL checks that a win/draw/loss text shows three percentages
// summing to 100, and returns them.
func checkWDL(t *testing.T, what, text string) []int {
	t.Helper()
	var ps []int
	for _, m := range percents.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[1])
		ps = append(ps, n)
	}
	if len(ps) != 3 || ps[0]+ps[1]+ps[2] != 100 {
		t.Errorf("%s: %q, want three percentages summing to 100", what, text)
	}
	return ps
}

// testScores plays against a scripted engine that sends wdl (the fake
// engine with -wdl) and, from its second search, a forced win: the page
// shows South's chances summing to 100 %, the score in its unit, one
// spelling of the forced result (#-3, its words as a tooltip), and the
// forced result at the end of the graph's scale. Analysis against it keeps it as the opponent.
func testScores(t *testing.T, browser context.Context, bin string) {
	fake := clienttest.BuildFake(t)
	srv := startServer(t, bin, "--engine", "fake="+fake+" -wdl -mate 2")
	tb := newTab(t, browser, srv)
	r, s := openGame(tb, board.NameKatro4x4, "south=human&north=fake&movetime=50&animate=off")
	if !strings.Contains(eval[string](tb, `document.querySelector('#pov').textContent`), "South's view") {
		t.Errorf("#pov does not say whose view the scores are")
	}
	play := func(n int) pageState { return playFirst(tb, r, n) }
	s = play(2)
	// The fake's first search: cp 10 and wdl 310 300 390 for North, to
	// move: South's view is 39 % · 30 % · 31 %, evaluation -0.10.
	e := eval[evalNow](tb, evalNowJS)
	if ps := checkWDL(t, "#eval-now after ply 2", e.WDL); len(ps) == 3 && (ps[0] != 39 || ps[2] != 31) {
		t.Errorf("#eval-now %q: want South 39 %%, North 31 %% (the engine's 310/300/390 from North's view)", e.WDL)
	}
	if e.Main != "South 39%" || e.Score != "evaluation\u00a0-0.10" {
		t.Errorf("#eval-now main %q, score %q; want %q and %q", e.Main, e.Score, "South 39%", "evaluation -0.10")
	}
	if got := s.Plies[1].Text; !strings.Contains(got, "39%") {
		t.Errorf("move list item 2 %q: want South's 39%%", got)
	}
	tb.screenshot("wdl")

	s = play(4)
	e = eval[evalNow](tb, evalNowJS)
	// North's search before its move said mate 3: once it is played,
	// North's win is two of its moves away.
	const forced, words = "#-2", "North wins with its 2nd move from here"
	if e.Main != forced || e.Words != words || e.Forced != "north" {
		t.Errorf("#eval-now after North's mate 3 and its move: main %q (%q) forced %q, want %q (%q)", e.Main, e.Words, e.Forced, forced, words)
	}
	checkWDL(t, "#eval-now of a forced result", e.WDL)
	if got := s.Plies[3].Text; !strings.Contains(got, forced) {
		t.Errorf("move list item 4 %q: want %q", got, forced)
	}
	g := eval[graphState](tb, graphJS)
	var seen bool
	for _, p := range g.Points {
		if p.Ply == 4 {
			seen = true
			if p.Forced != "north" || p.Cy != g.Bottom || !strings.Contains(p.Class, "g-forced") {
				t.Errorf("graph point of North's forced win: %+v, want forced north at the bottom (y %v)", p, g.Bottom)
			}
		}
	}
	if !seen {
		t.Errorf("no graph point for ply 4: %+v", g.Points)
	}
	text := eval[string](tb, `document.body.innerText`)
	if other := otherSpelling.FindString(text); other != "" {
		t.Errorf("the page spells a forced result %q besides %q", other, forced)
	}
	tb.screenshot("forced")

	// Analysis in a game against the engine: the page says the engine
	// stays the opponent, the analysis runs on South's turn (with wdl),
	// and the engine still answers South's move.
	tb.click("#analyse")
	note := eval[string](tb, `document.querySelector('#analysis-note').textContent`)
	if !strings.Contains(note, "fake stays your opponent") {
		t.Errorf("#analysis-note %q: want it to say the engine stays the opponent", note)
	}
	s = tb.waitFor("an analysis line", 20*time.Second, func(s pageState) bool {
		return len(s.Lines) > 0 && s.Analysing != nil && *s.Analysing == "true"
	})
	checkWDL(t, "analysis line", s.Lines[0].Text)
	if !strings.Contains(s.Lines[0].Text, "#3") {
		t.Errorf("analysis line %q: want South's forced win spelt %q", s.Lines[0].Text, "#3")
	}
	n := len(s.Plies)
	s = play(n + 2)
	if s.Analysing == nil || *s.Analysing != "true" || s.Plies[n+1].Move == "" {
		t.Errorf("with analysis on: %s, want the engine's answer and the analysis on", s.summary())
	}
	tb.screenshot("analysis-vs-engine")
	// The same on a phone: scores, graph and analysis lines fit the width.
	tb.setViewport(390, 844)
	if l := tb.measure(); l.ScrollWidth > l.InnerWidth || len(l.Small) > 0 {
		t.Errorf("phone, with scores and analysis: %v px wide in %v px, touch targets under 44 px: %v", l.ScrollWidth, l.InnerWidth, l.Small)
	}
	tb.pageScreenshot("phone")
}

// playFirst clicks the first legal move and waits until the page has n
// plies and waits for the person, checking what it shows.
func playFirst(tb *tab, r *referee, n int) pageState {
	tb.t.Helper()
	p := r.g.Position()
	tb.click(moveSelector(p.LegalMoves()[0]))
	s := tb.waitFor("the engine's answer", 20*time.Second, func(s pageState) bool { return settled(s) && len(s.Plies) >= n })
	r.follow(tb, s)
	r.check(tb, s)
	return s
}
