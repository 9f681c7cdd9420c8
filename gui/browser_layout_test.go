package gui_test

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sower-engine/sower/board"
)

// viewports are the screens the layout is checked on: two desktops of
// little height, a phone held sideways and upright, and the narrowest
// screen the page is made for.
var viewports = []struct {
	name string
	w, h int64
}{
	{"desktop", 1366, 650},
	{"desktop-1280", 1280, 800},
	{"phone-sideways", 844, 390},
	{"phone", 390, 844},
	{"small-phone", 360, 740},
}

// touchScreen says whether a viewport is a phone's, where every target
// is at least 44 px: narrow (upright) or short (sideways).
func touchScreen(w, h int64) bool { return w <= 700 || h <= 500 }

// allGames are the five games the page plays.
var allGames = []string{board.NameKatro, board.NameKatro6x3, board.NameKatro4x6, board.NameKatro4x4, board.NameHoyito3}

// heapFen is a position of game with 30 seeds in its first hole and, in
// Hoyito III, the given seeds in the stores; the rest of the game's seeds
// one to a hole.
func heapFen(t *testing.T, game string, captured [2]int) string {
	t.Helper()
	v, err := board.New(game)
	if err != nil {
		t.Fatal(err)
	}
	p := v.Start()
	total := 0
	for _, h := range v.Holes() {
		total += p.Count(h)
	}
	n := v.Rows() * v.Cols()
	counts := make([]int, n)
	counts[0] = 30
	left := total - 30 - captured[0] - captured[1]
	for i := 1; left > 0; i = i%(n-1) + 1 {
		counts[i]++
		left--
	}
	var rows []string
	for r := 0; r < v.Rows(); r++ {
		var row []string
		for c := 0; c < v.Cols(); c++ {
			row = append(row, fmt.Sprint(counts[r*v.Cols()+c]))
		}
		rows = append(rows, strings.Join(row, ","))
	}
	fen := strings.Join(rows, "/") + " S"
	if v.Family() == board.Hoyito {
		fen += fmt.Sprintf(" %d %d 0", captured[0], captured[1])
	} else {
		fen += " 0"
	}
	if _, err := v.ParsePosition(fen); err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return fen
}

// layout is what layoutJS measures.
type layout struct {
	ScrollWidth, InnerWidth, InnerHeight float64
	ScrollY                              float64
	Holes                                int
	Outside                              []string // boxes not inside the viewport: holes, stores, the score, Take back
	Small                                []string // touch targets under 44 px
	SeedsOut                             []string // seeds drawn outside their hole
	Heap                                 int      // seeds drawn in the hole of 30
	Stores                               [][4]float64
	NameSize                             float64
	NameOpacity                          float64
	StoreLabels                          []string
}

// layoutJS measures the page: overflow, the boxes of holes and stores,
// the touch targets, the seeds of the hole holding 30.
const layoutJS = `(() => {
  const out = { scrollWidth: document.documentElement.scrollWidth, innerWidth, innerHeight, scrollY, outside: [], small: [], seedsOut: [], heap: 0, stores: [], storeLabels: [] };
  const shown = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
  const holes = [...document.querySelectorAll('[data-hole]')];
  out.holes = holes.length;
  const boxes = [...holes, ...[...document.querySelectorAll('.store')].filter(shown), document.querySelector('#eval-now'), document.querySelector('#takeback')];
  for (const e of boxes) {
    const r = e.getBoundingClientRect();
    if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) {
      out.outside.push((e.dataset.hole || e.id) + ' ' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(','));
    }
    if (e.classList.contains('store')) {
      out.stores.push([r.left, r.top, r.width, r.height]);
      out.storeLabels.push(e.querySelector('.store-label').textContent.trim());
    }
  }
  const targets = document.querySelectorAll('button, select, input:not([type=file]), .file, summary, #movelist li, [data-hole]');
  for (const e of targets) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width < 44 - 0.5 || r.height < 44 - 0.5) out.small.push((e.id || e.dataset.hole || e.className || e.tagName) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  }
  const big = holes.find(h => h.dataset.seeds === '30');
  if (big) {
    const hr = big.getBoundingClientRect();
    const cx = hr.left + hr.width / 2, cy = hr.top + hr.height / 2, R = hr.width / 2;
    const seeds = [...big.querySelectorAll('.seeds i')];
    out.heap = seeds.length;
    seeds.forEach((s, i) => {
      const r = s.getBoundingClientRect();
      const d = Math.hypot(r.left + r.width / 2 - cx, r.top + r.height / 2 - cy) + r.width / 2;
      if (d > R + 0.5) out.seedsOut.push(i + ': ' + d.toFixed(1) + ' > ' + R.toFixed(1));
    });
  }
  const name = document.querySelector('[data-hole] .name');
  out.nameSize = parseFloat(getComputedStyle(name).fontSize);
  out.nameOpacity = parseFloat(getComputedStyle(name).opacity);
  return out;
})()`

// setViewport makes the tab's viewport w×h.
func (tb *tab) setViewport(w, h int64) {
	tb.t.Helper()
	tb.do(fmt.Sprintf("viewport %dx%d", w, h), chromedp.EmulateViewport(w, h))
}

// measure waits for the board to be fitted to the viewport and measures
// the page.
func (tb *tab) measure() layout {
	tb.t.Helper()
	var l layout
	for deadline := time.Now().Add(5 * time.Second); ; {
		// Two frames: the refit after a resize runs in the next one.
		ctx, cancel := context.WithTimeout(tb.ctx, 20*time.Second)
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise))
		cancel()
		if err != nil {
			tb.fail("waiting for two frames: %v", err)
		}
		l2 := eval[layout](tb, layoutJS)
		if fmt.Sprint(l2) == fmt.Sprint(l) || time.Now().After(deadline) {
			return l2
		}
		l = l2
	}
}

// testLayout opens every game on desktop and phone screens with a heap of
// 30 seeds: nothing scrolls sideways, every hole and store, the score and
// Take back are on screen without scrolling, the heap is drawn inside its
// hole, and on a phone (upright or sideways) every touch target is at
// least 44 px. The stores keep their size whatever they hold, and are
// labelled.
func testLayout(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	for _, vp := range viewports {
		tb.setViewport(vp.w, vp.h)
		for _, game := range allGames {
			fen := heapFen(t, game, [2]int{0, 0})
			tb.open("game=" + game + "&south=human&north=human&animate=off&fen=" + url.QueryEscape(fen))
			tb.waitFor("the position", 20*time.Second, func(s pageState) bool { return settled(s) && s.Fen == fen })
			l := tb.measure()
			what := vp.name + " " + game
			v, _ := board.New(game)
			if l.Holes != v.Rows()*v.Cols() {
				t.Errorf("%s: %d holes, want %d", what, l.Holes, v.Rows()*v.Cols())
			}
			if l.ScrollWidth > l.InnerWidth {
				t.Errorf("%s: the page is %v px wide in a %v px window", what, l.ScrollWidth, l.InnerWidth)
			}
			if len(l.Outside) > 0 || l.ScrollY != 0 {
				t.Errorf("%s: boxes outside the %vx%v viewport: %v (scrolled by %v)", what, l.InnerWidth, l.InnerHeight, l.Outside, l.ScrollY)
			}
			if l.Heap < 30 || len(l.SeedsOut) > 0 {
				t.Errorf("%s: the hole of 30 draws %d seeds, of which outside it: %v", what, l.Heap, l.SeedsOut)
			}
			if touchScreen(vp.w, vp.h) && len(l.Small) > 0 {
				t.Errorf("%s: touch targets under 44 px: %v", what, l.Small)
			}
			if l.NameSize < 12 || l.NameOpacity < 1 {
				t.Errorf("%s: hole names %v px at opacity %v, want 12 px or more, opaque", what, l.NameSize, l.NameOpacity)
			}
			tb.screenshot(vp.name + "-" + game)
			if game != board.NameHoyito3 {
				continue
			}
			if len(l.Stores) != 2 || l.StoreLabels[0] != "North's store" || l.StoreLabels[1] != "South's store" {
				t.Errorf("%s: stores %v labelled %q", what, l.Stores, l.StoreLabels)
			}
			// Big captures: the stores keep their boxes.
			full := heapFen(t, game, [2]int{8, 8})
			tb.open("game=" + game + "&south=human&north=human&animate=off&fen=" + url.QueryEscape(full))
			tb.waitFor("the position with captures", 20*time.Second, func(s pageState) bool { return settled(s) && s.Fen == full })
			l2 := tb.measure()
			if fmt.Sprint(l2.Stores) != fmt.Sprint(l.Stores) {
				t.Errorf("%s: stores at 0 captured %v, at 8 and 8 %v: want the same boxes", what, l.Stores, l2.Stores)
			}
			tb.screenshot(vp.name + "-" + game + "-captures")
		}
	}
}

// graphPoint is a point of the eval graph.
type graphPoint struct {
	Ply               int
	Share, Margin, Cy float64
	Forced, Class     string
}

// graphJS reads the graph's points and the y of its 0 % and 100 %.
const graphJS = `(() => ({
  points: [...document.querySelectorAll('#eval-graph circle[data-ply]')].map(c => ({
    ply: +c.dataset.ply, share: +c.dataset.share, margin: +c.dataset.margin, cy: +c.getAttribute('cy'), forced: c.dataset.forced, class: c.getAttribute('class') })),
  top: +document.querySelector('#eval-graph').dataset.top, bottom: +document.querySelector('#eval-graph').dataset.bottom,
  hi: +document.querySelector('#eval-graph').dataset.hi, lo: +document.querySelector('#eval-graph').dataset.lo,
  kind: document.querySelector('#eval-graph').dataset.kind,
}))()`

// graphState is the graph: its points, the y where the scale's top (hi)
// and bottom (lo) values are drawn, and what it shows (kind: share or
// margin).
type graphState struct {
	Points              []graphPoint
	Top, Bottom, Hi, Lo float64
	Kind                string
}

// checkGraphSpread checks the graph of a real game: its points are not
// all on one edge and proven results are at the ends of the scale.
func checkGraphSpread(tb *tab, plies int) graphState {
	tb.t.Helper()
	g := eval[graphState](tb, graphJS)
	if len(g.Points) == 0 {
		tb.fail("#eval-graph has no points after %d plies", plies)
	}
	lo, hi, inside := math.Inf(1), math.Inf(-1), 0
	for _, p := range g.Points {
		lo, hi = min(lo, p.Share), max(hi, p.Share)
		if p.Share > 0.02 && p.Share < 0.98 {
			inside++
		}
		want := g.Top + (1-p.Share)*(g.Bottom-g.Top)
		if math.Abs(p.Cy-want) > 0.01 || p.Cy < g.Top-0.01 || p.Cy > g.Bottom+0.01 {
			tb.t.Errorf("point of ply %d: share %v at y %v, want %v within [%v, %v]", p.Ply, p.Share, p.Cy, want, g.Top, g.Bottom)
		}
		switch p.Forced {
		case "south", "north":
			end := map[string]float64{"south": g.Top, "north": g.Bottom}[p.Forced]
			if p.Cy != end {
				tb.t.Errorf("%s's proven win at ply %d drawn at y %v, want the end of the scale %v", p.Forced, p.Ply, p.Cy, end)
			}
		}
	}
	tb.t.Logf("graph: %d points, shares %.3f to %.3f, %d off the edges", len(g.Points), lo, hi, inside)
	if inside == 0 || hi-lo < 0.1 {
		tb.t.Errorf("graph points %v: all on an edge or flat (shares %.3f to %.3f)", g.Points, lo, hi)
	}
	return g
}
