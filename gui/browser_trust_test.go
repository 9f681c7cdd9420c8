package gui_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

// inView is where the board is on screen, and what the page shows of
// the chances, after a move.
type inView struct {
	Holes, Out int      // holes, and holes not wholly in the viewport
	ScrollY    float64  // the document's scroll
	NewOpen    bool     // the New game card is open
	FirstCard  string   // the id of the first panel after the board
	WDL        []string // every chances text on the page
	Text       string   // the page's text
}

const inViewJS = `(() => {
  const hs = [...document.querySelectorAll('[data-hole]')].map(b => b.getBoundingClientRect());
  const out = hs.filter(r => r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth).length;
  const first = document.querySelector('aside.side > .card');
  return { holes: hs.length, out, scrollY: window.scrollY, newOpen: document.querySelector('#new-card').open,
    firstCard: first.id || (first.querySelector('#movelist') ? 'moves' : first.className),
    wdl: [...document.querySelectorAll('.wdl')].map(e => e.textContent), text: document.body.innerText };
})()`

// pctRE reads a percentage, signed or not, with its decimals.
var pctRE = regexp.MustCompile(`([-\x{2212}]?)(\d+(?:\.\d+)?)%`)

// checkPercents checks every percentage on the page: none negative, and
// every chances text three percentages that sum to exactly 100 (in the
// tenths they are written in).
func checkPercents(tb *tab, v inView, when string) {
	tb.t.Helper()
	for _, m := range pctRE.FindAllStringSubmatch(v.Text, -1) {
		if m[1] != "" {
			tb.t.Errorf("%s: a negative percentage %q on the page", when, m[0])
		}
	}
	for _, w := range v.WDL {
		ms := pctRE.FindAllStringSubmatch(w, -1)
		sum := 0
		for _, m := range ms {
			x, _ := strconv.ParseFloat(m[2], 64)
			sum += int(math.Round(10 * x))
		}
		if len(ms) < 2 || sum != 1000 {
			tb.t.Errorf("%s: chances %q do not sum to 100%%", when, w)
		}
	}
}

// testPhoneGame plays a whole game against the engine on a phone's
// screen, clicking random legal moves: after every move and answer every
// hole is inside the viewport and the document has not scrolled (the
// move list scrolls itself), the New game card is folded, the moves and
// graph come right after the board, and no percentage is negative or
// fails to sum to 100.
func testPhoneGame(t *testing.T, browser context.Context, srv *guiServer, game string, w, h int64, seed uint64) {
	tb := newTab(t, browser, srv)
	tb.setViewport(w, h)
	r, _ := openGame(tb, game, "south=human&north=sower&movetime=50&animate=off")
	v0 := eval[inView](tb, inViewJS)
	if v0.Out > 0 || v0.Holes == 0 {
		t.Fatalf("%dx%d %s at the start: %d of %d holes outside the viewport", w, h, game, v0.Out, v0.Holes)
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	moves := 0
	playMoves(tb, r, func(p board.Position) board.Move {
		// The state before this move, as the person sees it: checked
		// before the click (which would scroll to the hole).
		v := eval[inView](tb, inViewJS)
		when := fmt.Sprintf("%dx%d %s at ply %d", w, h, game, r.g.Ply())
		if v.Out > 0 || v.ScrollY != v0.ScrollY {
			tb.fail("%s: %d of %d holes outside the viewport, the page scrolled from %v to %v", when, v.Out, v.Holes, v0.ScrollY, v.ScrollY)
		}
		if moves > 0 && (v.NewOpen || v.FirstCard != "moves") {
			t.Errorf("%s: the New game card open %v, the first panel after the board %q; want it folded, the moves first", when, v.NewOpen, v.FirstCard)
		}
		checkPercents(tb, v, when)
		moves++
		l := p.LegalMoves()
		return l[rng.IntN(len(l))]
	}, 1000)
	if !r.g.Status().Over() {
		t.Fatalf("the game did not end in %d plies", r.g.Ply())
	}
	v := eval[inView](tb, inViewJS)
	if v.Out > 0 || v.ScrollY != v0.ScrollY {
		tb.fail("%dx%d %s at the end: %d holes outside the viewport, scrolled to %v", w, h, game, v.Out, v.ScrollY)
	}
	checkPercents(tb, v, "the end")
	t.Logf("%dx%d %s: %d plies, the board in view after every one", w, h, game, r.g.Ply())
	tb.screenshot("end")
}

// watchGame opens an engine game and waits for its end.
func watchGame(t *testing.T, browser context.Context, srv *guiServer, query string) (*tab, pageState) {
	tb := newTab(t, browser, srv)
	tb.open(query)
	return tb, tb.waitFor("the end of the engines' game", 120*time.Second, func(s pageState) bool {
		return s.Busy == "false" && s.Turn == "over"
	})
}

// testTakeBackEngines takes back in a finished engine game: exactly one
// ply each time, and play stays paused.
func testTakeBackEngines(t *testing.T, browser context.Context, srv *guiServer) {
	tb, s := watchGame(t, browser, srv, "game=katro-4x4&south=sower&north=sower&depth=2&animate=off")
	r := refereeFor(t, board.NameKatro4x4, "", false, false)
	r.follow(tb, s)
	n := len(s.Plies)
	for k := 1; k <= 2; k++ {
		tb.click("#takeback")
		s = tb.waitFor("the take back", 20*time.Second, func(s pageState) bool { return s.Busy == "false" && len(s.Plies) < n-k+1 })
		if len(s.Plies) != n-k || s.Paused == nil || *s.Paused != "true" {
			t.Fatalf("take back %d in a finished %d-ply engine game: %d plies, paused %v; want %d, paused", k, n, len(s.Plies), s.Paused, n-k)
		}
		r.truncate(n - k)
		r.check(tb, s)
	}
}

// The scripted engine's scores, from its side's view (it plays North).
const (
	hugeWDL   = "info depth 5 score cp 100000 wdl 1000 0 0 nodes 10 pv x"
	hugeNoWDL = "info depth 6 score cp 100000 nodes 10 pv x"
	mateIn2   = "info depth 9 score mate 2 wdl 1000 0 0 nodes 10 pv x"
)

// testHonestScores plays against a scripted engine that sends a huge
// unproven score (with and without wdl), then a mate: the estimate stays a
// percentage ("North 99.9%") on the page, in the move list and on the
// graph; only the mate is written as a win and drawn as a ring. After a
// person's move the last score stays; after the game's end the score
// shows the result.
func testHonestScores(t *testing.T, browser context.Context, bin string) {
	cmd := scriptedCommand(t, hugeWDL, hugeNoWDL, "sleep 1500ms|"+mateIn2, mateIn2)
	srv := startServer(t, bin, "--engine", "scripted="+cmd)
	tb := newTab(t, browser, srv)
	r, _ := openGame(tb, board.NameKatro4x4, "south=human&north=scripted&depth=5&nocapturelimit=40&animate=off")
	play := func(n int) pageState { return playFirst(tb, r, n) }
	wins := regexp.MustCompile(`\bwins?\b`)
	point := func(ply int) graphPoint {
		for _, p := range eval[graphState](tb, graphJS).Points {
			if p.Ply == ply {
				return p
			}
		}
		tb.fail("no graph point for ply %d", ply)
		return graphPoint{}
	}
	for _, c := range []struct {
		ply  int
		main string
	}{{2, "North 99.9%"}, {4, "North \u224899.9%"}} {
		s := play(c.ply)
		e := eval[evalNow](tb, evalNowJS)
		if e.Main != c.main || e.Forced != "" || wins.MatchString(e.Main+e.WDL) {
			t.Errorf("ply %d, a huge unproven score: #eval-now %+v, want %q, not forced", c.ply, e, c.main)
		}
		if it := s.Plies[c.ply-1].Text; !strings.Contains(it, c.main) || wins.MatchString(it) {
			t.Errorf("ply %d: move list item %q, want %q and no win", c.ply, it, c.main)
		}
		if p := point(c.ply); p.Forced != "" || strings.Contains(p.Class, "g-forced") {
			t.Errorf("ply %d: graph point %+v drawn as proven", c.ply, p)
		}
		checkPercents(tb, eval[inView](tb, inViewJS), fmt.Sprintf("ply %d", c.ply))
	}
	// A person's move: the last score stays while the engine thinks.
	p := r.g.Position()
	tb.click(moveSelector(p.LegalMoves()[0]))
	tb.waitFor("the person's move", 20*time.Second, func(s pageState) bool { return len(s.Plies) == 5 && s.Turn == "engine" })
	if e := eval[evalNow](tb, evalNowJS); e.Main != "North \u224899.9%" {
		t.Errorf("after the person's move, while the engine thinks: #eval-now %+v, want the last score kept", e)
	}
	s := tb.waitFor("the mate", 20*time.Second, func(s pageState) bool { return settled(s) && len(s.Plies) >= 6 })
	r.follow(tb, s)
	e := eval[evalNow](tb, evalNowJS)
	if e.Main != "#-1" || e.Words != "North wins with its next move" || e.Forced != "north" {
		t.Errorf("ply 6, North's mate 2 and its move: #eval-now %+v, want #-1 (North wins with its next move), forced", e)
	}
	if p := point(6); p.Forced != "north" || !strings.Contains(p.Class, "g-forced") {
		t.Errorf("ply 6: graph point %+v, want drawn as proven", p)
	}
	tb.screenshot("proven")
	playHuman(tb, r, rand.New(rand.NewPCG(9, 0)), 1000)
	s = tb.state()
	e = eval[evalNow](tb, evalNowJS)
	want := map[string]string{"south": "South has won", "north": "North has won", "draw": "Draw"}[s.Status]
	if s.Turn != "over" || e.Main != want || e.Forced != s.Status {
		t.Errorf("the game over (%s, %v): #eval-now %+v, want %q", s.Status, s.Result, e, want)
	}
	checkPercents(tb, eval[inView](tb, inViewJS), "the end")
	tb.screenshot("over")
}

// testHoyitoMargin scripts a Hoyito III engine that sends a large
// unproven margin and then a proven one: the first is a percentage, the
// second "-8.00 seeds, proven" (North wins by 8 seeds), drawn as a ring
// at its margin.
func testHoyitoMargin(t *testing.T, browser context.Context, bin string) {
	cmd := scriptedCommand(t, "info depth 5 score cp 4000 wdl 1000 0 0 nodes 10 pv x",
		"info string proven: win by exactly 8 seeds|info depth 30 score cp 800 wdl 1000 0 0 nodes 10 pv x")
	srv := startServer(t, bin, "--engine", "scripted="+cmd)
	tb := newTab(t, browser, srv)
	r, _ := openGame(tb, board.NameHoyito3, "south=human&north=scripted&depth=5&animate=off")
	north := func() []plyItem {
		var l []plyItem
		for i, m := range r.g.Moves() {
			if r.shown[i].side(r) == board.North && m != board.Pass {
				l = append(l, tb.state().Plies[i])
			}
		}
		return l
	}
	for len(north()) < 2 && !r.g.Status().Over() {
		p := r.g.Position()
		n := r.g.Ply()
		tb.click(moveSelector(p.LegalMoves()[0]))
		s := tb.waitFor("the board after the move", 20*time.Second, func(s pageState) bool { return settled(s) && len(s.Plies) > n })
		r.follow(tb, s)
		r.check(tb, s)
		if e := eval[evalNow](tb, evalNowJS); len(north()) == 1 && e.Main != "North 99.9%" {
			t.Errorf("#eval-now %+v after the unproven 40 seeds, want North 99.9%%", e)
		}
	}
	l := north()
	const margin = "-8.00\u00a0seeds, proven"
	if len(l) < 2 || !strings.HasSuffix(l[0].Text, "-40.00\u00a0seeds") || !strings.HasSuffix(l[1].Text, margin) {
		t.Errorf("North's plies in the move list %+v, want the margin -40.00 seeds (unproven) then %q", l, margin)
	}
	if e := eval[evalNow](tb, evalNowJS); e.Main != margin || e.Words != "North wins by 8 seeds" || e.Forced != "north" {
		t.Errorf("#eval-now %+v after the proven margin, want %q (North wins by 8 seeds)", e, margin)
	}
	g := eval[graphState](tb, graphJS)
	var proven int
	for _, p := range g.Points {
		if strings.Contains(p.Class, "g-forced") {
			proven++
			if p.Margin != -8 {
				t.Errorf("proven point %+v: want at South's margin −8", p)
			}
		}
	}
	if proven == 0 {
		t.Errorf("no proven point on the graph: %+v", g.Points)
	}
	tb.screenshot("hoyito-proven")
}

// testHoyitoGraph watches a Hoyito III engine game: the graph shows South's
// expected margin in seeds, its points at many heights (not all on one
// line), each where the scale puts its margin.
func testHoyitoGraph(t *testing.T, browser context.Context, srv *guiServer) {
	tb, s := watchGame(t, browser, srv, "game=hoyito3&south=sower&north=sower&depth=4&animate=off")
	g := eval[graphState](tb, graphJS)
	if g.Kind != "margin" || len(g.Points) < 10 {
		t.Fatalf("Hoyito III graph of %d plies: kind %q, %d points; want the margin", len(s.Plies), g.Kind, len(g.Points))
	}
	heights := map[float64]bool{}
	for _, p := range g.Points {
		heights[math.Round(p.Cy)] = true
		want := g.Top + (g.Hi-p.Margin)/(g.Hi-g.Lo)*(g.Bottom-g.Top)
		if p.Margin >= g.Lo && p.Margin <= g.Hi && math.Abs(p.Cy-want) > 0.01 {
			t.Errorf("point of ply %d: margin %v at y %v, want %v (scale %v to %v)", p.Ply, p.Margin, p.Cy, want, g.Hi, g.Lo)
		}
		if p.Margin < g.Lo || p.Margin > g.Hi {
			t.Errorf("point of ply %d: margin %v off the scale %v to %v", p.Ply, p.Margin, g.Lo, g.Hi)
		}
	}
	t.Logf("Hoyito III graph: %d points at %d heights, scale %v to %v seeds", len(g.Points), len(heights), g.Lo, g.Hi)
	if len(heights) < 5 {
		t.Errorf("the Hoyito III graph's %d points take only %d heights", len(g.Points), len(heights))
	}
	if g.Hi-g.Lo > 96 || g.Hi-g.Lo < 8 {
		t.Errorf("scale %v to %v seeds: want it to fit the game within ±48", g.Lo, g.Hi)
	}
	// The scale is labelled at 0 and at round numbers between its ends,
	// not at its ends alone.
	labels := eval[[]string](tb, `[...document.querySelectorAll('#eval-graph text.g-label[text-anchor="end"]')].map((e) => e.textContent)`)
	if len(labels) < 3 || !slices.Contains(labels, "0") {
		t.Errorf("the margin scale %v to %v labelled %q; want 0 and the values between", g.Lo, g.Hi, labels)
	}
	tb.screenshot("hoyito-graph")
}
