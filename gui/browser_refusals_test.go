package gui_test

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

// formValues reads the New game form and the rules line.
const formValuesJS = `(() => Object.fromEntries(['#game-select', '#north-select', '#limit-kind', '#limit-value',
  '#lastfour-select', '#nocapturelimit-input'].map(id => [id, document.querySelector(id).value]).concat([['rules', document.querySelector('#rules').textContent]])))()`

// message is #message's text, or "".
func message(s pageState) string {
	if s.Message == nil {
		return ""
	}
	return *s.Message
}

// testAddressParams opens addresses with bad parameters: the page keeps
// every good one, leaves the bad ones at their defaults and names each in
// its message.
func testAddressParams(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	for _, c := range []struct {
		query string
		want  map[string]string // form values
		says  []string          // in #message
	}{
		{"game=hoyito3&south=human&north=stockfish&movetime=abc&lastfour=north&animate=sideways",
			map[string]string{"#game-select": "hoyito3", "#north-select": "sower", "#limit-kind": "movetime", "#limit-value": "1000", "#lastfour-select": "north"},
			[]string{`north: no engine named "stockfish"`, `movetime "abc"`, "animate=sideways", "The rest of the address is kept"}},
		{"game=katro&south=human&north=human&captureside=opponent&nocapturelimit=1.5",
			map[string]string{"#game-select": "katro", "#nocapturelimit-input": "200"},
			[]string{"captureside opponent: a Hoyito III rule", `no-capture limit "1.5"`}},
		{"game=hoyito3&south=human&north=human&depth=500&fen=" + url.QueryEscape("4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 999"),
			map[string]string{"#game-select": "hoyito3", "#limit-kind": "movetime", "#limit-value": "1000"},
			[]string{`depth "500": want 1 to 127 plies`, "no-capture clock 999 is past the game's no-capture limit of 200 plies", "starts from its start position"}},
	} {
		tb.open(c.query)
		s := tb.waitFor("the game", 20*time.Second, func(s pageState) bool { return settled(s) && message(s) != "" })
		for _, w := range c.says {
			if !strings.Contains(message(s), w) {
				t.Errorf("%s: #message %q, want it to say %q", c.query, message(s), w)
			}
		}
		got := eval[map[string]string](tb, formValuesJS)
		for id, w := range c.want {
			if got[id] != w {
				t.Errorf("%s: %s is %q, want %q", c.query, id, got[id], w)
			}
		}
		// The note stays through the page's own requests, until the
		// person acts.
		time.Sleep(300 * time.Millisecond)
		if s2 := tb.state(); message(s2) != message(s) {
			t.Errorf("%s: #message went from %q to %q without the person acting", c.query, message(s), message(s2))
		}
	}
	tb.screenshot("refused")
}

// testFormRefusals sends bad values from the New game form and the Set
// up box: each is refused with a message naming it and what is wanted,
// and the game stays as it was.
func testFormRefusals(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	tb.open("game=hoyito3&south=human&north=human&animate=off")
	s0 := tb.waitFor("the game", 20*time.Second, settled)
	set := func(id, v string) {
		tb.t.Helper()
		eval[bool](tb, `(() => { const e = document.querySelector(`+strconv.Quote(id)+`); e.value = `+strconv.Quote(v)+`; return true; })()`)
	}
	katro, _ := board.New(board.NameKatro4x4)
	for _, c := range []struct {
		name   string
		fields [][2]string
		button string
		says   string
	}{
		{"limit 1.5", [][2]string{{"#nocapturelimit-input", "1.5"}}, "#new-game", `no-capture limit "1.5": want a whole number of plies from 0 (off) to 1000000`},
		{"empty limit", [][2]string{{"#nocapturelimit-input", ""}}, "#new-game", "no-capture limit: empty"},
		{"depth 500", [][2]string{{"#nocapturelimit-input", "200"}, {"#limit-kind", "depth"}, {"#limit-value", "500"}}, "#new-game", `depth "500": want 1 to 127 plies`},
		{"a Katro position", [][2]string{{"#fen-input", katro.Start().String()}}, "#setup", "looks like a katro-4x4 position, and the game is hoyito3"},
		{"a clock past the limit", [][2]string{{"#fen-input", "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 999"}}, "#setup", "no-capture clock 999 is past the game's no-capture limit of 200 plies"},
	} {
		if eval[bool](tb, `!document.querySelector('#new-card').open`) {
			tb.click("#new-card summary")
		}
		for _, f := range c.fields {
			set(f[0], f[1])
		}
		tb.click(c.button)
		s := tb.waitFor("the refusal", 20*time.Second, func(s pageState) bool { return message(s) != "" && s.Busy == "false" })
		if !strings.Contains(message(s), c.says) {
			t.Errorf("%s: #message %q, want it to say %q", c.name, message(s), c.says)
		}
		if s.Fen != s0.Fen || *s.Game != board.NameHoyito3 {
			t.Errorf("%s: the page shows %s %s; want the game kept", c.name, *s.Game, s.Fen)
		}
	}
}

// playAids is what the page shows around the board for a person at play.
type playAids struct {
	Status            string
	PassHeight        float64
	FirstHole         string    // the first hole in tab order
	FirstOwner        string    // whose it is
	Rules, Result     string    // the rules line and #result
	LabelPx, NumberPx []float64 // rendered sizes of the graph's labels and the move numbers
	StatusRowHeight   float64
}

const playAidsJS = `(() => {
  const first = document.querySelector('[data-hole]');
  const svg = document.querySelector('#eval-graph');
  return {
    status: document.querySelector('#status-text').textContent,
    passHeight: document.querySelector('#pass').getBoundingClientRect().height,
    firstHole: first.dataset.hole, firstOwner: first.classList.contains('south') ? 'south' : 'north',
    rules: document.querySelector('#rules').textContent, result: document.querySelector('#result').textContent,
    labelPx: [...svg.querySelectorAll('.g-label')].map(t => parseFloat(getComputedStyle(t).fontSize) * svg.getScreenCTM().a),
    numberPx: [...document.querySelectorAll('#movelist .num')].map(e => parseFloat(getComputedStyle(e).fontSize)),
    statusRowHeight: document.querySelector('#status').getBoundingClientRect().height,
  };
})()`

// testPlayAids checks, on the narrowest phone, the smaller points of a
// game: a pass that cannot be played takes no room and a forced pass is
// said; the holes come in tab order from the player's own; the rule
// options are on the board; graph labels and move numbers are at least
// 12 px; a finished game's result says why in words.
func testPlayAids(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	tb.setViewport(360, 740)
	r, _ := openGame(tb, board.NameHoyito3, "south=human&north=human&captureside=opponent&repetition=off&nocapturelimit=60&animate=off")
	playFirst(tb, r, 1)
	a := eval[playAids](tb, playAidsJS)
	if a.PassHeight != 0 {
		t.Errorf("a Pass that cannot be played is %v px high on a phone, want none", a.PassHeight)
	}
	if want := "Rules: CaptureSide opponent · LastFour capturer · Repetition off · no-capture limit 60 plies"; a.Rules != want {
		t.Errorf("rules line %q, want %q", a.Rules, want)
	}
	for _, x := range a.LabelPx {
		if x < 12 {
			t.Errorf("graph labels drawn at %.1f px (%v), want 12 or more", x, a.LabelPx)
			break
		}
	}
	if len(a.NumberPx) == 0 || a.NumberPx[0] < 12.5 {
		t.Errorf("move numbers at %v px, want 12.5 or more", a.NumberPx)
	}
	// Tab order: the player's own holes first, North's when the person
	// plays North alone.
	for _, c := range []struct{ query, owner string }{
		{"game=hoyito3&south=human&north=sower&animate=off", "south"},
		{"game=hoyito3&south=sower&north=human&depth=2&animate=off", "north"},
		{"game=katro&south=human&north=sower&animate=off", "south"},
	} {
		tb.open(c.query)
		tb.waitFor("the game", 20*time.Second, settled)
		if a := eval[playAids](tb, playAidsJS); a.FirstOwner != c.owner {
			t.Errorf("%s: the first hole in tab order is %s (%s's), want one of %s's", c.query, a.FirstHole, a.FirstOwner, c.owner)
		}
	}
	// A forced pass is said.
	pass, _ := hoyitoFind(t, 41, func(p board.Position, m board.Move) bool {
		l := p.LegalMoves()
		return p.Side() == board.South && len(l) == 1 && l[0] == board.Pass && !p.Status(nil).Over()
	})
	tb.open("game=hoyito3&south=human&north=human&animate=off&fen=" + url.QueryEscape(pass.String()))
	tb.waitFor("the position", 20*time.Second, func(s pageState) bool { return settled(s) && s.Fen == pass.String() })
	if a := eval[playAids](tb, playAidsJS); a.Status != "South must pass: press Pass" || a.PassHeight < 44 {
		t.Errorf("South's only move a pass: status %q, Pass %v px high; want South must pass and the button", a.Status, a.PassHeight)
	}
	tb.screenshot("must-pass")
	// A finished game says why, in words.
	tb.open("game=hoyito3&south=human&north=human&animate=off&fen=" + url.QueryEscape("0,0,0,0,0,0/0,0,0,0,0,0 S 24 24 0"))
	tb.waitFor("the finished game", 20*time.Second, func(s pageState) bool { return settled(s) && s.Turn == "over" })
	if a := eval[playAids](tb, playAidsJS); a.Result != "Draw, 24 seeds each: the board is empty" {
		t.Errorf("#result %q, want the draw in words", a.Result)
	}
}
