package gui_test

import (
	"context"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/sower-engine/sower/board"
)

// controls is what the page shows of the controls that act on the game
// in play, the status line, the note under it and the result card.
type controls struct {
	Status                      string
	PauseText, PausePressed     string
	PauseDisabled, StepDisabled bool
	ResignHidden                bool
	Note                        string
	NoteHidden                  bool
	CardHidden                  bool
	CardText                    string
	Accuracy                    string
	Board                       string // the shown position
}

const controlsJS = `(() => {
  const q = (s) => document.querySelector(s);
  return {
    status: q('#status-text').textContent,
    pauseText: q('#pause').textContent, pausePressed: q('#pause').getAttribute('aria-pressed'),
    pauseDisabled: q('#pause').disabled, stepDisabled: q('#step').disabled, resignHidden: q('#resign').hidden,
    note: q('#board-note').textContent, noteHidden: q('#board-note').hidden,
    cardHidden: q('#end-card').hidden, cardText: q('#end-card').textContent,
    accuracy: q('#end-review-box .end-accuracy') ? q('#end-review-box .end-accuracy').textContent : '',
    board: q('#status').dataset.fen,
  };
})()`

func readControls(tb *tab) controls { return eval[controls](tb, controlsJS) }

// waitControls polls the controls until ok holds.
func waitControls(tb *tab, what string, ok func(c controls) bool) controls {
	tb.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		c := readControls(tb)
		if ok(c) {
			return c
		}
		if time.Now().After(deadline) {
			tb.fail("waited for %s; controls %+v", what, c)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// elementBox is where an element is, and the window.
type elementBox struct {
	Top, Bottom, Left, Right, ScrollY, InnerHeight, InnerWidth float64
	Missing, Disabled                                          bool
}

// steady waits until an element stays where it is (the board refits a
// frame after what is under it changes height) and returns its box.
func (tb *tab) steady(sel string) elementBox {
	tb.t.Helper()
	js := `((sel) => { const e = document.querySelector(sel); if (!e) return { missing: true };
		const r = e.getBoundingClientRect();
		return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, scrollY, innerHeight, innerWidth, disabled: !!e.disabled }; })(` + jsQuote(sel) + `)`
	b := eval[elementBox](tb, js)
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		now := eval[elementBox](tb, js)
		if now == b {
			break
		}
		b = now
	}
	return b
}

// clickSteady clicks an element once it stays where it is.
func (tb *tab) clickSteady(sel string) {
	tb.t.Helper()
	tb.steady(sel)
	tb.click(sel)
}

// clickInView clicks an element that must be in view as the page stands:
// inside the window, with the page not scrolled, so that the person need
// not scroll to find it.
func (tb *tab) clickInView(sel string) {
	tb.t.Helper()
	b := tb.steady(sel)
	if b.Missing || b.Disabled || b.Top < 0 || b.Left < 0 || b.Bottom > b.InnerHeight+0.5 || b.Right > b.InnerWidth+0.5 || b.ScrollY != 0 {
		tb.fail("%s is not in view to be tapped: %+v", sel, b)
	}
	tb.click(sel)
}

func jsQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

// testPhoneWholeStory plays a whole katro-4x4 game against the engine on
// a phone (390x844), reviews it from the result card, explores a side
// line from a reviewed ply, and starts a rematch with the colours
// swapped: every control tapped is in view, the page never scrolled.
func testPhoneWholeStory(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	tb.setViewport(390, 844)
	r, _ := openGame(tb, board.NameKatro4x4, "south=human&north=sower&depth=2&animate=off")
	playHuman(tb, r, rand.New(rand.NewPCG(61, 0)), 1000)
	if !r.g.Status().Over() {
		t.Fatalf("the game did not end")
	}
	c := waitControls(tb, "the result card", func(c controls) bool { return !c.CardHidden })
	if !c.PauseDisabled || !c.StepDisabled || !c.ResignHidden || c.PausePressed != "false" {
		t.Errorf("a finished game: %+v; want Pause and Step disabled, no Resign", c)
	}
	tb.screenshot("phone-over")
	// A review at a small budget, from the result card.
	eval[bool](tb, `(() => { document.querySelector('#review-kind').value = 'depth'; document.querySelector('#review-value').value = '6'; return true; })()`)
	tb.clickInView("#end-review")
	c = waitControls(tb, "the review in the result card", func(c controls) bool { return c.Accuracy != "" })
	if !regexp.MustCompile(`Accuracy: South \d+% .* North \d+%.*Average loss: South \d+\.\d · North \d+\.\d points of win chance`).MatchString(c.Accuracy) {
		t.Errorf("the result card after the review: accuracy %q", c.Accuracy)
	}
	tb.screenshot("phone-reviewed")
	// The mistakes are a tap away, and a reviewed ply's better move can
	// be explored as a side line.
	if !eval[bool](tb, `document.querySelector('#next-mistake').disabled`) {
		tb.clickInView("#next-mistake")
		tb.waitFor("a mistake shown", 10*time.Second, func(s pageState) bool {
			return s.Busy == "false" && len(s.Plies) == r.g.Ply() && !s.Plies[len(s.Plies)-1].Current
		})
	}
	tb.screenshot("phone-mistake")
	// A side line from a ply where the person is to move, and back.
	exploreOnPhone(tb, r)
	// The rematch: the colours swapped, the engine South now.
	tb.clickInView("#rematch")
	s := tb.waitFor("the rematch", 20*time.Second, func(s pageState) bool { return len(s.Plies) >= 1 && s.Turn == "human" })
	if got := eval[[2]string](tb, `[document.querySelector('#south-name').textContent, document.querySelector('#north-name').textContent]`); got != [2]string{"South · sower", "North · human"} {
		t.Errorf("the rematch's players: %q", got)
	}
	if s.Plies[0].Move == "" || !strings.Contains(s.Search, "south=sower") {
		t.Errorf("the rematch: %s, address %q", s.summary(), s.Search)
	}
}

// testPauseAfterReview: a review on the person's turn leaves play as it
// was (the engine answers the next move, the status never says "your
// move" while the engine is paused without saying so); an opened record
// is paused and says so; a finished game has no Pause, Step or Resign,
// looking back too.
func testPauseAfterReview(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	dir := allowDownloads(tb)
	r, _ := openGame(tb, board.NameKatro4x4, "south=human&north=sower&movetime=50&animate=off")
	playHuman(tb, r, rand.New(rand.NewPCG(62, 0)), 1)
	eval[bool](tb, `(() => { document.querySelector('#review-kind').value = 'depth'; document.querySelector('#review-value').value = '4'; return true; })()`)
	tb.click("#review")
	waitReview(tb, "the review", 20*time.Second, func(r reviewView) bool { return !r.Running && r.Plies == "2" })
	c := readControls(tb)
	if strings.Contains(c.Status, "paused") || c.PausePressed != "false" || c.PauseDisabled {
		t.Errorf("after a review on the person's turn: %+v; want play as before, not paused", c)
	}
	playHuman(tb, r, rand.New(rand.NewPCG(63, 0)), 1) // the engine answers
	if len(tb.state().Plies) < 4 && tb.state().Turn != "over" {
		t.Errorf("the engine did not answer after the review: %s", tb.state().summary())
	}
	// An opened record is paused, and the status line says so.
	saved := saveRecord(tb, dir, "#export-jsonl", ".jsonl")
	tb.do("open the record", chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{saved}))
	c = waitControls(tb, "the record, paused", func(c controls) bool { return c.PausePressed == "true" })
	if !strings.Contains(c.Status, "your move") || !strings.Contains(c.Status, "sower paused: press Resume") || c.PauseText != "Resume" {
		t.Errorf("an opened record: %+v; want the status to say the engine is paused", c)
	}
	// A finished game between engines, looking back: nothing to pause.
	tb.open("game=katro-4x4&south=sower&north=sower&animate=off&fen=" + url.QueryEscape("0,0,0,0/0,2,0,0/7,1,7,7/0,0,5,3 S 0") + "&moves=d1")
	tb.waitFor("the finished game", 10*time.Second, func(s pageState) bool { return s.Turn == "over" })
	tb.click("#first")
	tb.waitFor("ply 0", 10*time.Second, func(s pageState) bool { return s.Turn != "over" && s.Busy == "false" })
	c = readControls(tb)
	if !c.PauseDisabled || c.PausePressed != "false" || !c.StepDisabled || !c.ResignHidden || c.CardHidden || !strings.Contains(c.CardText, "South wins") {
		t.Errorf("a finished engine game looked back at: %+v; want Pause and Step disabled, not pressed, the result in the card", c)
	}
}

// testHintsAndResign taps holes that cannot be played (the hint says
// why), a hole while an earlier ply is shown (the page asks before it
// cuts the game), and resigns.
func testHintsAndResign(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	openGame(tb, board.NameKatro4x4, "south=human&north=human&animate=off&moves="+url.QueryEscape("a1 a4 b1"))
	for hole, want := range map[string]string{"a1": "a1 is South's hole: North sows from its own half", "c3": "not in North's back row"} {
		tb.clickSteady(`[data-hole="` + hole + `"]`)
		c := waitControls(tb, "the hint for "+hole, func(c controls) bool { return !c.NoteHidden && strings.Contains(c.Note, hole) })
		if !strings.Contains(c.Note, want) {
			t.Errorf("tapping %s: hint %q, want %q", hole, c.Note, want)
		}
	}
	// Looking back, a tap asks first: keeping the game changes nothing,
	// playing cuts it.
	tb.click(`#movelist li[data-ply="1"]`)
	s := tb.waitFor("ply 1", 10*time.Second, func(s pageState) bool { return s.Busy == "false" && s.Plies[0].Current })
	legal := legalOther(s, "a4") // the game's own a4 would step forward
	tb.clickSteady(`[data-hole="` + legal + `"]`)
	c := waitControls(tb, "the question", func(c controls) bool { return !c.NoteHidden && strings.Contains(c.Note, "drops the 2 plies") })
	tb.clickSteady("#cut-keep")
	time.Sleep(300 * time.Millisecond)
	if s := tb.state(); len(s.Plies) != 3 || !readControls(tb).NoteHidden {
		t.Fatalf("Keep the game: %s, note %q", s.summary(), c.Note)
	}
	tb.clickSteady(`[data-hole="` + legal + `"]`)
	waitControls(tb, "the question again", func(c controls) bool { return !c.NoteHidden })
	tb.clickSteady("#cut-play")
	tb.waitFor("the game cut and the move played", 10*time.Second, func(s pageState) bool { return s.Busy == "false" && len(s.Plies) == 2 && s.Plies[1].Move == legal })
	// Resign, tapped twice.
	tb.clickSteady("#resign")
	if got := eval[string](tb, `document.querySelector('#resign').textContent`); got != "Resign? Tap again" {
		t.Errorf("Resign tapped once: %q", got)
	}
	tb.clickSteady("#resign")
	s = tb.waitFor("the resignation", 10*time.Second, func(s pageState) bool { return s.Turn == "over" })
	c = readControls(tb)
	if *s.Result != "North wins: South resigned" || c.CardHidden || !c.ResignHidden {
		t.Errorf("after South resigned: result %q, %+v", *s.Result, c)
	}
	tb.clickSteady(`[data-hole="a1"]`)
	if c := waitControls(tb, "the hint", func(c controls) bool { return !c.NoteHidden }); !strings.Contains(c.Note, "over") {
		t.Errorf("a tap on a finished game: %q", c.Note)
	}
	// A file that is no game record is said to be none.
	bad := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(bad, []byte("my notes\nabout the game\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tb.do("open a file that is no record", chromedp.SetUploadFiles(chromedp.CSS("#import-file"), []string{bad}))
	s = tb.waitFor("the refusal", 10*time.Second, func(s pageState) bool { return message(s) != "" })
	if m := message(s); !strings.Contains(m, "not a game record") || strings.Contains(m, "movetext") {
		t.Errorf("opening notes.txt: %q", m)
	}
}

// legalOther returns a legal hole of the shown position other than the
// game's next move there, or "".
func legalOther(s pageState, next string) string {
	for _, h := range s.Holes {
		if h.Legal == "true" && h.Name != next {
			return h.Name
		}
	}
	return ""
}

// exploreOnPhone steps back through the finished game with the toolbar
// to a ply with another legal move than the game's, explores it as a
// side line (the question's button, then a move on the line's board) and
// goes back to the game: every control in view.
func exploreOnPhone(tb *tab, r *referee) {
	tb.t.Helper()
	moves := r.g.Moves()
	tb.clickInView("#last")
	for {
		s := tb.waitFor("a ply shown", 10*time.Second, func(s pageState) bool { return s.Busy == "false" })
		view := -1
		for i, p := range s.Plies {
			if p.Current {
				view = i + 1
			}
		}
		if view < 0 {
			view = 0
		}
		if view < len(moves) {
			if alt := legalOther(s, moves[view].String()); alt != "" {
				tb.clickInView(`[data-hole="` + alt + `"]`)
				tb.clickInView("#cut-side")
				g := board.NewGame(r.g.Start())
				g.PlayAll(moves[:view])
				m, _ := r.v.ParseMove(alt)
				g.Play(m)
				want := g.Position()
				ls := tb.waitFor("the side line", 10*time.Second, func(s pageState) bool { return s.Fen == want.String() })
				if c := readControls(tb); !c.CardHidden || !eval[bool](tb, `!document.querySelector('#side-line').hidden`) {
					tb.t.Errorf("exploring a side line: the card shown %v, no bar", !c.CardHidden)
				}
				if next := legalOther(ls, ""); next != "" && !g.Status().Over() {
					tb.clickInView(`[data-hole="` + next + `"]`)
					tb.waitFor("the side line played on", 10*time.Second, func(s pageState) bool { return s.Fen != want.String() && s.Busy == "false" })
				}
				tb.screenshot("phone-side-line")
				tb.clickInView("#line-back")
				tb.waitFor("the game again", 10*time.Second, func(s pageState) bool { return len(s.Plies) > view-1 && (view == 0 || s.Plies[view-1].Current) })
				if !eval[bool](tb, `!!document.querySelector('#movelist li.side-line-item')`) {
					tb.t.Errorf("the side line is not in the move list")
				}
				waitControls(tb, "the result card again", func(c controls) bool { return !c.CardHidden })
				return
			}
		}
		if view == 0 {
			tb.t.Fatalf("no ply of the game has another legal move than the game's")
		}
		tb.clickInView("#prev")
		tb.waitFor("the ply before", 10*time.Second, func(s pageState) bool { return s.Busy == "false" && (view == 1 || s.Plies[view-2].Current) })
	}
}

// testSideLinesPage explores a side line from an earlier ply of a game
// between two people: the question's Side line, a move on the line's
// board, a move of the line's bar, another move there (a line from within
// the line, the first kept), Back to the game; the lines are in the move
// list (the second nested under the first) and in the record, a tap on
// the game's own next move steps forward, and Drop forgets each line.
func testSideLinesPage(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	dir := allowDownloads(tb)
	r, _ := openGame(tb, board.NameKatro4x4, "south=human&north=human&animate=off&moves="+url.QueryEscape("a1 a4 b1 b4"))
	tb.click(`#movelist li[data-ply="1"]`)
	s := tb.waitFor("ply 1", 10*time.Second, func(s pageState) bool { return s.Busy == "false" && s.Plies[0].Current })
	alt := legalOther(s, "a4")
	after := func(ms ...string) string {
		g := board.NewGame(r.g.Start())
		for _, m := range ms {
			mv, _ := r.v.ParseMove(m)
			if err := g.Play(mv); err != nil {
				t.Fatal(err)
			}
		}
		p := g.Position()
		return p.String()
	}
	tb.clickSteady(`[data-hole="` + alt + `"]`)
	tb.clickSteady("#cut-side")
	s = tb.waitFor("the side line", 10*time.Second, func(s pageState) bool { return s.Fen == after("a1", alt) && s.Busy == "false" })
	if st := readControls(tb).Status; !strings.Contains(st, "Side line from ply 1: "+alt) {
		t.Errorf("the side line's status: %q", st)
	}
	next := legalOther(s, "")
	tb.clickSteady(`[data-hole="` + next + `"]`)
	tb.waitFor("the line played on", 10*time.Second, func(s pageState) bool { return s.Fen == after("a1", alt, next) && s.Busy == "false" })
	tb.clickSteady("#line-moves .line-move")
	s = tb.waitFor("the line's first move", 10*time.Second, func(s pageState) bool { return s.Fen == after("a1", alt) && s.Busy == "false" })
	// Another move than the line's own: a line from within it.
	other := legalOther(s, next)
	tb.clickSteady(`[data-hole="` + other + `"]`)
	tb.waitFor("the line from within the line", 10*time.Second, func(s pageState) bool { return s.Fen == after("a1", alt, other) && s.Busy == "false" })
	type item struct{ Text, Parent string }
	items := eval[[]item](tb, `[...document.querySelectorAll('#movelist li.side-line-item')].map((li) => ({ text: li.textContent, parent: li.dataset.parent || '' }))`)
	if len(items) != 2 || items[0] != (item{"⑂ " + alt + " " + next, ""}) || items[1] != (item{"⑂ … " + other, "0"}) {
		t.Errorf("the move list's side lines: %+v, want the first line, then the one from within it nested under it", items)
	}
	tb.clickSteady("#line-back")
	tb.waitFor("the game at ply 1", 10*time.Second, func(s pageState) bool { return s.Fen == after("a1") && s.Busy == "false" })
	if got := eval[string](tb, `document.querySelector('#movelist li.side-line-item[data-from="1"]').textContent`); got != "⑂ "+alt+" "+next {
		t.Errorf("the side line in the move list: %q", got)
	}
	if s := tb.state(); len(s.Plies) != 4 {
		t.Errorf("after the side line the game has %d plies, want 4", len(s.Plies))
	}
	data, err := os.ReadFile(saveRecord(tb, dir, "#export-jsonl", ".jsonl"))
	if err != nil || !strings.Contains(string(data), `"lines":[["`+alt+`","`+next+`"],["`+alt+`","`+other+`"]]`) {
		t.Errorf("the record's side line (%v):\n%s", err, data)
	}
	// The game's own move steps forward, without a question.
	tb.clickSteady(`[data-hole="a4"]`)
	tb.waitFor("ply 2", 10*time.Second, func(s pageState) bool { return s.Busy == "false" && s.Plies[1].Current && len(s.Plies) == 4 })
	// The lines again, from the move list, then dropped.
	tb.clickSteady(`#movelist li.side-line-item.nested`)
	tb.waitFor("the nested line again", 10*time.Second, func(s pageState) bool { return s.Fen == after("a1", alt, other) && s.Busy == "false" })
	tb.clickSteady("#line-drop")
	tb.waitFor("one line left", 10*time.Second, func(s pageState) bool {
		return s.Busy == "false" && s.Fen == after("a1", "a4") && eval[int](tb, `document.querySelectorAll('#movelist li.side-line-item').length`) == 1
	})
	tb.clickSteady(`#movelist li.side-line-item`)
	tb.waitFor("the side line again", 10*time.Second, func(s pageState) bool { return s.Fen == after("a1", alt, next) && s.Busy == "false" })
	tb.clickSteady("#line-drop")
	tb.waitFor("the line dropped", 10*time.Second, func(s pageState) bool {
		return s.Busy == "false" && s.Fen == after("a1", "a4") && !eval[bool](tb, `!!document.querySelector('#movelist li.side-line-item')`)
	})
}

// testResultCardInView plays a whole game against the engine in a small
// window (the narrowest phone, or a phone held sideways), reviews it from
// the result card and goes to a mistake: the card's buttons (Rematch, New
// game, Review, ⚙, the mistakes, Explore), the score and Take back are in
// view with the page not scrolled, before the review and at the mistake.
func testResultCardInView(t *testing.T, browser context.Context, srv *guiServer, game string, w, h int64, seed uint64) {
	tb := newTab(t, browser, srv)
	tb.setViewport(w, h)
	r, _ := openGame(tb, game, "south=human&north=sower&depth=2&animate=off")
	playHuman(tb, r, rand.New(rand.NewPCG(seed, 0)), 1000)
	if !r.g.Status().Over() {
		t.Fatalf("the game did not end in %d plies", r.g.Ply())
	}
	waitControls(tb, "the result card", func(c controls) bool { return !c.CardHidden })
	inView := func(when string, sels ...string) {
		t.Helper()
		for _, sel := range sels {
			b := tb.steady(sel)
			if b.Missing || b.Top < 0 || b.Left < 0 || b.Bottom > b.InnerHeight+0.5 || b.Right > b.InnerWidth+0.5 || b.ScrollY != 0 {
				tb.fail("%dx%d %s, %s: %s is not in view: %+v", w, h, game, when, sel, b)
			}
		}
	}
	inView("the game over", "#rematch", "#again", "#end-review", "#end-settings", "#eval-now", "#takeback")
	eval[bool](tb, `(() => { document.querySelector('#review-kind').value = 'depth'; document.querySelector('#review-value').value = '3'; return true; })()`)
	tb.clickInView("#end-review")
	waitControls(tb, "the review in the result card", func(c controls) bool { return c.Accuracy != "" })
	inView("reviewed", "#rematch", "#again", "#end-settings", "#prev-mistake", "#next-mistake", "#eval-now", "#takeback")
	if eval[bool](tb, `document.querySelector('#next-mistake').disabled`) {
		t.Fatalf("%dx%d %s: no mistake in the review of a game of random moves", w, h, game)
	}
	tb.clickInView("#next-mistake")
	waitControls(tb, "a mistake's better move", func(c controls) bool { return strings.Contains(c.CardText, "Explore") })
	inView("at a mistake", "#rematch", "#again", "#end-settings", "#prev-mistake", "#next-mistake", "#end-explore", "#eval-now", "#takeback")
	tb.screenshot("mistake")
}
