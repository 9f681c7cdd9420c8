package gui

import (
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client/clienttest"
)

// TestRepetitionRule starts games with the Repetition option: a Hoyito III
// game that repeats a position a third time is over under threefold and
// goes on under off; a Katro game refuses off (a Hoyito III option) with
// a message and keeps the game as it was; off with no no-capture limit is
// refused.
func TestRepetitionRule(t *testing.T) {
	fake := clienttest.BuildFake(t)
	addr, _ := startServer(t, Engine{Name: "fake", Command: []string{fake}})
	p := open(t, addr)
	const fen = "1,1,1,3,0,2/0,0,0,0,0,0 S 20 20 0"
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	start, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	g := board.NewGame(start)
	for range 25 { // each side plays its first legal move: a third occurrence
		pos := g.Position()
		if err := g.Play(pos.LegalMoves()[0]); err != nil {
			t.Fatal(err)
		}
	}
	moves := board.FormatMoves(g.Moves())
	for i, c := range []struct {
		game, rep, fen, moves string
		want                  string // the state's Repetition
		over                  bool
	}{
		{board.NameHoyito3, "threefold", fen, moves, "threefold", true},
		{board.NameHoyito3, "off", fen, moves, "off", false},
	} {
		p.send(map[string]any{"type": "new", "game": c.game, "south": "human", "north": "human",
			"repetition": c.rep, "fen": c.fen, "moves": c.moves})
		p.await("the new game", func(p *page) bool { return p.last.GameID == i+1 || p.msg != "" })
		if p.msg != "" {
			t.Fatalf("%s, Repetition %s: %s", c.game, c.rep, p.msg)
		}
		if got := p.last.Rules.Repetition; got != c.want {
			t.Errorf("%s, Repetition %s: the game's Repetition %q, want %q", c.game, c.rep, got, c.want)
		}
		if over := p.last.Turn == "over"; over != c.over || (over && p.last.Reason != "repetition") {
			t.Errorf("%s, Repetition %s: turn %s (%s), want over by repetition: %v", c.game, c.rep, p.last.Turn, p.last.Reason, c.over)
		}
	}
	p.send(map[string]any{"type": "new", "game": board.NameKatro4x4, "south": "human", "north": "human", "repetition": "off"})
	p.await("a refusal", func(p *page) bool { return p.msg != "" })
	if !strings.Contains(p.msg, "repetition off") || p.last.Game != board.NameHoyito3 {
		t.Errorf("katro-4x4 with Repetition off: message %q, the page shows %s; want it refused by name, the game kept", p.msg, p.last.Game)
	}
	p.msg = ""
	p.send(map[string]any{"type": "new", "game": board.NameHoyito3, "repetition": "off", "noCaptureLimit": 0})
	p.await("a refusal", func(p *page) bool { return p.msg != "" })
	if p.last.Rules.Repetition != "off" || p.last.Game != board.NameHoyito3 || len(p.last.Moves) != 25 {
		t.Errorf("refused game: the page shows %s with Repetition %s, %d moves; want the game before", p.last.Game, p.last.Rules.Repetition, len(p.last.Moves))
	}
}
