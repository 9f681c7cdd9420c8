package gui

import (
	"math"
	"os/exec"
	"strings"
	"testing"

	"github.com/sower-engine/sower/bench/review/marks"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
	"github.com/sower-engine/sower/protocol/client/clienttest"
)

// TestSearchedView reads engines' answers as package bench/review reads
// its searches: the value to the side to move, the proven outcome and
// South's score for the record, worked out by hand.
func TestSearchedView(t *testing.T) {
	// The page's estimate for cp 150 without wdl: the logistic of
	// assets/scores.js, 1/(1 + e^(-150/500)).
	model150 := 1 / (1 + math.Exp(-150.0/500))
	tests := []struct {
		name    string
		f       board.Family
		side    board.Side
		line    string
		proven  bool
		value   float64
		outcome marks.Outcome
		cp      *int // South's view
		mate    *int
	}{
		{"a Katro win", board.Katro, board.South, "info depth 9 score mate 3 pv b1", false, 1, marks.ProvenWin, nil, ptr(3)},
		{"a Katro loss, North to move", board.Katro, board.North, "info depth 9 score mate -2 pv b6", false, 0, marks.ProvenLoss, nil, ptr(2)},
		{"a mate score that is only a bound", board.Katro, board.South, "info depth 9 score mate 3 upperbound wdl 700 0 300 pv b1", false, 0.7, marks.Unproven, nil, ptr(3)},
		{"a proven draw", board.Katro, board.North, "info depth 9 score cp 0 pv a6", true, 0.5, marks.ProvenDraw, ptr(0), nil},
		{"an estimate with wdl", board.Katro, board.North, "info depth 9 score cp 20 wdl 600 100 300 pv a6", false, 0.65, marks.Unproven, ptr(-20), nil},
		{"an estimate without wdl", board.Katro, board.South, "info depth 9 score cp 150 pv a1", false, model150, marks.Unproven, ptr(150), nil},
		{"a Hoyito III estimate", board.Hoyito, board.North, "info depth 7 score cp -350 pv c2", false, -3.5, marks.Unproven, ptr(350), nil},
		{"a Hoyito III proven margin", board.Hoyito, board.South, "info depth 7 score cp 800 pv a1", true, 8, marks.ProvenWin, ptr(800), nil},
	}
	for _, c := range tests {
		var in client.Info
		in.Parse(c.line)
		v := searchedView(c.f, c.side, client.Reply{Move: in.PV[0], Info: in}, c.proven)
		if math.Abs(v.Value-c.value) > 1e-9 || v.Outcome != c.outcome || v.Proven != (c.outcome != marks.Unproven) ||
			!samePtr(v.CP, c.cp) || !samePtr(v.Mate, c.mate) || v.Move != in.PV[0] || v.Depth != in.Depth {
			t.Errorf("%s: %+v (cp %v, mate %v), want value %v, outcome %v, cp %v, mate %v", c.name, v, deref(v.CP), deref(v.Mate), c.value, c.outcome, deref(c.cp), deref(c.mate))
		}
	}
}

// TestFinishedView scores finished games by their results.
func TestFinishedView(t *testing.T) {
	k := board.Status{Result: board.NorthWins}
	if v := finishedView(board.Katro, board.South, k); v.Value != 0 || v.Outcome != marks.ProvenLoss || !v.Proven || v.CP != nil || v.Mate != nil {
		t.Errorf("a Katro game North won, South to move: %+v", v)
	}
	if v := finishedView(board.Katro, board.North, k); v.Value != 1 || v.Outcome != marks.ProvenWin {
		t.Errorf("a Katro game North won, North to move: %+v", v)
	}
	h := board.Status{Result: board.SouthWins, Seeds: [2]int{30, 18}}
	if v := finishedView(board.Hoyito, board.North, h); v.Value != -12 || v.Outcome != marks.ProvenLoss || v.CP == nil || *v.CP != 1200 {
		t.Errorf("a Hoyito III game South won 30 to 18, North to move: %+v", v)
	}
}

// TestNoSearch checks that the GUI drives engines only over the protocol:
// package search is not among its dependencies.
func TestNoSearch(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "github.com/sower-engine/sower/search" {
			t.Errorf("package gui depends on %s", p)
		}
	}
}

func ptr(n int) *int { return &n }

func samePtr(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestReviewMessages reviews a short game over the socket with the fake
// engine: bad budgets and engines are refused by name, a finished review
// marks every ply with counts that add up, the records (JSONL and PGN)
// carry it and open with it, and a take back drops the review of the ply
// taken back.
func TestReviewMessages(t *testing.T) {
	fake := clienttest.BuildFake(t)
	addr, _ := startServer(t, Engine{Name: "fake", Command: []string{fake}})
	p := open(t, addr)
	p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "human", "moves": "a1,a4,b1"})
	p.await("the game", func(p *page) bool { return p.last.Game == "katro-4x4" && len(p.last.Moves) == 3 })
	for _, c := range []struct {
		req  map[string]any
		want string
	}{
		{map[string]any{"type": "review", "on": true, "limitKind": "tc", "limitValue": "60+1"}, "review limit"},
		{map[string]any{"type": "review", "on": true, "limitKind": "movetime", "limitValue": "-5"}, "movetime"},
		{map[string]any{"type": "review", "on": true, "engine": "rm -rf"}, "no engine"},
	} {
		p.msg = ""
		p.send(c.req)
		p.await("a refusal", func(p *page) bool { return p.msg != "" })
		if !strings.Contains(p.msg, c.want) || p.last.Review != nil {
			t.Errorf("%v: message %q, review %+v; want a refusal naming %q", c.req, p.msg, p.last.Review, c.want)
		}
	}
	p.send(map[string]any{"type": "review", "on": true, "limitKind": "depth", "limitValue": "3"})
	p.await("the review", func(p *page) bool { return p.last.Review != nil && !p.last.Review.Running && p.last.Review.Plies == 3 })
	total := 0
	for i, m := range p.last.Moves {
		if m.Review == nil || marks.Rank(m.Review.Mark) == 0 && m.Review.Mark != marks.Best {
			t.Errorf("ply %d: review %+v", i+1, m.Review)
		}
	}
	for _, c := range p.last.Review.Counts {
		for _, n := range c {
			total += n
		}
	}
	if total != 3 {
		t.Errorf("counts %v add up to %d, want 3", p.last.Review.Counts, total)
	}
	if rec := p.export("jsonl"); strings.Count(rec, `"review":{"mark":`) != 3 {
		t.Errorf("the record has not the 3 plies' reviews:\n%s", rec)
	}
	// The PGN form carries it too, and an import reads it back.
	pgn := p.export("pgn")
	reviewed := p.last.Moves
	p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "human"})
	p.await("a new game", func(p *page) bool { return len(p.last.Moves) == 0 && p.last.Review == nil })
	p.send(map[string]any{"type": "import", "text": pgn})
	p.await("the reviewed record", func(p *page) bool { return len(p.last.Moves) == 3 })
	if r := p.last.Review; r == nil || r.Plies != 3 {
		t.Fatalf("the PGN record opened: review %+v\n%s", r, pgn)
	}
	for i, m := range p.last.Moves {
		if m.Review == nil || m.Review.Mark != reviewed[i].Review.Mark || m.Review.Best != reviewed[i].Review.Best {
			t.Errorf("ply %d from the PGN record: %+v, want %+v", i+1, m.Review, reviewed[i].Review)
		}
	}
	p.send(map[string]any{"type": "takeback"})
	p.await("the take back", func(p *page) bool { return len(p.last.Moves) == 2 })
	if r := p.last.Review; r == nil || r.Plies != 2 || p.last.Moves[1].Review == nil {
		t.Errorf("after a take back: review %+v", r)
	}
}

// TestReviewLeavesPlay reviews a game against the engine on the
// person's turn: play pauses while the review runs and not after it, so
// the engine answers the person's next move. The review states its
// budget, keeps the engine's wdl (its scores are not
// estimated from cp), the engine's move of every position and each
// side's accuracy.
func TestReviewLeavesPlay(t *testing.T) {
	fake := clienttest.BuildFake(t)
	addr, _ := startServer(t, Engine{Name: "fake", Command: []string{fake, "-wdl"}})
	p := open(t, addr)
	p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "fake", "limitKind": "movetime", "limitValue": "50"})
	p.await("the game", func(p *page) bool { return p.last.Turn == "human" && len(p.last.Legal) > 0 })
	p.send(map[string]any{"type": "move", "move": p.last.Legal[0], "ply": 0})
	p.await("the engine's answer", func(p *page) bool { return len(p.last.Moves) == 2 && p.last.Turn == "human" })
	played := p.last.Moves[1].Eval
	p.send(map[string]any{"type": "review", "on": true, "limitKind": "movetime", "limitValue": "30"})
	p.await("the review under way", func(p *page) bool { return p.last.Review != nil && p.last.Review.Running })
	if !p.last.Paused {
		t.Errorf("a review runs and play is not paused")
	}
	p.await("the review", func(p *page) bool { return p.last.Review != nil && !p.last.Review.Running })
	r := p.last.Review
	if p.last.Paused || r.Budget != "30 ms a position" || len(r.Best) != 3 || r.Accuracy[0] == nil || r.Accuracy[1] == nil {
		t.Errorf("after the review: paused %v, review %+v", p.last.Paused, r)
	}
	for i, m := range p.last.Moves {
		if m.Eval == nil || m.Eval.WDL == nil || m.Review == nil {
			t.Errorf("reviewed ply %d: eval %+v, review %+v; want the engine's wdl", i+1, m.Eval, m.Review)
		}
	}
	if m := p.last.Moves[1]; m.Play == nil || played == nil || *m.Play.CP != *played.CP || m.PlayDepth == 0 {
		t.Errorf("the engine's own score of ply 2 after the review: %+v (depth %d), want %+v", m.Play, m.PlayDepth, played)
	}
	p.send(map[string]any{"type": "move", "move": p.last.Legal[0], "ply": 2})
	p.await("the engine's answer after the review", func(p *page) bool { return len(p.last.Moves) >= 4 || p.last.Turn == "over" })
}
