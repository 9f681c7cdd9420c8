package gui_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// updateScreenshot makes the browser test write the README's screenshot.
var updateScreenshot = flag.Bool("update-screenshot", false, "write docs/gui.png from the browser test")

// chromium returns the browser to drive. Without one the browser tests
// are skipped on a developer's machine and fail under CI=true, where
// .ci/run installs Debian's chromium.
func chromium(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium to run the browser tests with (CI=true: .ci/run installs it with apt-get)")
	}
	t.Skip("no chromium on this machine (apt-get install chromium); the browser tests are skipped")
	return ""
}

// newBrowser starts a headless chromium for the test and returns its context.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	exe := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.WindowSize(1280, 900),
	}
	// A launch can fail for reasons of the machine, not of the page (seen
	// once in some hundreds: the browser gone before it printed its
	// address): it is tried three times, each failure logged.
	var err error
	for try := 1; try <= 3; try++ {
		actx, acancel := chromedp.NewExecAllocator(context.Background(), append(opts, chromedp.UserDataDir(t.TempDir()))...)
		ctx, cancel := chromedp.NewContext(actx)
		if err = chromedp.Do(ctx); err == nil {
			t.Cleanup(func() { cancel(); acancel() })
			return ctx
		}
		cancel()
		acancel()
		t.Logf("starting %s, try %d: %v", exe, try, err)
	}
	t.Fatalf("starting %s: %v", exe, err)
	return nil
}

// artifacts returns the directory for screenshots: $SOWER_ARTIFACTS when
// set, else a temporary directory of the test.
func artifacts(t *testing.T) string {
	if d := os.Getenv("SOWER_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// tab is one browser tab on the server.
type tab struct {
	t       *testing.T
	ctx     context.Context
	srv     *guiServer
	dir     string // artifacts
	mu      sync.Mutex
	console []string // uncaught exceptions of the page
	// downloads are the browser's download events (allowDownloads).
	downloads []string
}

// recorderJS runs in every document before the page's own scripts. It
// records every state the board shows (one snapshot per batch of DOM
// changes) and the time of every click on a hole, and defines
// __sowerState, which reads the whole contract state of the page.
const recorderJS = `(() => {
  const outside = e => !e.closest('#movelist, #analysis, #eval-graph');
  const all = sel => [...document.querySelectorAll(sel)].filter(outside);
  const one = (sel, attr) => { const l = all(sel); return l.length ? l[0].getAttribute(attr) : null; };
  const seeds = () => all('[data-hole]').map(b => b.dataset.hole + ':' + b.dataset.seeds).join(',');
  window.__sowerState = () => {
    const q = s => document.querySelector(s);
    const pass = q('#pass');
    const an = q('#analyse');
    return {
      ready: document.body ? (document.body.dataset.ready || '') : '',
      busy: document.body ? (document.body.dataset.busy || '') : '',
      fen: one('[data-fen]', 'data-fen') || '',
      fenCount: all('[data-fen]').length,
      status: one('[data-status]', 'data-status') || '',
      turn: one('[data-turn]', 'data-turn') || '',
      holes: all('[data-hole]').map(b => ({
        name: b.dataset.hole, seeds: b.dataset.seeds || '', legal: b.dataset.legal || '',
        tag: b.tagName, label: b.getAttribute('aria-label') || '', disabled: !!b.disabled })),
      passPresent: !!pass, passDisabled: pass ? !!pass.disabled : true,
      message: q('#message') ? q('#message').textContent.trim() : null,
      messageRole: q('#message') ? (q('#message').getAttribute('role') || '') : '',
      result: q('#result') ? q('#result').textContent.trim() : null,
      plies: [...document.querySelectorAll('#movelist li[data-ply]')].map(li => ({
        ply: li.dataset.ply, move: li.dataset.move || '', text: li.textContent.trim(),
        current: li.getAttribute('aria-current') === 'true' })),
      analysing: an ? (an.getAttribute('aria-pressed') || '') : null,
      lines: [...document.querySelectorAll('#analysis .pv-line')].map(l => ({
        multipv: l.dataset.multipv || '', depth: l.dataset.depth || '', score: l.dataset.score || '',
        text: l.textContent.trim() })),
      points: [...document.querySelectorAll('#eval-graph circle[data-ply]')].map(c => c.dataset.ply),
      paused: q('#pause') ? (q('#pause').getAttribute('aria-pressed') || '') : null,
      search: location.search,
      game: q('#game-select') ? q('#game-select').value : null,
      now: performance.now(),
    };
  };
  window.__sowerSnaps = [];
  window.__sowerClicks = [];
  const snap = () => {
    if (window.__sowerSnaps.length > 20000) return;
    window.__sowerSnaps.push({ t: performance.now(), fen: one('[data-fen]', 'data-fen') || '',
      seeds: seeds(), busy: document.body ? (document.body.dataset.busy || '') : '',
      turn: one('[data-turn]', 'data-turn') || '' });
  };
  new MutationObserver(snap).observe(document, { subtree: true, childList: true, attributes: true,
    attributeFilter: ['data-fen', 'data-seeds', 'data-busy', 'data-turn', 'data-status'] });
  document.addEventListener('click', e => {
    const h = e.target.closest && e.target.closest('[data-hole], #pass');
    if (h) window.__sowerClicks.push({ move: h.dataset.hole || 'pass', t: performance.now() });
  }, true);
})()`

// newTab opens a tab with the recorder installed and a 1280x900 viewport.
func newTab(t *testing.T, browser context.Context, srv *guiServer) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	tb := &tab{t: t, ctx: ctx, srv: srv, dir: artifacts(t)}
	err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument,
				page.AddScriptToEvaluateOnNewDocumentParams{Source: recorderJS})
			return err
		}))
	if err != nil {
		t.Fatalf("new tab: %v", err)
	}
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if m.IsException() {
				tb.mu.Lock()
				tb.console = append(tb.console, m.String())
				tb.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		tb.mu.Lock()
		defer tb.mu.Unlock()
		for _, m := range tb.console {
			t.Errorf("uncaught exception in the page: %s", m)
		}
	})
	return tb
}

// do runs browser actions with a time limit.
func (tb *tab) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		tb.fail("%s: %v", what, err)
	}
}

// eval evaluates JavaScript in the page and decodes its value.
func eval[T any](tb *tab, js string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		tb.fail("evaluating %.60q: %v", js, err)
	}
	return v
}

// fail saves a screenshot and stops the test.
func (tb *tab) fail(format string, args ...any) {
	tb.t.Helper()
	tb.screenshot("failure")
	tb.t.Fatalf(format, args...)
}

// screenshot saves the viewport as <test>-<name>.png in the artifacts
// directory and returns the PNG.
func (tb *tab) screenshot(name string) []byte {
	tb.t.Helper()
	return tb.capture(name, chromedp.CaptureScreenshot())
}

// pageScreenshot saves the whole page, as screenshot does the viewport.
func (tb *tab) pageScreenshot(name string) []byte {
	tb.t.Helper()
	return tb.capture(name, chromedp.FullScreenshot(100))
}

func (tb *tab) capture(name string, shot chromedp.Action[[]byte]) []byte {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, shot)
	if err != nil {
		tb.t.Logf("screenshot %s: %v", name, err)
		return nil
	}
	base := strings.NewReplacer("/", "-", " ", "_").Replace(tb.t.Name()) + "-" + name + ".png"
	f := filepath.Join(tb.dir, base)
	if err := os.WriteFile(f, png, 0o644); err != nil {
		tb.t.Errorf("saving screenshot: %v", err)
	} else {
		tb.t.Logf("screenshot: %s", f)
	}
	return png
}

// open loads the page with the query (without "?") and waits until it is
// ready. It returns the time from the navigation to body[data-ready=true].
func (tb *tab) open(query string) time.Duration {
	tb.t.Helper()
	u := tb.srv.url
	if query != "" {
		u += "?" + query
	}
	start := time.Now()
	tb.do("navigate to "+u, chromedp.Navigate(u))
	tb.waitFor("the page to be ready", 20*time.Second, func(s pageState) bool { return s.Ready == "true" })
	return time.Since(start)
}

// pageState is what __sowerState reads: the page's state in the terms of
// the contract.
type pageState struct {
	Ready, Busy  string
	Fen          string
	FenCount     int
	Status, Turn string
	Holes        []holeState
	PassPresent  bool
	PassDisabled bool
	Message      *string
	MessageRole  string
	Result       *string
	Plies        []plyItem
	Analysing    *string
	Lines        []pvLine
	Points       []string
	Paused       *string
	Search       string
	Game         *string
	Now          float64
}

type holeState struct {
	Name, Seeds, Legal, Tag, Label string
	Disabled                       bool
}

type plyItem struct {
	Ply, Move, Text string
	Current         bool
}

type pvLine struct {
	MultiPV, Depth, Score, Text string
}

// summary is a short account of the state for failure messages.
func (s pageState) summary() string {
	str := func(p *string) string {
		if p == nil {
			return "(absent)"
		}
		return fmt.Sprintf("%q", *p)
	}
	return fmt.Sprintf("ready=%q busy=%q fen=%q status=%q turn=%q plies=%d message=%s result=%s",
		s.Ready, s.Busy, s.Fen, s.Status, s.Turn, len(s.Plies), str(s.Message), str(s.Result))
}

func (tb *tab) state() pageState {
	tb.t.Helper()
	return eval[pageState](tb, `window.__sowerState ? window.__sowerState() : {}`)
}

// waitFor polls the page until cond holds, or fails after timeout.
func (tb *tab) waitFor(what string, timeout time.Duration, cond func(pageState) bool) pageState {
	tb.t.Helper()
	return waitUntil(tb, what, timeout, tb.state, cond)
}

// String is the state's summary.
func (s pageState) String() string { return s.summary() }

// waitUntil polls read until cond holds, or fails after timeout.
func waitUntil[T any](tb *tab, what string, timeout time.Duration, read func() T, cond func(T) bool) T {
	tb.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		v := read()
		if cond(v) {
			return v
		}
		if time.Now().After(deadline) {
			tb.fail("waited %v for %s; page: %+v", timeout, what, v)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// snapshot is one state the board showed, as the recorder saw it.
type snapshot struct {
	T     float64
	Fen   string
	Seeds string
	Busy  string
	Turn  string
}

// click records a click on a hole or the pass button.
type click struct {
	Move string
	T    float64
}

// takeSnapshots returns the snapshots and clicks since the last call.
func (tb *tab) takeSnapshots() ([]snapshot, []click) {
	tb.t.Helper()
	type log struct {
		Snaps  []snapshot
		Clicks []click
	}
	l := eval[log](tb, `(() => { const l = {snaps: window.__sowerSnaps || [], clicks: window.__sowerClicks || []};
		window.__sowerSnaps = []; window.__sowerClicks = []; return l; })()`)
	return l.Snaps, l.Clicks
}

// click clicks an element with the mouse, at its centre, once it is
// there, visible and on top there.
func (tb *tab) click(sel string) {
	tb.t.Helper()
	type target struct {
		X, Y float64
		Why  string
	}
	js := `((sel) => {
		const e = document.querySelector(sel);
		if (!e) return {why: 'no element'};
		e.scrollIntoView({block: 'nearest', inline: 'nearest'});
		const r = e.getBoundingClientRect();
		if (r.width === 0 || r.height === 0) return {why: 'not visible'};
		const x = r.left + r.width / 2, y = r.top + r.height / 2;
		const top = document.elementFromPoint(x, y);
		if (!top || !(e === top || e.contains(top))) return {why: 'covered by ' + (top ? top.outerHTML.slice(0, 80) : 'nothing')};
		return {x, y, why: ''};
	})(` + strconv.Quote(sel) + `)`
	deadline := time.Now().Add(10 * time.Second)
	for {
		p := eval[target](tb, js)
		if p.Why == "" {
			tb.do("click "+sel, chromedp.MouseClickXY(p.X, p.Y))
			return
		}
		if time.Now().After(deadline) {
			tb.fail("cannot click %s: %s", sel, p.Why)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
