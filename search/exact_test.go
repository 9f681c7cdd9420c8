// Tests that alpha-beta returns the exact game-theoretic score on positions
// whose whole game tree ends within the search depth, for every variant,
// comparing it with the plain negamax of reference_test.go.
//
// Why this comparison is sound although the engine has pruning, reductions,
// a quiescence search and an evaluation: the search is given a depth of
// three times the longest line plus one, more than any line can use even
// if every ply of it is reduced by the most the search reduces (two
// plies), so no node reaches its horizon; neither the evaluation nor the
// quiescence search scores anything, and every leaf is a game end, scored
// by the same conventions (KatroWin and HoyitoEnd by ply) as the plain
// search. (The search may also stop at an earlier iteration that reached
// no horizon; the same holds for it.) Alpha-beta with principal-variation
// search, reductions and aspiration windows is then exact for the root's
// score: pruning skips only moves that cannot change it, a bound from a
// reduced or null-window search of a horizon-free subtree is a true bound,
// and a failed window is searched again. The transposition table and
// repetition are the parts that could break this, which is what the test
// is for: the positions come from random games with their history, so
// repetitions before the root count, and some use a low no-capture limit.

package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

// endgame is a position from a random game, with the game's history.
type endgame struct {
	pos     board.Position
	history []uint64
	moves   string // the game's moves from the start, for messages
	exact   Score
	longest int
}

// randomEndgames plays random games of v and takes from each the earliest
// position whose whole game tree has at most maxNodes nodes, with a choice
// of moves and at least three plies to go, and a position a few plies
// after it where the side to move loses, if there is one (the earliest
// positions with a small tree are mostly won by the side to move: a loser's
// tree holds all the winner's slower lines).
func randomEndgames(t *testing.T, v *board.Variant, seed uint64, n, maxNodes int) []endgame {
	rng := rand.New(rand.NewPCG(seed, 99))
	var out []endgame
	for g := 0; g < 50*n && len(out) < n; g++ {
		game := board.NewGame(v.Start())
		for !game.Status().Over() {
			p := game.Position()
			ms := p.LegalMoves()
			if err := game.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		moves := game.Moves()
		var earliest *endgame
		for k := len(moves) - 1; k >= 0; k-- {
			replay := board.NewGame(v.Start())
			if err := replay.PlayAll(moves[:k]); err != nil {
				t.Fatal(err)
			}
			p := replay.Position()
			hist := append([]uint64(nil), replay.History()...)
			nm := &negamax{maxNodes: maxNodes}
			exact, longest, ok := nm.run(t, p, hist, 0)
			if !ok {
				break
			}
			if len(p.LegalMoves()) >= 2 && longest >= 3 && 3*longest+1 < MaxPly {
				earliest = &endgame{p, hist, board.FormatMoves(moves[:k]), exact, longest}
			}
		}
		if earliest == nil {
			continue
		}
		out = append(out, *earliest)
		if eg, ok := losingDescendant(t, *earliest, 3); ok && len(out) < n {
			out = append(out, eg)
		}
	}
	if len(out) < n {
		t.Fatalf("%s: only %d endgames found", v.Name(), len(out))
	}
	return out
}

// losingDescendant returns a position at most plies plies after eg's where
// the side to move loses with at least three plies to go.
func losingDescendant(t *testing.T, eg endgame, plies int) (endgame, bool) {
	if plies == 0 {
		return endgame{}, false
	}
	hist := with(eg.history, eg.pos.Key())
	for _, m := range eg.pos.LegalMoves() {
		c := after(t, eg.pos, m)
		if c.Status(hist).Over() {
			continue
		}
		nm := &negamax{maxNodes: 1 << 30}
		exact, longest, _ := nm.run(t, c, hist, 0)
		kid := endgame{c, hist, eg.moves + " " + m.String(), exact, longest}
		if exact < 0 && longest >= 3 {
			return kid, true
		}
		if d, ok := losingDescendant(t, kid, plies-1); ok {
			return d, true
		}
	}
	return endgame{}, false
}

func TestAlphaBetaExact(t *testing.T) {
	type variant struct {
		name  string
		limit int  // no-capture limit; 0 for the default
		off   bool // Repetition off
	}
	variants := []variant{
		{board.NameKatro6x3, 0, false}, {board.NameKatro4x4, 0, false}, {board.NameHoyito3, 0, false},
		// Random games of the larger Katro boards rarely come near an end
		// with a small game tree; a low no-capture limit makes them end.
		{board.NameKatro, 10, false}, {board.NameKatro4x6, 10, false},
		{board.NameHoyito3, 8, false}, {board.NameKatro4x4, 12, false}, {board.NameKatro6x3, 8, false},
		// Without repetition, a quiet stretch ends only by the limit.
		{board.NameHoyito3, 10, true}, {board.NameHoyito3, 8, true},
	}
	perVariant, maxNodes := 6, 10_000
	if testing.Short() {
		perVariant, maxNodes = 2, 2_000
	}
	for i, vv := range variants {
		if testing.Short() && i%2 == 1 {
			continue
		}
		r := board.DefaultRules()
		if vv.limit > 0 {
			r.NoCaptureLimit = vv.limit
		}
		if vv.off {
			r.Repetition = board.RepetitionOff
		}
		v, err := board.NewWithRules(vv.name, r)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprintf("%s-limit%d-%v", vv.name, r.NoCaptureLimit, r.Repetition), func(t *testing.T) {
			for _, eg := range randomEndgames(t, v, uint64(i+1), perVariant, maxNodes) {
				checkExact(t, eg)
			}
		})
	}
}

func checkExact(t *testing.T, eg endgame) {
	t.Helper()
	const nodeLimit = 5_000_000
	e, err := NewEngine(1)
	if err != nil {
		t.Fatal(err)
	}
	depth := 3*eg.longest + 1
	res, err := e.Search(context.Background(), eg.pos, eg.history, Limits{Depth: depth, Nodes: nodeLimit}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := eg.pos.Variant().Family()
	where := fmt.Sprintf("%s %s (moves from the start: %s; depth %d)", eg.pos.Variant().Name(), eg.pos.String(), eg.moves, depth)
	if res.Info.Nodes >= nodeLimit {
		t.Errorf("%s: the node limit stopped the search", where)
		return
	}
	if res.Info.Score != eg.exact {
		t.Errorf("%s: engine score %d (%s), exact %d (%s)", where, res.Info.Score, res.Info.Score.UCI(f), eg.exact, eg.exact.UCI(f))
	}
	// The engine's move must be one that reaches the exact score.
	c := after(t, eg.pos, res.Move)
	nm := &negamax{maxNodes: 1 << 30}
	v, _, _ := nm.run(t, c, with(eg.history, eg.pos.Key()), 1)
	if c.Side() != eg.pos.Side() {
		v = -v
	}
	if v != eg.exact {
		t.Errorf("%s: engine move %s scores %d (%s), the best %d (%s)", where, res.Move, v, v.UCI(f), eg.exact, eg.exact.UCI(f))
	}
}
