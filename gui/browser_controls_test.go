package gui_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
)

// testRecords saves a game as JSONL and as PGN-like text, reads both back
// with the match package's reader, and opens the JSONL file in a fresh
// page.
func testRecords(t *testing.T, browserCtx context.Context, srv *guiServer) {
	tb := newTab(t, browserCtx, srv)
	dir := allowDownloads(tb)
	moves := "a1 a4 b1 b4 c1"
	r, s := openGame(tb, board.NameKatro4x4, "south=human&north=human&animate=off&moves="+url.QueryEscape(moves))
	var files []string
	for _, c := range []struct{ button, ext string }{{"#export-jsonl", ".jsonl"}, {"#export-pgn", ".pgn"}} {
		f := saveRecord(tb, dir, c.button, c.ext)
		files = append(files, f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := record.ReadRecords(data)
		if err != nil || len(recs) != 1 {
			t.Fatalf("%s: %d records, %v:\n%s", c.button, len(recs), err, data)
		}
		rec := recs[0]
		g, err := rec.Replay()
		if err != nil {
			t.Fatalf("%s: %v", c.button, err)
		}
		if rec.Variant != board.NameKatro4x4 || board.FormatMoves(g.Moves()) != moves {
			t.Errorf("%s: %s game with moves %q, want katro-4x4 with %q", c.button, rec.Variant, board.FormatMoves(g.Moves()), moves)
		}
		p := g.Position()
		if p.String() != s.Fen {
			t.Errorf("%s: the record ends in %s, the page shows %s", c.button, p.String(), s.Fen)
		}
	}

	fresh := newTab(t, browserCtx, srv)
	fresh.open("game=katro&south=human&north=human&animate=off")
	fresh.do("open the record", chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{files[0]}))
	s = fresh.waitFor("the game from the record", 10*time.Second, func(s pageState) bool {
		return settled(s) && len(s.Plies) == r.g.Ply()
	})
	r2 := refereeFor(t, board.NameKatro4x4, "", true, true)
	r2.follow(fresh, s)
	r2.check(fresh, s)
}

// allowDownloads lets the tab save files, into a directory it returns.
// The browser's download events are kept in the tab, for a failure to
// tell a download that never began from one that failed.
func allowDownloads(tb *tab) string {
	dir := tb.t.TempDir()
	chromedp.ListenBrowser(tb.ctx, func(ev any) {
		var line string
		switch ev := ev.(type) {
		case *browser.EventDownloadWillBegin:
			line = "begin " + ev.SuggestedFilename
		case *browser.EventDownloadProgress:
			if ev.State == browser.DownloadProgressStateInProgress {
				return
			}
			line = fmt.Sprintf("%s after %.0f bytes", ev.State, ev.ReceivedBytes)
		default:
			return
		}
		tb.mu.Lock()
		tb.downloads = append(tb.downloads, line)
		tb.mu.Unlock()
	})
	events := true
	tb.do("allow downloads", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := cdp.Call(ctx, chromedp.FromContext(ctx).Browser, browser.SetDownloadBehavior,
			browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir, EventsEnabled: &events})
		return err
	}))
	return dir
}

// downloadWait bounds the wait for a download: generous, since a loaded
// machine once took more than 10 s to write a match's record.
const downloadWait = 60 * time.Second

// saveRecord clicks button (a Save button of the page) once it stays
// where it is, and returns the file it downloads, ending in ext, in dir
// (allowDownloads). A click made while the board refits after a change
// below it (the end card appearing, say) lands where the button was, not
// on it.
func saveRecord(tb *tab, dir, button, ext string) string {
	tb.t.Helper()
	tb.clickSteady(button)
	deadline := time.Now().Add(downloadWait)
	for time.Now().Before(deadline) {
		fs, _ := filepath.Glob(filepath.Join(dir, "*"+ext))
		if len(fs) == 1 {
			if b, err := os.ReadFile(fs[0]); err == nil && len(b) > 0 {
				return fs[0]
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	all, _ := filepath.Glob(filepath.Join(dir, "*"))
	tb.mu.Lock()
	events := slices.Clone(tb.downloads)
	tb.mu.Unlock()
	message := ""
	if m := tb.state().Message; m != nil {
		message = *m
	}
	tb.fail("no %s download in %v after %s: the directory has %v; the browser's download events %q; the page says %q", ext, downloadWait, button, all, events, message)
	return ""
}

// testAnimation plays against the engine with the sowing animated (the
// default): the page is busy while it sows and ends on the right board.
func testAnimation(t *testing.T, browserCtx context.Context, srv *guiServer) {
	tb := newTab(t, browserCtx, srv)
	r, _ := openGame(tb, board.NameKatro4x4, "south=human&north=sower&movetime=50&animate=fast")
	lat := playHuman(tb, r, rand.New(rand.NewPCG(9, 0)), 2)
	busy, between := 0, 0
	for _, sn := range lat.snaps {
		if sn.Busy == "true" {
			busy++
		}
		known := false
		for _, p := range r.shown {
			if mapsEqual(seedsOf(sn.Seeds), p.holes) {
				known = true
			}
		}
		if !known {
			between++
		}
	}
	t.Logf("%d plies animated: %d states shown while busy, %d of them between two plies' positions", r.g.Ply(), busy, between)
	logLatency(t, lat)
	if busy == 0 {
		t.Errorf("the page was never busy while it animated %d plies", r.g.Ply())
	}
}

// testNewGame starts games from the form: the game, the players and the
// limit the form holds, and the address bar follows.
func testNewGame(t *testing.T, browserCtx context.Context, srv *guiServer) {
	tb := newTab(t, browserCtx, srv)
	tb.open("game=katro&south=human&north=sower&animate=off")
	set := func(id, value string) {
		eval[bool](tb, fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.value = %q;
			e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true})); return e.value === %q; })()`, id, value, value))
	}
	set("#game-select", board.NameHoyito3)
	set("#south-select", "sower")
	set("#north-select", "human")
	set("#limit-kind", "depth")
	set("#limit-value", "2")
	tb.click("#new-game")
	s := tb.waitFor("the new Hoyito III game", 20*time.Second, func(s pageState) bool {
		return settled(s) && len(s.Plies) > 0 && s.Game != nil && *s.Game == board.NameHoyito3
	})
	r := refereeFor(t, board.NameHoyito3, "", false, true)
	r.follow(tb, s)
	r.check(tb, s)
	for _, want := range []string{"game=hoyito3", "south=sower", "north=human", "depth=2"} {
		if !strings.Contains(s.Search, want) {
			t.Errorf("the address bar has %q, want %s in it", s.Search, want)
		}
	}
	// A clock: both clocks shown, and the engine's runs down.
	r, _ = openGame(tb, board.NameKatro4x4, "south=human&north=sower&tc=10%2B0.1&animate=off")
	clocks := func() [2]string {
		return eval[[2]string](tb, `['#clock-south', '#clock-north'].map(id => { const e = document.querySelector(id); return e ? e.textContent.trim() : ''; })`)
	}
	before := clocks()
	if before[0] == "" || before[1] == "" {
		t.Fatalf("clocks %q with tc=10+0.1", before)
	}
	playHuman(tb, r, rand.New(rand.NewPCG(4, 0)), 2)
	after := clocks()
	t.Logf("clocks %q, after two moves each %q", before, after)
	if after[1] == before[1] {
		t.Errorf("the engine's clock shows %q after its moves, as before", after[1])
	}
}

// testFlip flips the board: South's first row goes from the bottom to the
// top.
func testFlip(t *testing.T, browserCtx context.Context, srv *guiServer) {
	tb := newTab(t, browserCtx, srv)
	openGame(tb, board.NameKatro4x4, "south=human&north=human&animate=off")
	rows := func() (float64, float64) {
		y := eval[[2]float64](tb, `['a1', 'a4'].map(h => document.querySelector('[data-hole="' + h + '"]').getBoundingClientRect().top)`)
		return y[0], y[1]
	}
	a1, a4 := rows()
	if a1 <= a4 {
		t.Fatalf("before flipping, a1 at y=%v is not below a4 at y=%v", a1, a4)
	}
	tb.click("#flip")
	deadline := time.Now().Add(5 * time.Second)
	for a1, a4 = rows(); a1 >= a4 && time.Now().Before(deadline); a1, a4 = rows() {
		time.Sleep(20 * time.Millisecond)
	}
	if a1 >= a4 {
		t.Errorf("after flipping, a1 at y=%v is not above a4 at y=%v", a1, a4)
	}
	// The pointer is still on Flip, now pressed.
	checkPressedHover(tb, "#flip")
}

// checkPressedHover checks that the button sel, pressed and under the
// pointer, keeps its text readable: a contrast ratio of at least 4.5
// (WCAG AA) between its text and its background, once any transition
// has ended.
func checkPressedHover(tb *tab, sel string) {
	tb.t.Helper()
	type look struct {
		Pressed           string
		Hover             bool
		Color, Background string
		Ratio             float64
	}
	js := `((sel) => {
		const e = document.querySelector(sel);
		const cs = getComputedStyle(e);
		const rgb = (c) => (c.match(/[\d.]+/g) || []).slice(0, 3).map(Number);
		const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
		const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
		const a = lum(rgb(cs.color)), b = lum(rgb(cs.backgroundColor));
		return {pressed: e.getAttribute('aria-pressed') || '', hover: e.matches(':hover'),
			color: cs.color, background: cs.backgroundColor,
			ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)};
	})(` + strconv.Quote(sel) + `)`
	deadline := time.Now().Add(3 * time.Second)
	for {
		l := eval[look](tb, js)
		if l.Pressed != "true" || !l.Hover {
			tb.fail("%s: aria-pressed=%q, under the pointer %v; want a pressed button under the pointer", sel, l.Pressed, l.Hover)
		}
		if l.Ratio >= 4.5 {
			return
		}
		if time.Now().After(deadline) {
			tb.t.Errorf("%s pressed and under the pointer: text %s on %s, contrast %.2f, want at least 4.5", sel, l.Color, l.Background, l.Ratio)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// testFormLayout checks that every menu of the new-game form is as wide
// as its longest choice, so that no choice is cut ("depth (p"), and that
// the form fits in the window, at the screenshot's width and at a
// phone's.
func testFormLayout(t *testing.T, browserCtx context.Context, srv *guiServer) {
	tb := newTab(t, browserCtx, srv)
	openGame(tb, board.NameHoyito3, "south=human&north=human&animate=off")
	type cut struct {
		ID          string
		Width, Need float64
	}
	// need is the width a menu takes when nothing constrains it.
	js := `(() => {
		const out = [];
		const form = document.querySelector('#new-form');
		for (const sel of form.querySelectorAll('select')) {
			if (!sel.offsetParent) continue;
			const c = sel.cloneNode(true);
			c.removeAttribute('id');
			c.style.cssText = 'position: absolute; visibility: hidden; width: auto; min-width: 0; max-width: none; flex: none;';
			sel.parentElement.append(c);
			const need = c.getBoundingClientRect().width;
			c.remove();
			out.push({id: sel.id, width: sel.getBoundingClientRect().width, need});
		}
		if (form.scrollWidth > form.clientWidth) out.push({id: 'new-form (overflows)', width: form.clientWidth, need: form.scrollWidth});
		const right = form.getBoundingClientRect().right;
		if (right > innerWidth) out.push({id: 'new-form (past the window)', width: innerWidth, need: right});
		return out;
	})()`
	for _, w := range []int64{1280, 360} {
		tb.do(fmt.Sprintf("a %d px wide window", w), chromedp.EmulateViewport(w, 900))
		time.Sleep(100 * time.Millisecond)
		got := eval[[]cut](tb, js)
		if len(got) < 7 {
			t.Errorf("%d px: measured %d menus of the new-game form, want its 7", w, len(got))
		}
		for _, c := range got {
			if c.Width+0.5 < c.Need {
				t.Errorf("%d px: #%s is %.1f px wide, its longest choice needs %.1f", w, c.ID, c.Width, c.Need)
			}
		}
		tb.do("show the form", chromedp.ScrollIntoView(chromedp.CSS("#new-form")))
		tb.screenshot(fmt.Sprintf("form-%d", w))
	}
}
