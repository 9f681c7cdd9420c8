package gui_test

import (
	"context"
	"math/rand/v2"
	"net"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/internal/sowertest"
)

// socketJS runs before the page's scripts: it keeps the page's sockets in
// __sowerSockets, so that a test can drop the connection, and while
// __sowerOffline is set it opens them where no socket is served, as a
// network that is down fails them.
const socketJS = `(() => {
  const WS = window.WebSocket;
  window.__sowerSockets = [];
  window.__sowerOffline = false;
  const Hooked = function (url, protocols) {
    const ws = new WS(window.__sowerOffline ? String(url).replace('/ws', '/offline') : url, protocols);
    window.__sowerSockets.push(ws);
    return ws;
  };
  Hooked.prototype = WS.prototype;
  Object.assign(Hooked, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  window.WebSocket = Hooked;
})()`

// sessionView is what the page shows of its game beyond the board: the
// connection, the clocks, the move list's text, the graph, the match and
// the address's session.
type sessionView struct {
	Conn, Status string
	Clocks       [2]string
	Offline      [2]bool
	Playable     int
	PlayHere     bool
	Session      string
	Match        string
	MatchGames   []string
}

const sessionJS = `(() => {
  const q = (s) => document.querySelector(s);
  const clocks = ['#clock-south', '#clock-north'].map((id) => q(id));
  return {
    conn: document.body.dataset.conn || '', status: q('#status-text').textContent,
    clocks: clocks.map((c) => c.hidden ? '' : c.textContent.trim()),
    offline: clocks.map((c) => c.classList.contains('offline')),
    playable: document.querySelectorAll('[data-hole].playable').length,
    playHere: !q('#play-here').hidden,
    session: new URLSearchParams(location.search).get('session') || '',
    match: q('#match').hidden ? '' : q('#match-score').textContent,
    matchGames: [...document.querySelectorAll('#match-games li')].map((l) => l.textContent),
  };
})()`

func (tb *tab) session() sessionView {
	tb.t.Helper()
	return eval[sessionView](tb, sessionJS)
}

// waitSession polls the page until cond holds, or fails after timeout.
func (tb *tab) waitSession(what string, timeout time.Duration, cond func(sessionView) bool) sessionView {
	tb.t.Helper()
	return waitUntil(tb, what, timeout, tb.session, cond)
}

// hookSockets installs socketJS in the tab's documents.
func (tb *tab) hookSockets() {
	tb.t.Helper()
	tb.do("hook the sockets", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: socketJS})
		return err
	}))
}

// reload reloads the page and waits for it to be ready again.
func (tb *tab) reload() {
	tb.t.Helper()
	tb.do("reload", chromedp.Reload())
	tb.waitFor("the page after the reload", 20*time.Second, func(s pageState) bool { return s.Ready == "true" })
}

// clockMS reads a clock as the page writes it: "1:05" or "0:05.8".
func clockMS(t *testing.T, c string) float64 {
	t.Helper()
	m, rest, ok := strings.Cut(c, ":")
	mins, err1 := strconv.Atoi(m)
	secs, err2 := strconv.ParseFloat(rest, 64)
	if !ok || err1 != nil || err2 != nil {
		t.Fatalf("clock %q", c)
	}
	return float64(mins)*60000 + secs*1000
}

// checkClocks checks clocks read now against clocks read at a time
// before: the person's (South's) has run since, the engine's not, each
// within a second.
func checkClocks(t *testing.T, what string, before [2]string, at time.Time, now [2]string, southRan time.Duration) {
	t.Helper()
	want := [2]float64{clockMS(t, before[0]) - float64(southRan.Milliseconds()), clockMS(t, before[1])}
	for k, side := range []string{"South", "North"} {
		if got := clockMS(t, now[k]); got < want[k]-1000 || got > want[k]+1000 {
			t.Errorf("%s: %s's clock %s, want %.1f s ±1 s (it was %s %v before)", what, side, now[k], want[k]/1000, before[k], time.Since(at).Round(time.Millisecond))
		}
	}
}

// TestBrowserSession: the game lives on the server. A reload finds an
// engine game under a clock as it stood (the person's clock having run
// on, the engine's scores and graph), a traditional match and a reviewed
// game; a dropped connection says so in the status line and the clocks,
// and play goes on once it is back; a second tab takes the game over and
// the first says so; a restart of the server finds the game, its clocks
// stopped while it was down.
func TestBrowserSession(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the full run has it")
	}
	browser := newBrowser(t)
	bin := sowertest.Build(t, raceEnabled)
	srv := startServer(t, bin)

	t.Run("engine game with a clock", func(t *testing.T) {
		tb := newTab(t, browser, srv)
		tb.hookSockets()
		r, _ := openGame(tb, board.NameKatro, "south=human&north=sower&tc=30%2B0&animate=off")
		rng := rand.New(rand.NewPCG(71, 0))
		playHuman(tb, r, rng, 3)
		s := tb.waitFor("the person's turn", 30*time.Second, settled)
		if s.Turn != "human" {
			t.Fatalf("the game ended early: %s", s.summary())
		}
		time.Sleep(1500 * time.Millisecond) // South's clock runs
		before, at := tb.session(), time.Now()
		if before.Session == "" || before.Clocks[0] == "" {
			t.Fatalf("before the reload: %+v", before)
		}
		tb.reload()
		s2 := tb.waitFor("the game back", 20*time.Second, settled)
		after := tb.session()
		checkClocks(t, "after the reload", before.Clocks, at, after.Clocks, time.Since(at))
		if !reflect.DeepEqual(s2.Plies, s.Plies) || !reflect.DeepEqual(s2.Points, s.Points) || s2.Fen != s.Fen {
			t.Errorf("after the reload the moves are %+v, points %v at %s\nwant %+v, points %v at %s", s2.Plies, s2.Points, s2.Fen, s.Plies, s.Points, s.Fen)
		}
		if after.Session != before.Session || after.Conn != "ok" {
			t.Errorf("after the reload: session %q (was %q), connection %q", after.Session, before.Session, after.Conn)
		}
		tb.screenshot("reloaded")

		// The connection drops and stays down a while: the status line and
		// the clocks say so, and no hole can be played.
		eval[bool](tb, `(() => { window.__sowerOffline = true; window.__sowerSockets.at(-1).close(); return true; })()`)
		lost := tb.waitSession("the lost connection shown", 10*time.Second, func(v sessionView) bool { return v.Conn == "lost" })
		time.Sleep(1500 * time.Millisecond)
		lost = tb.session()
		if !strings.Contains(lost.Status, "Connection lost") || lost.Offline != [2]bool{true, true} || lost.Playable != 0 {
			t.Errorf("connection lost: status %q, clocks offline %v, %d holes playable; want it said in the status and the clocks, no hole playable", lost.Status, lost.Offline, lost.Playable)
		}
		tb.screenshot("connection-lost")
		eval[bool](tb, `(() => { window.__sowerOffline = false; return true; })()`)
		// The clocks wait for the server's state.
		back := tb.waitSession("the connection back", 10*time.Second, func(v sessionView) bool { return v.Conn == "ok" && v.Offline == [2]bool{} })
		if strings.Contains(back.Status, "Connection lost") {
			t.Errorf("connection back: %+v", back)
		}
		s3 := tb.waitFor("the game back", 20*time.Second, settled)
		if !reflect.DeepEqual(s3.Plies, s.Plies) {
			t.Errorf("after the connection came back the moves are %+v, want %+v", s3.Plies, s.Plies)
		}
		// Play resumes: a move, and the engine's answer.
		playHuman(tb, r, rng, 1)
		if s4 := tb.waitFor("the engine's answer", 30*time.Second, settled); len(s4.Plies) < len(s.Plies)+2 && s4.Turn != "over" {
			t.Errorf("after the connection came back: %s, want the person's move and the engine's answer", s4.summary())
		}

		// A second tab on the address takes the game over; the first says
		// so, and Continue here takes it back.
		href := eval[string](tb, `location.href`)
		other := newTab(t, browser, srv)
		other.do("open the address", chromedp.Navigate(href))
		o := other.waitFor("the game in the second tab", 20*time.Second, settled)
		if now := tb.state(); o.Fen != now.Fen || !reflect.DeepEqual(o.Plies, now.Plies) {
			t.Errorf("the second tab shows %s, the first %s", o.summary(), now.summary())
		}
		taken := tb.waitSession("the first tab told", 10*time.Second, func(v sessionView) bool { return v.Conn == "taken" })
		if !strings.Contains(taken.Status, "another tab") || !taken.PlayHere || taken.Playable != 0 {
			t.Errorf("the first tab after the second took over: %+v", taken)
		}
		time.Sleep(1500 * time.Millisecond) // it does not take the game back by itself
		if v := other.session(); v.Conn != "ok" {
			t.Errorf("the second tab lost the game: %+v", v)
		}
		tb.screenshot("taken-over")
		tb.click("#play-here")
		tb.waitSession("the game back in the first tab", 10*time.Second, func(v sessionView) bool { return v.Conn == "ok" })
		other.waitSession("the second tab told", 10*time.Second, func(v sessionView) bool { return v.Conn == "taken" })
	})

	t.Run("traditional match", func(t *testing.T) {
		tb := newTab(t, browser, srv)
		tb.open("game=hoyito3&south=human&north=sower&depth=1&animate=off")
		tb.waitFor("the game", 20*time.Second, settled)
		eval[bool](tb, `(() => { document.querySelector('#match-select').value = '2'; return true; })()`)
		tb.click("#new-game")
		tb.waitSession("game 1 of the match", 20*time.Second, func(v sessionView) bool { return strings.Contains(v.Match, "game 1 of 2") })
		r := refereeFor(t, board.NameHoyito3, "", true, false)
		playHuman(tb, r, rand.New(rand.NewPCG(73, 0)), 1000)
		s, before := tb.state(), tb.session()
		if s.Turn != "over" || len(before.MatchGames) != 1 {
			t.Fatalf("game 1 of the match: %s, %+v", s.summary(), before)
		}
		tb.reload()
		s2 := tb.waitFor("the match back", 20*time.Second, settled)
		after := tb.session()
		if after.Match != before.Match || !reflect.DeepEqual(after.MatchGames, before.MatchGames) {
			t.Errorf("after the reload the match is %q %q, want %q %q", after.Match, after.MatchGames, before.Match, before.MatchGames)
		}
		if !reflect.DeepEqual(s2.Plies, s.Plies) || s2.Result == nil || *s2.Result != *s.Result {
			t.Errorf("after the reload: %s, want %s", s2.summary(), s.summary())
		}
		tb.screenshot("match-reloaded")
		// The match goes on.
		tb.click("#next-game")
		tb.waitSession("game 2 of the match", 20*time.Second, func(v sessionView) bool { return strings.Contains(v.Match, "game 2 of 2") })
	})

	t.Run("reviewed game", func(t *testing.T) {
		_, file := blunderRecord(t)
		const plies = 10
		tb := newTab(t, browser, srv)
		tb.open("game=katro&south=human&north=human&animate=off")
		tb.do("open the record", chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{file}))
		tb.waitFor("the game from the record", 10*time.Second, func(s pageState) bool { return settled(s) && len(s.Plies) == plies })
		eval[bool](tb, `(() => { document.querySelector('#review-kind').value = 'depth'; document.querySelector('#review-value').value = '24'; return true; })()`)
		tb.click("#review")
		r := waitReview(tb, "the review", 25*time.Second, func(r reviewView) bool { return !r.Running && r.Plies == "10" })
		tb.click(`#movelist li[data-ply="9"]`)
		s := tb.waitFor("ply 9", 10*time.Second, func(s pageState) bool { return s.Busy == "false" && len(s.Plies) > 8 && s.Plies[8].Current })
		tb.reload()
		s2 := tb.waitFor("the reviewed game back", 20*time.Second, func(s pageState) bool { return s.Busy == "false" && len(s.Plies) == plies })
		r2 := eval[reviewView](tb, reviewJS)
		checkReview(t, "after the reload", r2)
		r.Done, r.Total, r2.Done, r2.Total = 0, 0, 0, 0 // the hidden progress bar's
		if !reflect.DeepEqual(r2, r) || !reflect.DeepEqual(s2.Points, s.Points) || s2.Fen != s.Fen || !s2.Plies[8].Current {
			t.Errorf("after the reload the review is %+v, points %v at %s\nwant %+v, points %v at ply 9, %s", r2, s2.Points, s2.Fen, r, s.Points, s.Fen)
		}
		tb.pageScreenshot("review-reloaded")
	})

	t.Run("a game the server no longer has", func(t *testing.T) {
		tb := newTab(t, browser, srv)
		gone := strings.Repeat("0", 32)
		tb.open("session=" + gone + "&game=katro-4x4&south=human&north=human&moves=a1&animate=off")
		s := tb.waitFor("the address's game", 20*time.Second, settled)
		v := tb.session()
		if len(s.Plies) != 1 || s.Message == nil || !strings.Contains(*s.Message, "no longer had this game") || v.Session == gone || v.Session == "" {
			t.Errorf("an address whose game is gone: %s, session %q; want its moves, a note and a new session", s.summary(), v.Session)
		}
	})

	t.Run("server restart", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		dir := t.TempDir()
		first := startServer(t, bin, "--addr", addr, "--state", dir)
		tb := newTab(t, browser, first)
		r, _ := openGame(tb, board.NameKatro, "south=human&north=sower&tc=30%2B0&animate=off")
		playHuman(tb, r, rand.New(rand.NewPCG(72, 0)), 2)
		s := tb.waitFor("the person's turn", 30*time.Second, settled)
		before, at := tb.session(), time.Now()
		first.stop(t)
		ran := time.Since(at)
		tb.waitSession("the lost connection shown", 10*time.Second, func(v sessionView) bool { return v.Conn == "lost" })
		time.Sleep(2 * time.Second) // the server is down: no clock runs
		u, _ := url.Parse(first.url)
		second := startServer(t, bin, "--addr", u.Host, "--state", dir)
		_ = second
		after := tb.waitSession("the game back", 20*time.Second, func(v sessionView) bool { return v.Conn == "ok" })
		s2 := tb.waitFor("the game back", 20*time.Second, settled)
		if !reflect.DeepEqual(s2.Plies, s.Plies) || after.Session != before.Session {
			t.Errorf("after the restart: %s, session %q; want %s, session %q", s2.summary(), after.Session, s.summary(), before.Session)
		}
		checkClocks(t, "after the restart", before.Clocks, at, after.Clocks, ran)
	})
}
