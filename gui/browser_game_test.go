package gui_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/sower-engine/sower/board"
)

// testTakeBack plays two moves against the engine and takes the last one
// back: the page returns to the position before it, the person's turn,
// and play goes on from there.
func testTakeBack(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	tb.open("game=katro-4x4&south=human&north=sower&movetime=50&animate=off")
	r := refereeFor(t, board.NameKatro4x4, "", true, false)
	rng := rand.New(rand.NewPCG(7, 0))
	playHuman(tb, r, rng, 2)
	if r.g.Status().Over() || r.g.Ply() != 4 {
		t.Fatalf("after two moves against the engine: %d plies, status %v", r.g.Ply(), r.g.Status())
	}
	tb.click("#takeback")
	s := tb.waitFor("the take back", 20*time.Second, func(s pageState) bool {
		return settled(s) && len(s.Plies) < 4
	})
	if len(s.Plies) != 2 {
		t.Fatalf("take back left %d plies, want 2 (the person's last move and the engine's answer taken back)", len(s.Plies))
	}
	r.truncate(2)
	r.check(tb, s)
	tb.screenshot("taken-back")
	playHuman(tb, r, rng, 1)
	// Back to the start: two more take backs.
	for n := r.g.Ply(); n > 0; n -= 2 {
		tb.click("#takeback")
		s = tb.waitFor("the take back", 20*time.Second, func(s pageState) bool {
			return settled(s) && len(s.Plies) < n
		})
		r.truncate(n - 2)
		r.check(tb, s)
	}
}

// testSetup sets up a position from notation, plays on from it, then
// tries invalid notation: the page shows the parser's message and keeps
// the game.
func testSetup(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	tb.open("game=katro-4x4&south=human&north=sower&movetime=50&animate=off")
	v, _ := board.New(board.NameKatro4x4)
	g := board.NewGame(v.Start())
	for _, m := range []string{"a1", "a4", "c1", "b4"} {
		mv, _ := v.ParseMove(m)
		if err := g.Play(mv); err != nil {
			t.Fatal(err)
		}
	}
	fen := g.Position().String()
	setup := func(text string) {
		// Select what the field holds, as a triple click does, and type.
		eval[bool](tb, `(() => { const e = document.querySelector('#fen-input'); e.focus(); e.select(); return true; })()`)
		tb.do("type "+text,
			chromedp.SendKeys(chromedp.CSS("#fen-input"), text),
			chromedp.Click(chromedp.CSS("#setup")))
	}
	setup(fen)
	s := tb.waitFor("the position set up", 20*time.Second, func(s pageState) bool {
		return settled(s) && s.Fen == fen
	})
	r := refereeFor(t, board.NameKatro4x4, fen, true, false)
	r.follow(tb, s)
	r.check(tb, s)
	if s.Message != nil && *s.Message != "" {
		t.Errorf("#message after a valid set up: %q", *s.Message)
	}
	playHuman(tb, r, rand.New(rand.NewPCG(3, 0)), 1)
	before := tb.state()

	for _, bad := range []struct{ name, text string }{
		{"three rows", "2,2,2,2/2,2,2,2/2,2,2,2 S 0"},
		{"no side", "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2"},
		{"hoyito3 notation", "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 0"},
		{"words", "not a position"},
	} {
		_, perr := v.ParsePosition(bad.text)
		if perr == nil {
			t.Fatalf("%s: %q parses", bad.name, bad.text)
		}
		prev := ""
		if m := tb.state().Message; m != nil {
			prev = *m
		}
		setup(bad.text)
		s := tb.waitFor("a message about "+bad.name, 10*time.Second, func(s pageState) bool {
			return s.Message != nil && *s.Message != "" && *s.Message != prev
		})
		if !strings.Contains(*s.Message, perr.Error()) {
			t.Errorf("%s: #message %q, want it to contain the parser's %q", bad.name, *s.Message, perr.Error())
		}
		if s.MessageRole != "alert" {
			t.Errorf("#message has role %q, want alert", s.MessageRole)
		}
		time.Sleep(100 * time.Millisecond)
		s = tb.waitFor("the page to settle", 10*time.Second, settled)
		r.follow(tb, s)
		r.check(tb, s)
		if len(s.Plies) != len(before.Plies) || s.Fen != before.Fen {
			t.Errorf("%s: the game changed: %s, was %s", bad.name, s.summary(), before.summary())
		}
		// What was typed stays, to be corrected.
		if got := eval[string](tb, `document.querySelector('#fen-input').value`); got != bad.text {
			t.Errorf("%s: the notation box holds %q after the refusal, want what was typed, %q", bad.name, got, bad.text)
		}
	}
	tb.screenshot("bad-notation")
}

// testURL starts games from the address bar: a position and moves, the
// rule options, and the engine playing first.
func testURL(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	v, _ := board.New(board.NameKatro4x4)
	g := board.NewGame(v.Start())
	rng := rand.New(rand.NewPCG(11, 0))
	playRandom(g, rng, 6)
	fen := g.Position().String()
	var ms []string
	for _, m := range playRandom(g, rng, 3) {
		ms = append(ms, m.String())
	}
	q := url.Values{"game": {board.NameKatro4x4}, "south": {"human"}, "north": {"human"},
		"fen": {fen}, "moves": {strings.Join(ms, " ")}, "animate": {"off"}}
	tb.open(q.Encode())
	s := tb.waitFor("the game from fen and moves", 20*time.Second, settled)
	r := refereeFor(t, board.NameKatro4x4, fen, true, true)
	r.follow(tb, s)
	r.check(tb, s)
	if len(s.Plies) != len(ms) {
		t.Errorf("move list has %d plies, want the %d of moves=", len(s.Plies), len(ms))
	}
	if !strings.Contains(s.Search, "game=katro-4x4") {
		t.Errorf("location.search %q lost the game", s.Search)
	}
	// One more move, then the address bar as a bookmark in another tab.
	playHuman(tb, r, rng, 1)
	s = tb.state()
	href := eval[string](tb, `location.href`)
	other := newTab(t, browser, srv)
	other.do("open the bookmark", chromedp.Navigate(href))
	o := other.waitFor("the bookmarked game", 20*time.Second, func(s pageState) bool { return s.Ready == "true" && settled(s) })
	if o.Fen != s.Fen || len(o.Plies) != len(s.Plies) {
		t.Errorf("the bookmark %s shows %s, the page it came from %s", href, o.summary(), s.summary())
	}

	// The engine plays first when it is South.
	tb.open("game=katro-4x4&south=sower&north=human&movetime=50&animate=off")
	s = tb.waitFor("the engine's first move", 20*time.Second, func(s pageState) bool {
		return settled(s) && len(s.Plies) > 0
	})
	r = refereeFor(t, board.NameKatro4x4, "", false, true)
	r.follow(tb, s)
	r.check(tb, s)

	// CaptureSide: a Hoyito III move that captures one of its own fours
	// captures it under "any" and not under "opponent".
	pos, m := ownFourCapture(t)
	hoyito, _ := board.New(board.NameHoyito3)
	oppV, _ := hoyito.WithRules(board.Rules{CaptureSide: board.CaptureOpponent, LastFour: board.LastFourNorth, Repetition: board.RepetitionOff, NoCaptureLimit: 50})
	q = url.Values{"game": {board.NameHoyito3}, "south": {"human"}, "north": {"human"}, "animate": {"off"},
		"captureside": {"opponent"}, "lastfour": {"north"}, "repetition": {"off"}, "nocapturelimit": {"50"},
		"fen": {pos}, "moves": {m}}
	tb.open(q.Encode())
	s = tb.waitFor("the Hoyito III game", 20*time.Second, settled)
	p, err := oppV.ParsePosition(pos)
	if err != nil {
		t.Fatal(err)
	}
	r = newReferee(t, oppV, p, true, true)
	r.follow(tb, s)
	r.check(tb, s)
	for id, want := range map[string]string{"#captureside-select": "opponent", "#lastfour-select": "north", "#repetition-select": "off", "#nocapturelimit-input": "50"} {
		if got := eval[string](tb, `document.querySelector(`+strconv.Quote(id)+`).value`); got != want {
			t.Errorf("%s: %q, want %q from the address bar", id, got, want)
		}
	}
}

// ownFourCapture finds, in random Hoyito III games, a position and a move
// that make a four in the mover's own row: the move's result differs
// between CaptureSide any and opponent.
func ownFourCapture(t *testing.T) (string, string) {
	v, _ := board.New(board.NameHoyito3)
	anyV, _ := v.WithRules(board.Rules{CaptureSide: board.CaptureAny, LastFour: board.LastFourNorth, NoCaptureLimit: 50})
	oppV, _ := v.WithRules(board.Rules{CaptureSide: board.CaptureOpponent, LastFour: board.LastFourNorth, NoCaptureLimit: 50})
	rng := rand.New(rand.NewPCG(5, 0))
	for range 200 {
		p := oppV.Start()
		for ply := 0; ply < 60 && len(p.LegalMoves()) > 0; ply++ {
			fen := p.String()
			pa, err := anyV.ParsePosition(fen)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range p.LegalMoves() {
				a, err1 := pa.After(m)
				o, err2 := p.After(m)
				if err1 == nil && err2 == nil && a.String() != o.String() {
					return fen, m.String()
				}
			}
			l := p.LegalMoves()
			if p, _ = p.After(l[rng.IntN(len(l))]); p.Status(nil).Over() {
				break
			}
		}
	}
	t.Fatal("no Hoyito III move captures its own four in 200 random games")
	return "", ""
}

// testMoveList clicks the move list to show an earlier ply and back.
func testMoveList(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	r, s := openGame(tb, board.NameKatro4x4, "south=human&north=human&animate=off&moves="+url.QueryEscape("a1 a4 b1 b4 c1"))
	for _, k := range []int{2, 1, len(s.Plies)} {
		tb.click(fmt.Sprintf(`#movelist li[data-ply="%d"]`, k))
		s := tb.waitFor(fmt.Sprintf("ply %d shown", k), 10*time.Second, func(s pageState) bool {
			return s.Busy == "false" && s.Fen == r.shown[k].fen
		})
		for _, it := range s.Plies {
			if it.Current != (it.Ply == strconv.Itoa(k)) {
				t.Errorf("showing ply %d: item %s has aria-current=%v", k, it.Ply, it.Current)
			}
		}
		got := map[string]int{}
		for _, h := range s.Holes {
			got[h.Name], _ = strconv.Atoi(h.Seeds)
		}
		if !mapsEqual(got, r.shown[k].holes) {
			t.Errorf("showing ply %d: seeds %v, want %v", k, got, r.shown[k].holes)
		}
		if f := fenInput(tb); f != r.shown[k].fen {
			t.Errorf("showing ply %d: #fen-input holds %q, want the shown %q", k, f, r.shown[k].fen)
		}
	}
	// While the person edits the notation box, a new position shown
	// leaves it alone; once it has lost the focus it follows again.
	last := len(s.Plies)
	tb.do("edit #fen-input", chromedp.Focus(chromedp.CSS("#fen-input")), chromedp.SendKeys(chromedp.CSS("#fen-input"), "x"))
	edited := fenInput(tb)
	if edited == r.shown[last].fen {
		t.Fatalf("typing in #fen-input left it at %q", edited)
	}
	eval[bool](tb, `(() => { document.querySelector('#prev').click(); return true; })()`)
	tb.waitFor("the ply before shown", 10*time.Second, func(s pageState) bool { return s.Busy == "false" && s.Fen == r.shown[last-1].fen })
	if f, focused := fenInput(tb), eval[bool](tb, `document.activeElement === document.querySelector('#fen-input')`); f != edited || !focused {
		t.Errorf("#fen-input being edited: holds %q (focused %v) after a new position was shown, want the edit %q kept", f, focused, edited)
	}
	eval[bool](tb, `(() => { document.activeElement.blur(); return true; })()`)
	tb.click("#next")
	tb.waitFor("the last ply shown", 10*time.Second, func(s pageState) bool { return s.Busy == "false" && s.Fen == r.shown[last].fen })
	if f := fenInput(tb); f != r.shown[last].fen {
		t.Errorf("#fen-input after the edit lost the focus and ply %d was shown: %q, want %q", last, f, r.shown[last].fen)
	}
	// Play from ply 2: the game is cut there and goes on.
	tb.click(`#movelist li[data-ply="2"]`)
	tb.waitFor("ply 2 shown", 10*time.Second, func(s pageState) bool { return s.Busy == "false" && s.Fen == r.shown[2].fen })
	tb.click("#resume")
	s = tb.waitFor("the game cut at ply 2", 10*time.Second, func(s pageState) bool { return settled(s) && len(s.Plies) == 2 })
	r.truncate(2)
	r.check(tb, s)
	playHuman(tb, r, rand.New(rand.NewPCG(31, 0)), 1)

	// Copy position: the shown notation goes to the clipboard.
	tb.do("allow the clipboard", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		for _, name := range []string{"clipboard-read", "clipboard-write"} {
			_, err := cdp.Call(ctx, chromedp.FromContext(ctx).Browser, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
				Permission: &cdpbrowser.PermissionDescriptor{Name: name}, Setting: cdpbrowser.PermissionSettingGranted, Origin: strings.TrimSuffix(srv.url, "/")})
			if err != nil {
				return err
			}
		}
		return nil
	}))
	tb.click("#copy-fen")
	want := r.g.Position()
	deadline := time.Now().Add(5 * time.Second)
	var got string
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(tb.ctx, 5*time.Second)
		got, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
		cancel()
		if got == want.String() {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got != want.String() {
		t.Errorf("after Copy position the clipboard holds %q, want %q", got, want.String())
	}
}

// fenInput returns what the notation box holds.
func fenInput(tb *tab) string {
	tb.t.Helper()
	return eval[string](tb, `document.querySelector('#fen-input').value`)
}

// testKeyboard plays a move with the keyboard: focus a legal hole, press
// Enter.
func testKeyboard(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	tb.open("game=katro-4x4&south=human&north=human&animate=off")
	r := refereeFor(t, board.NameKatro4x4, "", true, true)
	tb.do("focus c1 and press Enter",
		chromedp.Focus(chromedp.CSS(`[data-hole="c1"]`)),
		chromedp.KeyEvent(kb.Enter))
	s := tb.waitFor("the move from the keyboard", 10*time.Second, func(s pageState) bool {
		return settled(s) && len(s.Plies) == 1
	})
	r.follow(tb, s)
	if r.g.Moves()[0].String() != "c1" {
		t.Errorf("Enter on c1 played %s", r.g.Moves()[0])
	}
	r.check(tb, s)
}

// hoyitoFind plays random Hoyito III games until it finds a position with
// a legal move m such that ok(p, m) holds.
func hoyitoFind(t *testing.T, seed uint64, ok func(p board.Position, m board.Move) bool) (board.Position, board.Move) {
	t.Helper()
	v, _ := board.New(board.NameHoyito3)
	rng := rand.New(rand.NewPCG(seed, 0))
	for range 500 {
		g := board.NewGame(v.Start())
		for !g.Status().Over() {
			p := g.Position()
			l := p.LegalMoves()
			for _, m := range l {
				if ok(p, m) {
					return p, m
				}
			}
			if err := g.Play(l[rng.IntN(len(l))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Fatal("no such Hoyito III position in 500 random games")
	return board.Position{}, 0
}

// testHoyitoTurns plays a Hoyito III capture that earns an extra turn and
// a forced pass by clicking, in positions set up from the address bar.
func testHoyitoTurns(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	extra, m := hoyitoFind(t, 21, func(p board.Position, m board.Move) bool {
		q, err := p.After(m)
		return err == nil && m != board.Pass && q.Side() == p.Side() && len(q.LegalMoves()) > 0 && !q.Status(nil).Over()
	})
	pass, _ := hoyitoFind(t, 22, func(p board.Position, m board.Move) bool {
		return m == board.Pass && !p.Status(nil).Over()
	})
	for _, c := range []struct {
		name string
		p    board.Position
		m    board.Move
	}{{"extra turn", extra, m}, {"pass", pass, board.Pass}} {
		q := url.Values{"game": {board.NameHoyito3}, "south": {"human"}, "north": {"human"}, "animate": {"off"}, "fen": {c.p.String()}}
		tb.open(q.Encode())
		r := newReferee(t, c.p.Variant(), c.p, true, true)
		s := tb.waitFor("the position", 20*time.Second, settled)
		r.follow(tb, s)
		r.check(tb, s)
		tb.click(moveSelector(c.m))
		s = tb.waitFor("the board after "+c.m.String(), 20*time.Second, func(s pageState) bool {
			return settled(s) && len(s.Plies) == 1
		})
		r.follow(tb, s)
		if got := r.g.Moves()[0]; got != c.m {
			t.Fatalf("%s: clicked %s, the page played %s", c.name, c.m, got)
		}
		r.check(tb, s)
		// The same side moves again after an extra turn; after the pass
		// the other side, with a sowing or a second pass.
		playHuman(tb, r, rand.New(rand.NewPCG(23, 0)), 1)
		if c.name == "extra turn" && r.g.Moves()[1] == board.Pass {
			t.Errorf("extra turn: the second move is a pass")
		}
		tb.screenshot(strings.ReplaceAll(c.name, " ", "-"))
	}
}

// testLossOnTime lets South's clock run out: the page shows the game
// over, won by North, with the reason.
func testLossOnTime(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	tb.open("game=katro-4x4&south=human&north=human&tc=1%2B0&animate=off")
	s := tb.waitFor("South's clock to run out", 20*time.Second, func(s pageState) bool { return s.Turn == "over" })
	if s.Status != "north" || s.Result == nil || !strings.Contains(*s.Result, "South lost on time") || len(s.Plies) != 0 {
		t.Errorf("after South's clock ran out: %s", s.summary())
	}
	for _, h := range s.Holes {
		if h.Legal != "false" {
			t.Errorf("after the game ended, %s has data-legal=%q", h.Name, h.Legal)
		}
	}
	if c := eval[string](tb, `document.querySelector('#clock-south').textContent`); c != "0:00.0" {
		t.Errorf("South's clock shows %q, want 0:00.0", c)
	}
	tb.screenshot("lost-on-time")
}
