// Tests that analysis never stops early and of the root reports: a search
// with one legal move, or with a proven result, searches to its depth
// limit unless the clock manages its time; proven results are reported
// with their distance or exact margin; root moves are reported as they are
// searched.

package search

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

// onlyMovePosition returns a position of a seeded random Katro 4x4 game
// with exactly one legal move, and the game's history before it.
func onlyMovePosition(t *testing.T) (board.Position, []uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 5))
	v, err := board.New(board.NameKatro4x4)
	if err != nil {
		t.Fatal(err)
	}
	for range 1000 {
		g := board.NewGame(v.Start())
		for !g.Status().Over() {
			p := g.Position()
			ms := p.LegalMoves()
			if len(ms) == 1 && g.Ply() > 0 {
				return p, append([]uint64(nil), g.History()...)
			}
			if err := g.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Fatal("no random game reaches a position with one legal move")
	return board.Position{}, nil
}

func TestOnlyMoveKeepsSearching(t *testing.T) {
	p, hist := onlyMovePosition(t)
	clock := Limits{HasClock: [2]bool{true, true}, Clock: [2]time.Duration{time.Minute, time.Minute}}
	for _, tc := range []struct {
		name      string
		lim       Limits
		wantDepth int // the last report's depth; 0: at least 2
	}{
		{"depth", Limits{Depth: 9}, 9},
		{"nodes", Limits{Nodes: 50_000}, 0},
		{"movetime", Limits{MoveTime: 30 * time.Millisecond}, 0},
		{"clock", clock, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var infos []Info
			res, err := newEngine(t).Search(context.Background(), p, hist, tc.lim, func(i Info) { infos = append(infos, i) })
			if err != nil {
				t.Fatal(err)
			}
			checkLegal(t, p, res.Move, "move")
			last := infos[len(infos)-1]
			switch {
			case tc.wantDepth > 0 && last.Depth != tc.wantDepth:
				t.Errorf("last report at depth %d, want %d", last.Depth, tc.wantDepth)
			case tc.wantDepth == 0 && last.Depth < 2:
				t.Errorf("last report at depth %d: the search stopped at once", last.Depth)
			}
		})
	}
}

// provenCase is a position whose result the rules decide within a few
// plies, with what the proof must say.
type provenCase struct {
	game, fen string
	capLimit  int // NoCaptureLimit, 0 for the default
	plies     int // Katro: plies to the win
	margin    int // Hoyito III: the exact margin
}

func TestProvenReports(t *testing.T) {
	for _, c := range []provenCase{
		{game: board.NameKatro4x4, fen: "2,1,2,0/8,6,5,3/1,0,1,2/0,1,0,0 N 3", plies: 3},
		{game: board.NameKatro6x3, fen: "0,0,0/0,0,0/0,0,1/4,5,1/6,1,3/9,3,3 S 1", plies: 1},
		{game: board.NameHoyito3, fen: "0,1,0,3,0,1/2,1,0,3,1,0 S 16 20 3", capLimit: 8, margin: 2},
	} {
		t.Run(c.fen, func(t *testing.T) {
			r := board.DefaultRules()
			if c.capLimit > 0 {
				r.NoCaptureLimit = c.capLimit
			}
			v, err := board.NewWithRules(c.game, r)
			if err != nil {
				t.Fatal(err)
			}
			p, err := v.ParsePosition(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			const depth = 20
			for _, lim := range []Limits{{Depth: depth}, {}} {
				var proofs []Proof
				var last Info
				cb := Callbacks{
					Info:   func(i Info) { last = i },
					Proven: func(p Proof) { proofs = append(proofs, p) },
				}
				if _, err := newEngine(t).SearchWith(context.Background(), p, nil, lim, cb); err != nil {
					t.Fatal(err)
				}
				if len(proofs) == 0 {
					t.Fatalf("%+v: no proof reported", lim)
				}
				pr := proofs[len(proofs)-1]
				if pr.Plies != c.plies || pr.Margin != c.margin || pr.Score != last.Score {
					t.Errorf("%+v: proof %+v, want %d plies, margin %d, score %v", lim, pr, c.plies, c.margin, last.Score)
				}
				if lim.Depth > 0 && last.Depth != depth {
					t.Errorf("depth %d: stopped at depth %d after the proof", depth, last.Depth)
				}
				if lim.Depth == 0 && last.Depth >= depth {
					t.Errorf("no limit: searched to depth %d after the proof at depth %d", last.Depth, pr.Depth)
				}
			}
		})
	}
}

func TestCurrMoveReports(t *testing.T) {
	p := startPosition(t, board.NameKatro)
	e := newEngine(t)
	e.currMovePeriod = 0
	var got []CurrMove
	res, err := e.SearchWith(context.Background(), p, nil, Limits{Depth: 4}, Callbacks{CurrMove: func(c CurrMove) { got = append(got, c) }})
	if err != nil {
		t.Fatal(err)
	}
	legal := p.LegalMoves()
	if len(got) < 4*len(legal) {
		t.Fatalf("%d root move reports in 4 iterations of %d moves", len(got), len(legal))
	}
	for i, c := range got {
		checkLegal(t, p, c.Move, "currmove")
		if c.Number < 1 || c.Number > len(legal) || c.Depth < 1 || c.Depth > 4 {
			t.Errorf("report %d: %+v out of range", i, c)
		}
	}
	if last := got[len(got)-1]; last.Depth != 4 {
		t.Errorf("last report %+v, want depth 4 (result %v)", last, res.Move)
	}
	// Before the period, nothing is reported.
	got = got[:0]
	e.currMovePeriod = time.Hour
	if _, err := e.SearchWith(context.Background(), p, nil, Limits{Depth: 4}, Callbacks{CurrMove: func(c CurrMove) { got = append(got, c) }}); err != nil {
		t.Fatal(err)
	}
	if len(got) > 0 {
		t.Errorf("%d root move reports before the period", len(got))
	}
}
