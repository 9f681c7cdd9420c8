package gui_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/sower-engine/sower/board"
)

// testAnalysis turns analysis on and watches info lines arrive with
// growing depth, legal principal variations and well-formed scores.
func testAnalysis(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	r, _ := openGame(tb, board.NameKatro, "south=human&north=human&animate=off&moves="+url.QueryEscape("a1 f6 b1 e6"))
	tb.click("#analyse")
	watchAnalysis(tb, r.g.Position())
	// The main line's first move is an arrow on the board.
	var best string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		a := eval[[2]string](tb, `[(document.querySelector('#analysis .pv-line[data-multipv="1"] .pv-move') || {}).textContent || '',
			(document.querySelector('#arrows g.arrow[data-kind="engine"]') || { dataset: {} }).dataset.move || '']`)
		if best = a[0]; a[0] != "" && a[0] == a[1] {
			break
		}
	}
	checkArrows(tb, r.g.Position(), map[string]string{"engine": best})
	tb.screenshot("analysis")
	// A click on the second move of the main line shows the position
	// after its first two moves, with no legal hole, until Escape.
	var pv []string
	for deadline := time.Now().Add(10 * time.Second); len(pv) < 2 && time.Now().Before(deadline); {
		pv = eval[[]string](tb, `(() => {
			const ms = [...document.querySelectorAll('#analysis .pv-line[data-multipv="1"] .pv-move')];
			if (ms.length < 2) return [];
			ms[1].click();
			return ms.map(m => m.textContent.trim());
		})()`)
		time.Sleep(20 * time.Millisecond)
	}
	if len(pv) < 2 {
		t.Fatalf("main line with %d clickable moves for 10 s, want 2 or more", len(pv))
	}
	g := board.NewGame(r.g.Position())
	for _, name := range pv[:2] {
		m, err := r.v.ParseMove(name)
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			t.Fatalf("main line %v: %v", pv, err)
		}
	}
	preview := g.Position()
	s := tb.waitFor("the line's position", 10*time.Second, func(s pageState) bool { return s.Fen == preview.String() })
	// The preview is marked on the board and in the status line.
	marks := eval[[]string](tb, `[document.querySelector('#status-text').textContent,
		String(!document.querySelector('#preview-badge').hidden),
		String(document.querySelector('.board-wrap').classList.contains('previewing'))]`)
	if !strings.Contains(marks[0], "Preview of the line "+strings.Join(pv[:2], " ")) || marks[1] != "true" || marks[2] != "true" {
		t.Errorf("previewing %v: status %q, badge shown %s, board marked %s", pv[:2], marks[0], marks[1], marks[2])
	}
	tb.screenshot("preview")
	for _, h := range s.Holes {
		if h.Legal != "false" {
			t.Errorf("previewing a line: %s has data-legal=%q", h.Name, h.Legal)
		}
	}
	tb.do("press Escape", chromedp.KeyEvent(kb.Escape))
	s = tb.waitFor("the game again", 10*time.Second, func(s pageState) bool { return s.Fen == r.g.Position().String() })
	r.check(tb, s)
	tb.click("#analyse")
	tb.waitFor("analysis off", 10*time.Second, func(s pageState) bool {
		return s.Analysing != nil && *s.Analysing == "false"
	})

	// mode=analysis in the address bar starts it.
	tb.open("game=katro-4x4&mode=analysis&engine=sower&animate=off")
	v, _ := board.New(board.NameKatro4x4)
	watchAnalysis(tb, v.Start())
}

// scoreAttr is a Katro score: centi-seeds or a mate distance.
var scoreAttr = regexp.MustCompile(`^(cp|mate) -?\d+$`)

// moveToken finds the moves in a line's text.
var moveToken = regexp.MustCompile(`(?i)\b([a-f][1-6]|pass)\b`)

// watchAnalysis waits for analysis lines of at least two depths, the later
// deeper, and checks each line.
func watchAnalysis(tb *tab, p board.Position) {
	tb.t.Helper()
	var depths []int
	start := time.Now()
	for {
		s := tb.state()
		if s.Analysing == nil || *s.Analysing != "true" {
			if time.Since(start) > 10*time.Second {
				tb.fail("#analyse aria-pressed=%v after 10 s", s.Analysing)
			}
		}
		for _, l := range s.Lines {
			d, err := strconv.Atoi(l.Depth)
			if err != nil || d < 1 {
				tb.fail("pv-line with data-depth %q", l.Depth)
			}
			if !scoreAttr.MatchString(l.Score) {
				tb.fail("pv-line with data-score %q", l.Score)
			}
			if l.MultiPV != "1" {
				continue
			}
			if len(depths) == 0 || depths[len(depths)-1] != d {
				checkPV(tb, p, l.Text)
				depths = append(depths, d)
			}
		}
		if len(depths) >= 2 && depths[len(depths)-1] > depths[0] {
			tb.t.Logf("analysis depths seen in %v: %v", time.Since(start).Round(time.Millisecond), depths)
			return
		}
		if time.Since(start) > 30*time.Second {
			tb.fail("analysis depths after 30 s: %v; want two, growing", depths)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// checkPV checks that the moves in a pv-line are a legal line from p.
func checkPV(tb *tab, p board.Position, text string) {
	tb.t.Helper()
	ms := moveToken.FindAllString(text, -1)
	if len(ms) == 0 {
		tb.fail("pv-line %q has no moves", text)
	}
	g := board.NewGame(p)
	for i, s := range ms {
		m, err := p.Variant().ParseMove(s)
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			tb.fail("pv-line %q: move %d: %v", text, i+1, err)
		}
		if g.Status().Over() {
			break
		}
	}
}

// testEngineGame watches two engines play a game to its end, then checks
// the whole game and the eval graph.
func testEngineGame(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	start := time.Now()
	tb.open("game=katro-4x4&south=sower&north=sower&depth=3&animate=off")
	s := tb.waitFor("the end of the engines' game", 90*time.Second, func(s pageState) bool {
		return s.Busy == "false" && s.Turn == "over"
	})
	r := refereeFor(t, board.NameKatro4x4, "", false, false)
	r.follow(tb, s)
	r.check(tb, s)
	st := r.g.Status()
	if s.Status == "ongoing" {
		t.Errorf("data-status ongoing at the end")
	}
	t.Logf("engines' game: %d plies in %v: %s (%s); #result %q", r.g.Ply(), time.Since(start).Round(time.Millisecond), st.Result, st.Reason, *s.Result)
	tb.screenshot("end")
	// The status dot and the result are coloured by the winner.
	marks := eval[[]string](tb, `[document.querySelector('#status').className, document.querySelector('#result').dataset.winner]`)
	if !strings.Contains(" "+marks[0]+" ", " "+s.Status+" ") || marks[1] != s.Status {
		t.Errorf("game won by %s: #status class %q, #result data-winner %q", s.Status, marks[0], marks[1])
	}
	checkGraphSpread(tb, r.g.Ply())
	k, _ := strconv.Atoi(s.Points[len(s.Points)/2])
	if k < 1 || k > r.g.Ply() {
		t.Fatalf("#eval-graph point for ply %d of %d", k, r.g.Ply())
	}
	tb.click(fmt.Sprintf(`#eval-graph circle[data-ply="%d"]`, k))
	tb.waitFor(fmt.Sprintf("ply %d from the eval graph", k), 10*time.Second, func(s pageState) bool {
		return s.Fen == r.shown[k].fen
	})
}

// testOrigin sends requests as another site's page and with a rebinding
// host name: the server refuses them, and serves its own origin.
func testOrigin(t *testing.T, srv *guiServer) {
	u, _ := url.Parse(srv.url)
	get := func(origin, host string) int {
		req, _ := http.NewRequest("GET", srv.url, nil)
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if c := get("http://"+u.Host, ""); c != http.StatusOK {
		t.Errorf("GET / from its own origin: %d", c)
	}
	if c := get("http://evil.example", ""); c != http.StatusForbidden {
		t.Errorf("GET / with Origin http://evil.example: %d, want 403", c)
	}
	if c := get("", "evil.example:"+u.Port()); c != http.StatusForbidden {
		t.Errorf("GET / with Host evil.example: %d, want 403", c)
	}
}

// testScreenshot takes the README's screenshot: a Katro game in the middle,
// analysis on. With -update-screenshot it writes docs/gui.png.
func testScreenshot(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	// South plays a line Sower plays against itself at depth 7 (an even
	// game) against Sower at depth 7, so that the graph has its scores.
	r, _ := openGame(tb, board.NameKatro, "south=human&north=sower&depth=7&animate=off")
	line := strings.Fields("e1 d1 a1 b1 e1 d1 a1")
	playMoves(tb, r, func(p board.Position) board.Move {
		m, err := p.Variant().ParseMove(line[0])
		line = line[1:]
		if err != nil || p.CheckMove(m) != nil {
			m = p.LegalMoves()[0]
		}
		return m
	}, len(line))
	tb.click("#analyse")
	start := time.Now()
	tb.waitFor("analysis to depth 8", 30*time.Second, func(s pageState) bool {
		for _, l := range s.Lines {
			if d, _ := strconv.Atoi(l.Depth); d >= 8 && time.Since(start) > time.Second {
				return true
			}
		}
		return false
	})
	// The pointer away from the buttons, as when a person watches.
	tb.do("move the mouse away", chromedp.MouseEvent(chromedp.MouseMoved, 1, 1))
	png := tb.pageScreenshot("readme")
	// The same game on a phone: the board, the score and the controls.
	tb.setViewport(390, 844)
	tb.measure()
	phone := tb.screenshot("readme-phone")
	for name, b := range map[string][]byte{"gui.png": png, "gui-phone.png": phone} {
		if !*updateScreenshot || b == nil {
			continue
		}
		f := filepath.Join("..", "docs", name)
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", f)
	}
}

// testShutdown checks that the server ends an engine when its page goes
// away, and all of them when it is stopped.
func testShutdown(t *testing.T, browser context.Context, srv *guiServer) {
	if !procChildren() {
		t.Skip("no /proc/PID/task/TID/children here")
	}
	a := newTab(t, browser, srv)
	a.open("game=katro-4x4&mode=analysis&animate=off")
	watchAnalysis(a, mustStart(t, board.NameKatro4x4))
	before := childPIDs(srv.cmd.Process.Pid)
	b := newTab(t, browser, srv)
	b.open("game=katro-4x4&mode=analysis&animate=off")
	watchAnalysis(b, mustStart(t, board.NameKatro4x4))
	var started []int
	for _, pid := range childPIDs(srv.cmd.Process.Pid) {
		if !slices.Contains(before, pid) {
			started = append(started, pid)
		}
	}
	if len(started) == 0 {
		t.Fatalf("no engine process started for a second page analysing (children %v, before %v)", childPIDs(srv.cmd.Process.Pid), before)
	}
	b.do("leave the page", chromedp.Navigate("about:blank"))
	for _, pid := range stillAlive(started, 10*time.Second) {
		t.Errorf("engine process %d of a page that left still runs after 10 s", pid)
	}
	if len(childPIDs(srv.cmd.Process.Pid)) == 0 {
		t.Fatalf("no engine process left for the page still analysing")
	}
	srv.stop(t)
}

// procChildren reports whether Linux lists a process's children.
func procChildren() bool {
	_, err := os.Stat(fmt.Sprintf("/proc/%d/task/%d/children", os.Getpid(), os.Getpid()))
	return err == nil
}

// testPauseStep pauses a game between engines, steps one move, and
// resumes it.
func testPauseStep(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	tb.open("game=katro&south=sower&north=sower&movetime=100&animate=off")
	r := refereeFor(t, board.NameKatro, "", false, false)
	s := tb.waitFor("two engine moves", 20*time.Second, func(s pageState) bool { return len(s.Plies) >= 2 })
	pressed := func(want string) func(s pageState) bool {
		return func(s pageState) bool { return s.Busy == "false" && s.Paused != nil && *s.Paused == want }
	}
	tb.click("#pause")
	s = tb.waitFor("the pause", 20*time.Second, pressed("true"))
	n := len(s.Plies)
	if st := eval[string](tb, `document.querySelector('#status-text').textContent`); !strings.Contains(st, "is paused: press Resume") {
		t.Errorf("paused: status %q, want it to say the engine is paused until Resume", st)
	}
	time.Sleep(600 * time.Millisecond)
	s = tb.state()
	if len(s.Plies) != n {
		t.Fatalf("paused at %d plies, %d plies 0.6 s later", n, len(s.Plies))
	}
	r.follow(tb, s)
	r.check(tb, s)
	tb.click("#step")
	s = tb.waitFor("one step", 20*time.Second, func(s pageState) bool { return len(s.Plies) > n && pressed("true")(s) })
	time.Sleep(600 * time.Millisecond)
	s = tb.state()
	if len(s.Plies) != n+1 {
		t.Fatalf("a step from %d plies: %d plies", n, len(s.Plies))
	}
	r.follow(tb, s)
	r.check(tb, s)
	tb.click("#pause")
	s = tb.waitFor("play to resume", 20*time.Second, func(s pageState) bool {
		return len(s.Plies) >= n+3 || s.Turn == "over"
	})
	r.follow(tb, s)
}

// testTrouble runs the page with engines that fail: one that exits at
// once and one that answers an illegal move. The page says so, names the
// engine, and keeps the game. A third fake engine offers MultiPV, which
// Sower does not: the page shows its two lines.
func testTrouble(t *testing.T, browser context.Context, bin string) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake engines are shell scripts")
	}
	dir := t.TempDir()
	script := func(name, body string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
		return f
	}
	crasher := script("crasher", "exit 3\n")
	// The liar speaks the protocol but answers every search with a1,
	// which is never North's move.
	liar := script("liar", `while read -r line; do
  case "$line" in
    uci) echo "id name liar"; echo "option name UCI_Variant type combo default katro var katro var katro-4x4 var hoyito3"; echo uciok ;;
    isready) echo readyok ;;
    go*) echo "bestmove a1" ;;
    quit) exit 0 ;;
  esac
done
`)
	// multi offers MultiPV and gives as many lines as it is asked for.
	multi := script("multi", `mpv=1
while read -r line; do
  case "$line" in
    uci) echo "id name multi"; echo "option name UCI_Variant type combo default katro var katro var katro-4x4 var hoyito3"
      echo "option name MultiPV type spin default 1 min 1 max 3"; echo uciok ;;
    "setoption name MultiPV value "*) mpv=${line##* } ;;
    isready) echo readyok ;;
    go*) echo "info depth 1 multipv 1 score cp 10 nodes 10 nps 100 pv a1 a4"
      if [ "$mpv" -ge 2 ]; then echo "info depth 1 multipv 2 score cp 5 nodes 10 nps 100 pv b1 a4"; fi ;;
    stop) echo "bestmove a1" ;;
    quit) exit 0 ;;
  esac
done
`)
	srv := startServer(t, bin, "--engine", "sower="+bin, "--engine", "crasher="+crasher, "--engine", "liar="+liar, "--engine", "multi="+multi)
	for _, engine := range []string{"crasher", "liar"} {
		tb := newTab(t, browser, srv)
		r, _ := openGame(tb, board.NameKatro4x4, "south=human&north="+engine+"&movetime=50&animate=off")
		tb.click(`[data-hole="a1"]`)
		s := tb.waitFor("a message about "+engine, 20*time.Second, func(s pageState) bool {
			return s.Busy == "false" && len(s.Plies) == 1 && s.Message != nil && *s.Message != ""
		})
		t.Logf("%s: #message %q", engine, *s.Message)
		if !strings.Contains(*s.Message, engine) {
			t.Errorf("%s: #message %q does not name the engine", engine, *s.Message)
		}
		// The game is kept: the person's move, North to move.
		time.Sleep(300 * time.Millisecond)
		s = tb.state()
		r.follow(tb, s)
		if r.g.Ply() != 1 || s.Fen != r.shown[1].fen {
			t.Errorf("%s: the game after the trouble: %s, want the person's move a1 kept", engine, s.summary())
		}
		tb.screenshot(engine)
	}

	// Two lines from an engine with MultiPV.
	tb := newTab(t, browser, srv)
	tb.open("game=katro-4x4&south=human&north=human&mode=analysis&engine=multi&animate=off")
	tb.waitFor("a line from multi", 20*time.Second, func(s pageState) bool { return len(s.Lines) == 1 })
	eval[bool](tb, `(() => { const e = document.querySelector('#multipv'); e.value = '2';
		e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`)
	s := tb.waitFor("two lines from multi", 20*time.Second, func(s pageState) bool { return len(s.Lines) == 2 })
	for i, want := range []pvLine{{MultiPV: "1", Depth: "1", Score: "cp 10"}, {MultiPV: "2", Depth: "1", Score: "cp 5"}} {
		if l := s.Lines[i]; l.MultiPV != want.MultiPV || l.Depth != want.Depth || l.Score != want.Score {
			t.Errorf("line %d: data-multipv=%q data-depth=%q data-score=%q, want %q %q %q", i+1, l.MultiPV, l.Depth, l.Score, want.MultiPV, want.Depth, want.Score)
		}
	}
	tb.screenshot("multipv")
}

// arrow is an arrow on the board.
type arrow struct{ Kind, Move, To string }

// checkArrows checks the arrows on the board of position p: one of each
// kind wanted, on its move, pointing to the hole where the move's first
// lap ends.
func checkArrows(tb *tab, p board.Position, want map[string]string) {
	tb.t.Helper()
	got := eval[[]arrow](tb, `[...document.querySelectorAll('#arrows g.arrow')].map((g) => ({ kind: g.dataset.kind, move: g.dataset.move, to: g.dataset.to }))`)
	v := p.Variant()
	if len(got) != len(want) {
		tb.t.Errorf("arrows %+v, want %v", got, want)
	}
	for _, a := range got {
		m, err := v.ParseMove(a.Move)
		if err != nil || want[a.Kind] != a.Move {
			tb.t.Errorf("arrow %+v, want %v", a, want)
			continue
		}
		n := v.CircuitLen()
		for k := range n {
			if v.CircuitHole(p.Side(), k) == m {
				if to := v.CircuitHole(p.Side(), (k+p.Count(m))%n).String(); a.To != to {
					tb.t.Errorf("arrow %+v: its first lap ends in %s", a, to)
				}
			}
		}
	}
}
