package gui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/internal/sowertest"
)

// pastList is the Past games card as the page shows it.
type pastList struct {
	Note  string
	Items []struct{ ID, Status, Text, Href string }
}

const pastJS = `(() => ({ note: document.querySelector('#past-note').textContent,
  items: [...document.querySelectorAll('#past-games li')].map((li) => ({ id: li.dataset.id, status: li.dataset.status,
    text: li.textContent, href: li.querySelector('a').getAttribute('href') })) }))()`

// TestBrowserPastGames plays a game to its end (North resigns), starts a
// new game in the same tab, and opens the Past games card: the finished
// game is listed with its players, result and plies; its link opens it
// as it ended, with its result.
func TestBrowserPastGames(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the full run has it")
	}
	browser := newBrowser(t)
	bin := sowertest.Build(t, raceEnabled)
	srv := startServer(t, bin)
	tb := newTab(t, browser, srv)
	r, _ := openGame(tb, board.NameKatro4x4, "south=human&north=human&animate=off")
	playFirst(tb, r, 1)
	tb.click("#resign")
	tb.click("#resign")
	tb.waitFor("the resignation", 10*time.Second, func(s pageState) bool { return s.Turn == "over" })
	eval[bool](tb, `(() => { document.querySelector('#new-card').open = true; return true; })()`)
	tb.click("#new-game")
	tb.waitFor("the new game", 10*time.Second, func(s pageState) bool { return settled(s) && len(s.Plies) == 0 })
	tb.click("#past-card summary")
	got := waitUntil(tb, "the past games", 10*time.Second, func() pastList { return eval[pastList](tb, pastJS) },
		func(l pastList) bool { return len(l.Items) > 0 })
	if len(got.Items) != 1 {
		t.Fatalf("past games %+v, want the one finished game", got)
	}
	it := got.Items[0]
	for _, w := range []string{"katro-4x4", "South human", "North human", "South wins: North resigned", "1 ply ·"} {
		if !strings.Contains(it.Text, w) {
			t.Errorf("the past game listed as %q, want %q in it", it.Text, w)
		}
	}
	if it.Status != "south" || it.Href != "?session="+it.ID || !strings.Contains(got.Note, "open one") {
		t.Errorf("the past game %+v, note %q", it, got.Note)
	}
	tb.click("#past-games li a")
	s := tb.waitFor("the past game opened", 20*time.Second, func(s pageState) bool { return s.Ready == "true" && s.Turn == "over" && len(s.Plies) == 1 })
	if s.Result == nil || !strings.Contains(*s.Result, "North resigned") {
		t.Errorf("the past game opened with the result %v", s.Result)
	}
	if id := eval[string](tb, `new URLSearchParams(location.search).get('session')`); id != it.ID {
		t.Errorf("the address's session %q, want the past game's %q", id, it.ID)
	}
}
