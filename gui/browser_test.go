package gui_test

import (
	"context"
	"fmt"
	"math/rand/v2"
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

// The browser tests drive "sower gui" with Debian's chromium, headless,
// through the page's DOM contract (data-hole, data-seeds, data-legal,
// data-fen, data-status, data-turn and the control ids): every ply the
// page shows is checked against package board.
//
// Bounds on time are generous (the machine may be busy); the times are
// logged. With -short (the race detector's run, where the server and its
// engines are built with -race) only the subtests marked short run.
func TestBrowser(t *testing.T) {
	browser := newBrowser(t)
	bin := buildSower(t)
	srv := startServer(t, bin)
	cold := newTab(t, browser, srv)
	nav := cold.open("game=katro-4x4&south=human&north=sower&movetime=50&animate=off")
	ready := time.Since(srv.started)
	t.Logf("cold start: page ready %v after starting sower gui (%v after navigating)", ready, nav)
	if limit := 30 * time.Second; ready > limit && !raceEnabled {
		t.Errorf("the page took %v from a cold start of the server to be ready, more than %v", ready, limit)
	}
	r := refereeFor(t, board.NameKatro4x4, "", true, false)
	s := cold.state()
	r.follow(cold, s)
	r.check(cold, s)
	if s.Game == nil || *s.Game != board.NameKatro4x4 {
		t.Errorf("#game-select after /?game=katro-4x4: %v", s.Game)
	}

	for _, c := range []struct {
		name  string
		short bool
		run   func(t *testing.T, browser context.Context, srv *guiServer)
	}{
		{"katro-4x4 human vs engine", true, func(t *testing.T, browser context.Context, srv *guiServer) {
			testWholeGame(t, browser, srv, board.NameKatro4x4, "south=human&north=sower&movetime=50&animate=off", 1)
		}},
		{"hoyito3 engine vs human", false, func(t *testing.T, browser context.Context, srv *guiServer) {
			testWholeGame(t, browser, srv, board.NameHoyito3, "south=sower&north=human&depth=3&animate=off", 2)
		}},
		{"hoyito3 extra turn and pass", false, testHoyitoTurns},
		{"take back", false, testTakeBack},
		{"set up a position", false, testSetup},
		{"address bar", false, testURL},
		{"move list", false, testMoveList},
		{"analysis", true, testAnalysis},
		{"engine vs engine", true, testEngineGame},
		{"pause and step", false, testPauseStep},
		{"keyboard", false, testKeyboard},
		{"records", false, testRecords},
		{"animated sowing", false, testAnimation},
		{"new game from the form, clocks", false, testNewGame},
		{"flip", false, testFlip},
		{"engine trouble", false, func(t *testing.T, browser context.Context, srv *guiServer) { testTrouble(t, browser, bin) }},
		{"foreign origin", true, func(t *testing.T, browser context.Context, srv *guiServer) { testOrigin(t, srv) }},
		{"screenshot", false, testScreenshot},
		{"engines end with the server", true, testShutdown},
	} {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && !c.short {
				t.Skip("-short: the full run has it")
			}
			c.run(t, browser, srv)
		})
	}
}

// testWholeGame plays a whole game against the engine with random legal
// moves from the seed, checking every ply.
func testWholeGame(t *testing.T, browser context.Context, srv *guiServer, game, query string, seed uint64) {
	tb := newTab(t, browser, srv)
	r, _ := openGame(tb, game, query)
	t.Logf("human moves: random legal moves, seed %d", seed)
	lat := playHuman(tb, r, rand.New(rand.NewPCG(seed, 0)), 1000)
	if !r.g.Status().Over() {
		t.Fatalf("the game did not end in %d plies", r.g.Ply())
	}
	s := tb.state()
	st := r.g.Status()
	t.Logf("game over after %d plies: %s (%s); #result %q", r.g.Ply(), st.Result, st.Reason, *s.Result)
	logLatency(t, lat)
	tb.screenshot("end")
}

// latency is the time from a click on a hole to the board showing the
// move, and from then to the engine's answer, in milliseconds.
type latency struct {
	human, engine []float64
	snaps         []snapshot // every state shown after the person's moves
}

func logLatency(t *testing.T, l latency) {
	t.Helper()
	stats := func(xs []float64) string {
		if len(xs) == 0 {
			return "none"
		}
		s := slices.Clone(xs)
		slices.Sort(s)
		return fmt.Sprintf("n=%d median %.1f ms, max %.1f ms", len(s), s[len(s)/2], s[len(s)-1])
	}
	t.Logf("click to board: %s", stats(l.human))
	t.Logf("human move shown to engine move shown: %s", stats(l.engine))
	for _, x := range l.human {
		if x > 10000 && !raceEnabled {
			t.Errorf("a human move took %.0f ms to show on the board", x)
		}
	}
}

// openGame opens a game from the start position with the rest of the
// query, waits for the person's turn, and checks the page.
func openGame(tb *tab, game, query string) (*referee, pageState) {
	tb.t.Helper()
	tb.open("game=" + game + "&" + query)
	s := tb.waitFor("the game", 20*time.Second, settled)
	q, _ := url.ParseQuery(query)
	r := refereeFor(tb.t, game, "", q.Get("south") == "human", q.Get("north") == "human")
	r.follow(tb, s)
	r.check(tb, s)
	return r, s
}

// settled is a page waiting for the person, or a finished game.
func settled(s pageState) bool {
	return s.Ready == "true" && s.Busy == "false" && (s.Turn == "human" || s.Turn == "over")
}

// moveSelector is the element to click to play m.
func moveSelector(m board.Move) string {
	if m == board.Pass {
		return "#pass"
	}
	return fmt.Sprintf("[data-hole=%q]", m.String())
}

// playHuman clicks random legal moves for the person.
func playHuman(tb *tab, r *referee, rng *rand.Rand, maxMoves int) latency {
	tb.t.Helper()
	return playMoves(tb, r, func(p board.Position) board.Move {
		l := p.LegalMoves()
		return l[rng.IntN(len(l))]
	}, maxMoves)
}

// playMoves clicks the moves choose picks for the person, up to maxMoves
// of them or the end of the game, and checks every ply the page shows.
func playMoves(tb *tab, r *referee, choose func(board.Position) board.Move, maxMoves int) latency {
	tb.t.Helper()
	var lat latency
	s := tb.waitFor("the person's turn", 60*time.Second, settled)
	from := r.g.Ply()
	r.follow(tb, s)
	r.check(tb, s)
	snaps, _ := tb.takeSnapshots()
	r.checkShown(tb, snaps, from)
	for n := 0; s.Turn != "over" && n < maxMoves; n++ {
		m := choose(r.g.Position())
		from := r.g.Ply()
		tb.click(moveSelector(m))
		s = tb.waitFor("the board after "+m.String(), 60*time.Second, func(s pageState) bool {
			return settled(s) && len(s.Plies) > from
		})
		r.follow(tb, s)
		if got := r.g.Moves()[from]; got != m {
			tb.fail("clicked %s, the page played %s", m, got)
		}
		r.check(tb, s)
		snaps, clicks := tb.takeSnapshots()
		at := r.checkShown(tb, snaps, from+1)
		lat.snaps = append(lat.snaps, snaps...)
		if len(clicks) != 1 || clicks[0].Move != m.String() {
			tb.fail("recorded clicks %v, want one on %s", clicks, m)
		}
		lat.human = append(lat.human, at[from+1]-clicks[0].T)
		if t2, ok := at[from+2]; ok && !r.human[r.shown[from+1].side(r)] {
			lat.engine = append(lat.engine, t2-at[from+1])
		}
	}
	return lat
}

// side returns the side to move in a shown position.
func (p shownPos) side(r *referee) board.Side {
	pos, err := r.v.ParsePosition(p.fen)
	if err != nil {
		r.t.Fatal(err)
	}
	return pos.Side()
}

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
	oppV, _ := hoyito.WithRules(board.Rules{CaptureSide: board.CaptureOpponent, LastFour: board.LastFourNorth, NoCaptureLimit: 50})
	q = url.Values{"game": {board.NameHoyito3}, "south": {"human"}, "north": {"human"}, "animate": {"off"},
		"captureside": {"opponent"}, "lastfour": {"north"}, "nocapturelimit": {"50"},
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
	for id, want := range map[string]string{"#captureside-select": "opponent", "#lastfour-select": "north", "#nocapturelimit-input": "50"} {
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
	}
}

// testAnalysis turns analysis on and watches info lines arrive with
// growing depth, legal principal variations and well-formed scores.
func testAnalysis(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	r, _ := openGame(tb, board.NameKatro, "south=human&north=human&animate=off&moves="+url.QueryEscape("a1 f6 b1 e6"))
	tb.click("#analyse")
	watchAnalysis(tb, r.g.Position())
	tb.screenshot("analysis")
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
	if len(s.Points) == 0 {
		t.Errorf("#eval-graph has no points after %d engine moves", r.g.Ply())
		return
	}
	k, _ := strconv.Atoi(s.Points[len(s.Points)/2])
	if k < 1 || k > r.g.Ply() {
		t.Fatalf("#eval-graph point for ply %d of %d", k, r.g.Ply())
	}
	tb.click(fmt.Sprintf(`#eval-graph circle[data-ply="%d"]`, k))
	tb.waitFor(fmt.Sprintf("ply %d from the eval graph", k), 10*time.Second, func(s pageState) bool {
		return s.Fen == r.shown[k].fen
	})
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
	png := tb.pageScreenshot("readme")
	if *updateScreenshot && png != nil {
		f := filepath.Join("..", "docs", "gui.png")
		if err := os.WriteFile(f, png, 0o644); err != nil {
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

// playRandom plays n random legal moves in g and returns them.
func playRandom(g *board.Game, rng *rand.Rand, n int) []board.Move {
	var ms []board.Move
	for range n {
		p := g.Position()
		l := p.LegalMoves()
		if len(l) == 0 || g.Status().Over() {
			break
		}
		m := l[rng.IntN(len(l))]
		if err := g.Play(m); err != nil {
			panic(err)
		}
		ms = append(ms, m)
	}
	return ms
}

func mustStart(t *testing.T, game string) board.Position {
	v, err := board.New(game)
	if err != nil {
		t.Fatal(err)
	}
	return v.Start()
}

// procChildren reports whether Linux lists a process's children.
func procChildren() bool {
	_, err := os.Stat(fmt.Sprintf("/proc/%d/task/%d/children", os.Getpid(), os.Getpid()))
	return err == nil
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
// engine, and keeps the game.
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
	srv := startServer(t, bin, "--engine", "sower="+bin, "--engine", "crasher="+crasher, "--engine", "liar="+liar)
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
}
