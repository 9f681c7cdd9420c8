package gui_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

// testBadAddress opens a Hoyito III game with a position that does not
// parse: the page keeps the game, says what was wrong, and starts from
// the game's start.
func testBadAddress(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	tb.open("game=hoyito3&south=human&north=human&animate=off&fen=garbage")
	s := tb.waitFor("the game", 20*time.Second, func(s pageState) bool {
		return settled(s) && s.Game != nil && *s.Game == board.NameHoyito3 && len(s.Holes) == 12
	})
	start := mustStart(t, board.NameHoyito3)
	if s.Fen != start.String() {
		t.Errorf("fen=garbage: shows %q, want Hoyito III's start %q", s.Fen, start.String())
	}
	if s.Message == nil || !strings.Contains(*s.Message, "fen") || !strings.Contains(*s.Message, "hoyito3") {
		t.Errorf("fen=garbage: #message %v, want the notation's error", s.Message)
	}
	if !strings.Contains(s.Search, "game=hoyito3") {
		t.Errorf("fen=garbage: the address became %q", s.Search)
	}
	tb.screenshot("bad-fen")
}

// testWatchEngines watches two engines at 100 ms a move with animations
// on: the board shows every ply, the animations shortened to keep up.
func testWatchEngines(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	tb.open("game=katro&south=sower&north=sower&movetime=100&animate=normal")
	start := time.Now()
	s := tb.waitFor("12 plies", 60*time.Second, func(s pageState) bool { return len(s.Plies) >= 12 || s.Turn == "over" })
	// A loaded machine may let the engines finish first, even between
	// this look and the press: a finished game has no Pause to press (and
	// needs none), so the button is pressed only while it is there.
	eval[bool](tb, `(() => { const b = document.querySelector('#pause');
		if (!b || b.disabled || b.offsetParent === null) return false; b.click(); return true; })()`)
	s = tb.waitFor("the pause or the end", 20*time.Second, func(s pageState) bool {
		return s.Busy == "false" && (s.Paused != nil && *s.Paused == "true" || s.Turn == "over")
	})
	t.Logf("%d plies in %v", len(s.Plies), time.Since(start).Round(time.Millisecond))
	r := refereeFor(t, board.NameKatro, "", false, false)
	r.follow(tb, s)
	r.check(tb, s)
	snaps, _ := tb.takeSnapshots()
	at := r.checkShown(tb, snaps, 1)
	if n := len(r.shown) - 1; n > 1 {
		t.Logf("the page showed plies 1 to %d in %.0f ms, %.0f ms a ply (the engines: 100 ms a move)", n, at[n]-at[1], (at[n]-at[1])/float64(n-1))
	}
}
