// Tests of the search's limits and stopping, and of game ends at the root:
// node and depth limits, a context cancelled before or during a search
// (run these under the race detector), searchmoves, a finished game at the
// root, a forced Hoyito III pass, and repetition through the game's history
// before the root.

package search

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

// mustPosition parses a position of the named variant with its default
// rules.
func mustPosition(t testing.TB, game, fen string) board.Position {
	t.Helper()
	v, err := board.New(game)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func startPosition(t testing.TB, game string) board.Position {
	t.Helper()
	v, err := board.New(game)
	if err != nil {
		t.Fatal(err)
	}
	return v.Start()
}

func newEngine(t testing.TB) *Engine {
	t.Helper()
	e, err := NewEngine(16)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// newSteadyEngine returns an engine whose reports do not depend on time:
// it never reports within an iteration, however long the search runs, so
// two searches of the same position report the same lines on a busy
// machine too.
func newSteadyEngine(t testing.TB) *Engine {
	t.Helper()
	e := newEngine(t)
	e.quietPeriod = time.Duration(math.MaxInt64)
	return e
}

func runSearch(t testing.TB, e *Engine, p board.Position, history []uint64, lim Limits) Result {
	t.Helper()
	res, err := e.Search(context.Background(), p, history, lim, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkLegal fails unless m is a legal move at p.
func checkLegal(t testing.TB, p board.Position, m board.Move, what string) {
	t.Helper()
	for _, l := range p.LegalMoves() {
		if l == m {
			return
		}
	}
	t.Errorf("%s: %s is not a legal move in %s (legal: %s)", what, m, p.String(), board.FormatMoves(p.LegalMoves()))
}

// nodeOvershoot is how far past its node limit a search may count. Nodes
// are the positions the search makes, and the limit is checked at every
// one; but a node makes all its moves before searching any, so the frame
// where the limit is reached may make up to MaxMoves-1 more positions, and
// a quiescence search that sees its child stopped may make one more
// position at each of its at most maxQPly levels before it returns. The
// node limit waits for the first iteration to complete, so a search counts
// at least what a depth-1 search does.
var nodeOvershoot = uint64(max(board.MaxMoves-1, maxQPly))

func TestNodeLimit(t *testing.T) {
	limits := []uint64{1, 2, 3, 100, 1000, 4321, 20000}
	if testing.Short() {
		limits = limits[:5]
	}
	for _, game := range []string{board.NameKatro, board.NameKatro4x6, board.NameHoyito3} {
		p := startPosition(t, game)
		rootNodes := runSearch(t, newEngine(t), p, nil, Limits{Depth: 1}).Info.Nodes
		for _, lim := range limits {
			res := runSearch(t, newEngine(t), p, nil, Limits{Nodes: lim})
			if n := res.Info.Nodes; n < lim || n > max(lim+nodeOvershoot, rootNodes) {
				t.Errorf("%s, %d nodes: the search counted %d, want %d to %d", game, lim, n, lim, max(lim+nodeOvershoot, rootNodes))
			}
			checkLegal(t, p, res.Move, game)
		}
	}
}

func TestDepthLimit(t *testing.T) {
	for _, game := range []string{board.NameKatro, board.NameKatro4x6, board.NameHoyito3} {
		p := startPosition(t, game)
		for depth := 1; depth <= 6; depth++ {
			var reported []int
			res, err := newEngine(t).Search(context.Background(), p, nil, Limits{Depth: depth}, func(i Info) {
				reported = append(reported, i.Depth)
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Info.Depth != depth {
				t.Errorf("%s, depth %d: result at depth %d", game, depth, res.Info.Depth)
			}
			if len(reported) == 0 || reported[len(reported)-1] != depth {
				t.Errorf("%s, depth %d: reported depths %v", game, depth, reported)
			}
			checkLegal(t, p, res.Move, game)
		}
	}
}

func TestCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, game := range board.Names() {
		p := startPosition(t, game)
		for _, lim := range []Limits{{}, {Infinite: true}, {Depth: 30}, {MoveTime: time.Hour}} {
			res, err := newEngine(t).Search(ctx, p, nil, lim, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkLegal(t, p, res.Move, game+", cancelled")
		}
	}
}

// An infinite search stops when its context is cancelled. Nothing is said
// about how fast (the timeout only keeps a broken stop from hanging the
// tests); the race detector checks the stop path.
func TestCancelDuringSearch(t *testing.T) {
	for _, game := range []string{board.NameKatro, board.NameHoyito3} {
		p := startPosition(t, game)
		ctx, cancel := context.WithCancel(context.Background())
		reports := make(chan int, 1000)
		type outcome struct {
			res Result
			err error
		}
		done := make(chan outcome, 1)
		e := newEngine(t)
		go func() {
			res, err := e.Search(ctx, p, nil, Limits{Infinite: true}, func(i Info) {
				select {
				case reports <- i.Depth:
				default:
				}
			})
			done <- outcome{res, err}
		}()
		timeout := time.After(2 * time.Minute)
		for n := 0; n < 3; n++ {
			select {
			case <-reports:
			case o := <-done:
				t.Fatalf("%s: the infinite search ended by itself: %+v", game, o)
			case <-timeout:
				t.Fatalf("%s: no report", game)
			}
		}
		cancel()
		select {
		case o := <-done:
			if o.err != nil {
				t.Fatal(o.err)
			}
			checkLegal(t, p, o.res.Move, game+", stopped")
		case <-timeout:
			t.Fatalf("%s: the search did not stop after its context was cancelled", game)
		}
	}
}

func TestSearchMoves(t *testing.T) {
	for _, game := range board.Names() {
		p := startPosition(t, game)
		legal := p.LegalMoves()
		for _, m := range legal {
			res := runSearch(t, newEngine(t), p, nil, Limits{Depth: 4, SearchMoves: []board.Move{m}})
			if res.Move != m {
				t.Errorf("%s, searchmoves %s: best move %s", game, m, res.Move)
			}
			if len(res.Info.PV) == 0 || res.Info.PV[0] != m {
				t.Errorf("%s, searchmoves %s: PV %s", game, m, board.FormatMoves(res.Info.PV))
			}
		}
		if len(legal) >= 3 {
			two := legal[1:3]
			res := runSearch(t, newEngine(t), p, nil, Limits{Depth: 4, SearchMoves: two})
			if res.Move != two[0] && res.Move != two[1] {
				t.Errorf("%s, searchmoves %s: best move %s", game, board.FormatMoves(two), res.Move)
			}
		}
	}
	// With no legal move among them, the restriction is ignored and the
	// move is still legal.
	p := startPosition(t, board.NameKatro)
	bad := []board.Move{board.HoleMove(1, 0), board.HoleMove(5, 5)} // a2 is not in South's back row; f6 is North's
	res := runSearch(t, newEngine(t), p, nil, Limits{Depth: 2, SearchMoves: bad})
	checkLegal(t, p, res.Move, "searchmoves without a legal move")
}

func TestGameOverAtRoot(t *testing.T) {
	tests := []struct {
		name   string
		game   string
		fen    string
		reason board.Reason
		result board.Result
		score  Score
		uci    string
	}{
		{"katro side to move without seeds", board.NameKatro4x4, "8,8,8,0/8,0,0,0/0,0,0,0/0,0,0,0 S 0",
			board.ReasonNoMove, board.NorthWins, -Mate, "mate 0"},
		{"katro 6x6 north without seeds", board.NameKatro, "0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/12,12,12,12,12,12/0,0,0,0,0,0/0,0,0,0,0,0 N 5",
			board.ReasonNoMove, board.SouthWins, -Mate, "mate 0"},
		{"katro no-capture limit", board.NameKatro, "2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 200",
			board.ReasonLimit, board.Draw, 0, "cp 0"},
		{"hoyito empty board", board.NameHoyito3, "0,0,0,0,0,0/0,0,0,0,0,0 S 20 28 3",
			board.ReasonFinished, board.NorthWins, HoyitoEnd(-8, 0), "cp -800"},
		{"hoyito empty board, north to move", board.NameHoyito3, "0,0,0,0,0,0/0,0,0,0,0,0 N 20 28 3",
			board.ReasonFinished, board.NorthWins, HoyitoEnd(8, 0), "cp 800"},
		// The limit awards each row to its owner: 8 + 24 against 8 + 8.
		{"hoyito no-capture limit", board.NameHoyito3, "0,0,4,0,4,0/6,6,6,6,0,0 S 8 8 200",
			board.ReasonLimit, board.SouthWins, HoyitoEnd(16, 0), "cp 1600"},
	}
	for _, tc := range tests {
		p := mustPosition(t, tc.game, tc.fen)
		res := runSearch(t, newEngine(t), p, nil, Limits{Depth: 5})
		if res.Move != board.NoMove {
			t.Errorf("%s: move %s, want none", tc.name, res.Move)
		}
		if res.Over.Reason != tc.reason || res.Over.Result != tc.result {
			t.Errorf("%s: over %v (%v), want %v (%v)", tc.name, res.Over.Reason, res.Over.Result, tc.reason, tc.result)
		}
		if res.Info.Score != tc.score {
			t.Errorf("%s: score %d, want %d", tc.name, res.Info.Score, tc.score)
		}
		if got := res.Info.Score.UCI(p.Variant().Family()); got != tc.uci {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.uci)
		}
	}
}

func TestForcedPass(t *testing.T) {
	p := mustPosition(t, board.NameHoyito3, "1,2,3,0,0,2/0,0,0,0,0,0 S 20 20 0")
	if l := p.LegalMoves(); len(l) != 1 || l[0] != board.Pass {
		t.Fatalf("legal moves %s, want pass", board.FormatMoves(l))
	}
	for _, lim := range []Limits{{Depth: 1}, {Depth: 6}, {Nodes: 5000}} {
		res := runSearch(t, newEngine(t), p, nil, lim)
		if res.Move != board.Pass {
			t.Errorf("%+v: move %s, want pass", lim, res.Move)
		}
		if res.Over.Over() {
			t.Errorf("%+v: the game is reported over", lim)
		}
	}
}

// A Hoyito III cycle: from X, South's e1 and North's c2 come back to X. In
// a game that went X, e1, c2, e1, North's c2 makes X occur for the third
// time, which ends the game (rule book 2.6): each row goes to its owner.
// The search must score that line as that end, which only the history
// before the root shows.
func TestRepetitionBeforeRoot(t *testing.T) {
	x := mustPosition(t, board.NameHoyito3, "0,1,1,1,0,1/1,0,1,0,2,0 S 12 28 2")
	v := x.Variant()
	game := board.NewGame(x)
	moves, err := v.ParseMoves("e1 c2 e1")
	if err != nil {
		t.Fatal(err)
	}
	if err := game.PlayAll(moves); err != nil {
		t.Fatal(err)
	}
	root, history := game.Position(), game.History()
	c2, _ := v.ParseMove("c2")
	child := after(t, root, c2)
	st := child.Status(with(history, root.Key()))
	if st.Reason != board.ReasonRepeat {
		t.Fatalf("c2 from %s does not end the game by repetition: %+v", root.String(), st)
	}
	if child.Status([]uint64{root.Key()}).Over() {
		t.Fatalf("c2 ends the game even without the history")
	}
	me := root.Side()
	want := HoyitoEnd(st.Seeds[me]-st.Seeds[me.Other()], 1)

	for depth := 1; depth <= 5; depth++ {
		lim := Limits{Depth: depth, SearchMoves: []board.Move{c2}}
		res := runSearch(t, newEngine(t), root, history, lim)
		if res.Move != c2 || res.Info.Score != want {
			t.Errorf("depth %d, with the history: %s scores %d (%s), want %d (%s)", depth, res.Move, res.Info.Score,
				res.Info.Score.UCI(board.Hoyito), want, want.UCI(board.Hoyito))
		}
		res = runSearch(t, newEngine(t), root, nil, lim)
		if res.Info.Score == want {
			t.Errorf("depth %d, without the history: %s scores %d, the repetition's end", depth, res.Move, res.Info.Score)
		}
	}
	// The whole search sees the same: North, far ahead, takes the end.
	res := runSearch(t, newEngine(t), root, history, Limits{Depth: 6})
	if res.Move != c2 || res.Info.Score != want {
		t.Errorf("full search: %s scores %d (%s), want c2 at %d (%s)", res.Move, res.Info.Score,
			res.Info.Score.UCI(board.Hoyito), want, want.UCI(board.Hoyito))
	}
}
