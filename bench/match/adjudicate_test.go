package match

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// cp, mate and none are engine reports: a score in centi-seeds, a mate,
// no score.
func cp(n int) client.Info   { return client.Info{HasScore: true, CP: n} }
func mate(n int) client.Info { return client.Info{HasScore: true, IsMate: true, Mate: n} }
func none() client.Info      { return client.Info{} }

// ply is a move of a side with its engine's report.
type ply struct {
	side board.Side
	info client.Info
}

// alternate makes plies South, North, South, … with the reports given.
func alternate(infos ...client.Info) []ply {
	out := make([]ply, len(infos))
	for i, in := range infos {
		out[i] = ply{board.Side(i % 2), in}
	}
	return out
}

// adjudicate plays the plies through an adjudicator and returns the ply
// (from 1) at which it adjudicated, 0 for none, and the result.
func adjudicate(a adjudicator, plies []ply) (int, board.Result, string) {
	for i, p := range plies {
		if res, why, ok := a.add(p.side, p.info); ok {
			return i + 1, res, why
		}
	}
	return 0, board.None, ""
}

// TestResignBoundary checks the resign rule at its edges: the margin
// itself counts, one less does not; K moves of each engine, not K − 1;
// both engines must agree; a move without a score or below the margin
// starts the count again.
func TestResignBoundary(t *testing.T) {
	rule := &ResignRule{Moves: 3, Score: 500}
	tests := []struct {
		name  string
		plies []ply
		at    int
		res   board.Result
	}{
		{"at the margin, K moves each", alternate(cp(500), cp(-500), cp(500), cp(-500), cp(500), cp(-500)), 6, board.SouthWins},
		{"North ahead", alternate(cp(-900), cp(900), cp(-900), cp(900), cp(-900), cp(900)), 6, board.NorthWins},
		{"K-1 moves of the loser", alternate(cp(500), cp(-500), cp(500), cp(-500), cp(500)), 0, board.None},
		{"one under the margin", alternate(cp(500), cp(-499), cp(500), cp(-500), cp(500), cp(-500)), 0, board.None},
		{"the count starts again", alternate(cp(500), cp(-499), cp(500), cp(-500), cp(500), cp(-500), cp(500), cp(-500)), 8, board.SouthWins},
		{"no score starts it again", alternate(cp(600), cp(-600), none(), cp(-600), cp(600), cp(-600), cp(600), cp(-600)), 0, board.None},
		{"no score, then K more", alternate(cp(600), cp(-600), none(), cp(-600), cp(600), cp(-600), cp(600), cp(-600), cp(600)), 9, board.SouthWins},
		{"one-sided", alternate(cp(0), cp(-900), cp(0), cp(-900), cp(0), cp(-900), cp(0)), 0, board.None},
		{"mates count", alternate(mate(7), mate(-6), cp(800), mate(-5), mate(4), cp(-501)), 6, board.SouthWins},
		// A Hoyito III extra turn: South moves twice in a row; each of
		// its moves counts, and North still needs K of its own.
		{"extra turns", []ply{{board.South, cp(700)}, {board.South, cp(700)}, {board.South, cp(700)}, {board.North, cp(-700)}, {board.North, cp(-700)}, {board.South, cp(700)}, {board.North, cp(-700)}}, 7, board.SouthWins},
	}
	for _, tc := range tests {
		at, res, why := adjudicate(adjudicator{resign: rule}, tc.plies)
		if at != tc.at || res != tc.res {
			t.Errorf("%s: adjudicated at ply %d (%s), want %d (%s)", tc.name, at, res, tc.at, tc.res)
		}
		if at > 0 && !strings.Contains(why, "resign adjudication: both engines scored") {
			t.Errorf("%s: reason %q", tc.name, why)
		}
	}
}

// TestDrawBoundary checks the draw rule at its edges: only moves after
// ply P count, K moves each, the score within the margin inclusive.
func TestDrawBoundary(t *testing.T) {
	rule := &DrawRule{Ply: 4, Moves: 2, Score: 10}
	zeros := func(n int) []client.Info {
		out := make([]client.Info, n)
		for i := range out {
			out[i] = cp(0)
		}
		return out
	}
	tests := []struct {
		name  string
		rule  *DrawRule
		plies []ply
		at    int
	}{
		{"at ply P+2K", rule, alternate(zeros(10)...), 8},
		{"P odd", &DrawRule{Ply: 5, Moves: 2, Score: 10}, alternate(zeros(10)...), 9},
		{"P zero, K one", &DrawRule{Moves: 1, Score: 10}, alternate(zeros(10)...), 2},
		{"the margin counts", rule, alternate(cp(99), cp(99), cp(99), cp(99), cp(10), cp(-10), cp(-10), cp(10)), 8},
		{"one over the margin", rule, alternate(cp(0), cp(0), cp(0), cp(0), cp(11), cp(0), cp(0), cp(0), cp(0)), 9},
		{"one over, late", rule, alternate(cp(0), cp(0), cp(0), cp(0), cp(0), cp(0), cp(0), cp(-11)), 0},
		{"mate is not near zero", rule, alternate(cp(0), cp(0), cp(0), cp(0), cp(0), mate(3), cp(0), cp(0)), 0},
		{"no score", rule, alternate(cp(0), cp(0), cp(0), cp(0), cp(0), cp(0), none(), cp(0)), 0},
	}
	for _, tc := range tests {
		at, res, why := adjudicate(adjudicator{draw: tc.rule}, tc.plies)
		if at != tc.at || (at > 0 && res != board.Draw) {
			t.Errorf("%s: adjudicated at ply %d (%s), want %d", tc.name, at, res, tc.at)
		}
		if at > 0 && !strings.Contains(why, "draw adjudication: both engines scored within") {
			t.Errorf("%s: reason %q", tc.name, why)
		}
	}
	// Neither rule: nothing is adjudicated.
	if at, _, _ := adjudicate(adjudicator{}, alternate(zeros(20)...)); at != 0 {
		t.Errorf("no rules: adjudicated at ply %d", at)
	}
}

func TestParseAdjudication(t *testing.T) {
	r, err := ParseResign("movecount=3 score=600")
	if err != nil || r != (ResignRule{Moves: 3, Score: 600}) || r.String() != "movecount=3 score=600" {
		t.Errorf("ParseResign: %+v, %v", r, err)
	}
	d, err := ParseDraw("ply=40,movecount=8 score=10")
	if err != nil || d != (DrawRule{Ply: 40, Moves: 8, Score: 10}) || d.String() != "ply=40 movecount=8 score=10" {
		t.Errorf("ParseDraw: %+v, %v", d, err)
	}
	if d, err := ParseDraw("movecount=2 score=0"); err != nil || d != (DrawRule{Moves: 2}) {
		t.Errorf("ParseDraw without ply: %+v, %v", d, err)
	}
	for _, s := range []string{"", "movecount=3", "score=5", "movecount=0 score=5", "movecount=3 score=-5", "movecount=x score=5", "moves=3 score=5", "ply=2 movecount=3 score=5"} {
		if _, err := ParseResign(s); err == nil {
			t.Errorf("ParseResign(%q): no error", s)
		}
	}
	for _, s := range []string{"", "ply=3", "movecount=0 score=5", "ply=-1 movecount=2 score=5", "movecount=2 score=5 margin=3"} {
		if _, err := ParseDraw(s); err == nil {
			t.Errorf("ParseDraw(%q): no error", s)
		}
	}
}

// TestSowerAdjudication plays sower against itself with a draw rule that
// any score meets and a resign rule that one seed meets: every game is
// adjudicated, at the earliest ply the rules allow, and recorded so.
func TestSowerAdjudication(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	bin := fixtures.Sower(t, false)
	base := Config{
		Variant: variant(t, board.NameKatro4x4), Games: 2, RandomPlies: 2, Seed: 5,
		Engines: [2]EngineSpec{sower(bin, "a", timecontrol.Limit{Depth: 2}), sower(bin, "b", timecontrol.Limit{Depth: 3})},
	}
	draw := base
	draw.Draw = &DrawRule{Ply: 2, Moves: 1, Score: 1 << 20}
	_, recs, _ := run(t, draw)
	for _, r := range recs {
		if r.Termination != record.Adjudication || r.Winner != "draw" || len(r.Moves) != 4 || r.Loser != "" {
			t.Errorf("game %d: %s %s after %d plies (%s), want a draw adjudicated after 4", r.Game, r.Termination, r.Winner, len(r.Moves), r.Reason)
		}
		if !strings.Contains(r.PGN(), `[Termination "adjudication"]`) || !strings.Contains(r.PGN(), "{draw adjudication: ") {
			t.Errorf("game %d: PGN\n%s", r.Game, r.PGN())
		}
	}
	// A resumed match takes adjudicated games as played.
	draw.Played = recs
	if err := draw.CheckPlayed(); err != nil {
		t.Errorf("resuming adjudicated games: %v", err)
	}

	resign := base
	resign.Resign = &ResignRule{Moves: 1, Score: 1}
	_, recs, _ = run(t, resign)
	adjudicated := 0
	for _, r := range recs {
		if r.Termination != record.Normal && r.Termination != record.Adjudication {
			t.Errorf("game %d: %s (%s)", r.Game, r.Termination, r.Reason)
		}
		if r.Termination != record.Adjudication {
			continue
		}
		adjudicated++
		// The last two moves, one of each engine, agree on the winner.
		n := len(r.Moves)
		last, before := r.Moves[n-1], r.Moves[n-2]
		lead := func(m record.MoveRecord) int { // the winner's lead, as the mover saw it
			v := 0
			switch {
			case m.Mate != nil:
				v = *m.Mate
			case m.CP != nil:
				v = *m.CP
			}
			if strings.EqualFold(m.Side[:1], r.Winner[:1]) {
				return v
			}
			return -v
		}
		if r.Winner == "draw" || last.Side == before.Side || lead(last) < 1 || lead(before) < 1 {
			t.Errorf("game %d: adjudicated %s after %s %v and %s %v", r.Game, r.Winner, before.Side, before.CP, last.Side, last.CP)
		}
	}
	if adjudicated == 0 {
		t.Error("no game adjudicated by a resign margin of one centi-seed")
	}
}

// TestNewProven plays built-in games on two workers with a judge of each
// worker's own (Config.NewProven) that ends each game at its third ply:
// at most one judge a worker is made, each is asked one ply at a time,
// and every game is adjudicated with its judge's reason.
func TestNewProven(t *testing.T) {
	var mu sync.Mutex
	made := 0
	cfg := Config{
		Variant: variant(t, board.NameKatro4x4), Games: 8, Concurrency: 2, RandomPlies: 2, Seed: 3,
		Engines: [2]EngineSpec{builtin("random"), builtin("greedy")},
		NewProven: func() func(board.Position, []uint64) (board.Result, string, bool) {
			mu.Lock()
			made++
			n := made
			mu.Unlock()
			var busy atomic.Bool
			return func(p board.Position, history []uint64) (board.Result, string, bool) {
				if !busy.CompareAndSwap(false, true) {
					t.Errorf("judge %d asked by two games at once", n)
				}
				defer busy.Store(false)
				if len(history) < 3 {
					return board.None, "", false
				}
				return board.SouthWins, fmt.Sprintf("proof adjudication: judge %d", n), true
			}
		},
	}
	_, recs, _ := run(t, cfg)
	if made < 1 || made > 2 {
		t.Errorf("%d judges made for two workers", made)
	}
	for _, r := range recs {
		if r.Termination != record.Adjudication || len(r.Moves) != 3 || r.Winner != "south" || !strings.HasPrefix(r.Reason, "proof adjudication: judge ") {
			t.Errorf("game %d: %s %s after %d plies (%s)", r.Game, r.Termination, r.Winner, len(r.Moves), r.Reason)
		}
	}
	if len(recs) != 8 {
		t.Errorf("%d games", len(recs))
	}
}
