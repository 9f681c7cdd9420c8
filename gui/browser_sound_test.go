package gui_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/internal/sowertest"
)

// soundState is the sound toggle, the stored choice and the sounds made.
type soundState struct {
	Checked       bool
	Stored, Sound string
	Sounds        string
}

const soundJS = `(() => ({ checked: document.querySelector('#sound-toggle').checked,
  stored: localStorage.getItem('sower.sound') || '', sound: document.body.dataset.sound || '',
  sounds: document.body.dataset.sounds || '' }))()`

// TestBrowserSounds: sounds are off at first (a move makes none); the
// toggle turns them on and is kept in the browser (a reload keeps it);
// then every move played makes a sound (a move or a capture), and going
// back through the game or taking a move back makes none.
func TestBrowserSounds(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the full run has it")
	}
	browser := newBrowser(t)
	bin := sowertest.Build(t, raceEnabled)
	srv := startServer(t, bin)
	tb := newTab(t, browser, srv)
	r, _ := openGame(tb, board.NameKatro4x4, "south=human&north=human&animate=off")
	sound := func() soundState { return eval[soundState](tb, soundJS) }
	if got := sound(); got.Checked || got.Stored != "" {
		t.Fatalf("a new browser: %+v, want sounds off", got)
	}
	playFirst(tb, r, 1)
	if got := sound(); got.Sounds != "" {
		t.Errorf("a move with sounds off made %s sounds", got.Sounds)
	}
	eval[bool](tb, `(() => { document.querySelector('#new-card').open = true; return true; })()`)
	tb.click("#sound-toggle")
	if got := sound(); !got.Checked || got.Stored != "on" {
		t.Fatalf("after the toggle: %+v, want on, stored", got)
	}
	tb.reload()
	if got := sound(); !got.Checked || got.Stored != "on" || got.Sounds != "" {
		t.Fatalf("after a reload: %+v, want still on, no sound made", got)
	}
	s := tb.state()
	r.follow(tb, s)
	for k := 1; k <= 6 && !r.g.Status().Over(); k++ {
		playFirst(tb, r, len(s.Plies)+k)
		got := sound()
		want := "move"
		if got.Sound == "capture" {
			want = "capture"
		}
		if got.Sounds != strconv.Itoa(k) || got.Sound != want {
			t.Fatalf("after %d moves with sounds on: %+v, want %d sounds, the last a move or a capture", k, got, k)
		}
	}
	before := sound().Sounds
	tb.click(`#movelist li[data-ply="1"]`)
	tb.waitFor("ply 1", 10*time.Second, func(s pageState) bool { return s.Busy == "false" && s.Plies[0].Current })
	tb.click("#last")
	tb.waitFor("the last ply", 10*time.Second, func(s pageState) bool { return s.Busy == "false" && s.Plies[len(s.Plies)-1].Current })
	tb.click("#takeback")
	tb.waitFor("the take back", 10*time.Second, func(s pageState) bool { return s.Busy == "false" && len(s.Plies) == len(r.g.Moves())-1 })
	if got := sound(); got.Sounds != before {
		t.Errorf("looking back and a take back made sounds: %+v, %s before", got, before)
	}
	// Off again, and kept so.
	eval[bool](tb, `(() => { document.querySelector('#new-card').open = true; return true; })()`)
	tb.click("#sound-toggle")
	if got := sound(); got.Checked || got.Stored != "off" {
		t.Errorf("after the second toggle: %+v, want off, stored", got)
	}
}
