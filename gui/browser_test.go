package gui_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/internal/sowertest"
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
	bin := sowertest.Build(t, raceEnabled)
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
		{"new-game form layout", false, testFormLayout},
		{"loss on time", false, testLossOnTime},
		{"engine trouble", false, func(t *testing.T, browser context.Context, srv *guiServer) { testTrouble(t, browser, bin) }},
		{"foreign origin", true, func(t *testing.T, browser context.Context, srv *guiServer) { testOrigin(t, srv) }},
		{"layout", false, testLayout},
		{"bad position in the address", false, testBadAddress},
		{"watching engines at 100 ms", false, testWatchEngines},
		{"scores", true, func(t *testing.T, browser context.Context, srv *guiServer) { testScores(t, browser, bin) }},
		{"phone game katro 360x740", false, func(t *testing.T, browser context.Context, srv *guiServer) {
			testPhoneGame(t, browser, srv, board.NameKatro, 360, 740, 31)
		}},
		{"phone game katro 390x844", false, func(t *testing.T, browser context.Context, srv *guiServer) {
			testPhoneGame(t, browser, srv, board.NameKatro, 390, 844, 32)
		}},
		{"phone game hoyito3 390x844", false, func(t *testing.T, browser context.Context, srv *guiServer) {
			testPhoneGame(t, browser, srv, board.NameHoyito3, 390, 844, 33)
		}},
		{"phone game hoyito3 360x740", false, func(t *testing.T, browser context.Context, srv *guiServer) {
			testPhoneGame(t, browser, srv, board.NameHoyito3, 360, 740, 34)
		}},
		{"take back between engines", false, testTakeBackEngines},
		{"honest scores", true, func(t *testing.T, browser context.Context, srv *guiServer) { testHonestScores(t, browser, bin) }},
		{"hoyito3 proven margin", false, func(t *testing.T, browser context.Context, srv *guiServer) { testHoyitoMargin(t, browser, bin) }},
		{"hoyito3 margin graph", false, testHoyitoGraph},
		{"bad address parameters", false, testAddressParams},
		{"bad form values", false, testFormRefusals},
		{"play aids on a phone", false, testPlayAids},
		{"traditional match", false, testTraditionalMatch},
		{"wins in N", false, testWinsIn},
		{"phone whole story", false, testPhoneWholeStory},
		{"result card katro 360x740", false, func(t *testing.T, browser context.Context, srv *guiServer) {
			testResultCardInView(t, browser, srv, board.NameKatro, 360, 740, 71)
		}},
		{"result card katro-6x3 360x740", false, func(t *testing.T, browser context.Context, srv *guiServer) {
			testResultCardInView(t, browser, srv, board.NameKatro6x3, 360, 740, 72)
		}},
		{"result card hoyito3 844x390", false, func(t *testing.T, browser context.Context, srv *guiServer) {
			testResultCardInView(t, browser, srv, board.NameHoyito3, 844, 390, 73)
		}},
		{"pause after a review", false, testPauseAfterReview},
		{"hints and resign", false, testHintsAndResign},
		{"side lines", false, testSideLinesPage},
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
