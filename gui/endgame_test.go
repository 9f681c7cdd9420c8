package gui

import (
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client/clienttest"
)

// TestHoleHints says why each hole that is not a legal move cannot be
// played, by the rule book: the opponent's, empty, not in the back row
// (Katro 1.3), a sowing that never ends (2.5, the rule book's example of
// 6.4), or a forced pass.
func TestHoleHints(t *testing.T) {
	for _, c := range []struct {
		game, fen string
		want      map[string]string // hole: a part of its hint
	}{
		{board.NameKatro4x4, "", map[string]string{"a2": "not in South's back row", "c3": "North's hole", "d4": "own half, rows 1 to 2"}},
		{board.NameKatro4x4, "0,0,0,0/0,2,0,0/7,1,7,7/0,0,5,3 S 0", map[string]string{"a1": "empty", "a2": "not in South's back row", "a4": "North's hole"}},
		{board.NameKatro4x4, "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 N 1", map[string]string{"a3": "back row: a move starts from the outermost row that holds seeds, now row 4", "a1": "South's hole"}},
		{board.NameHoyito3, "1,2,0,1,2,0/0,1,0,1,3,1 S 16 20 0", map[string]string{"e1": "never end", "c1": "empty", "a2": "North's hole"}},
		{board.NameHoyito3, "0,0,0,1,3,4/0,0,0,0,0,0 S 16 24 0", map[string]string{"a1": "must pass"}},
	} {
		v, err := board.New(c.game)
		if err != nil {
			t.Fatal(err)
		}
		p := v.Start()
		if c.fen != "" {
			if p, err = v.ParsePosition(c.fen); err != nil {
				t.Fatal(err)
			}
		}
		hints := holeHints(board.NewGame(p))
		for _, m := range p.LegalMoves() {
			if h, ok := hints[m.String()]; ok {
				t.Errorf("%s: legal move %s has a hint %q", p.String(), m, h)
			}
		}
		if len(hints)+len(p.LegalMoves()) < len(v.Holes()) {
			t.Errorf("%s: %d hints for %d holes with %d legal moves", p.String(), len(hints), len(v.Holes()), len(p.LegalMoves()))
		}
		for h, want := range c.want {
			if !strings.Contains(hints[h], want) {
				t.Errorf("%s: %s's hint %q, want it to say %q", p.String(), h, hints[h], want)
			}
		}
	}
}

// TestResign resigns for the person: the game ends, the record says so
// and opens so, and a take back undoes it. Pause and Step mean nothing
// between two people, nor once the game is over.
func TestResign(t *testing.T) {
	addr, _ := startServer(t)
	p := open(t, addr)
	p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "human", "moves": "a1"})
	p.await("the game", func(p *page) bool { return len(p.last.Moves) == 1 })
	if e := p.last.End; e.Over || e.Plays || e.Resigns != "north" {
		t.Errorf("a game between two people, North to move: end %+v", e)
	}
	for _, what := range []string{"pause", "step"} {
		p.msg = ""
		p.send(map[string]any{"type": what})
		p.await("a refusal", func(p *page) bool { return p.msg != "" })
		if !strings.Contains(p.msg, "no engine plays") || p.last.Paused {
			t.Errorf("%s between two people: message %q, paused %v", what, p.msg, p.last.Paused)
		}
	}
	p.send(map[string]any{"type": "resign"})
	p.await("the resignation", func(p *page) bool { return p.last.Turn == "over" })
	s := p.last
	if s.Status != "south" || s.Result != "South wins: North resigned" || !s.End.Over || s.End.Resigns != "" || len(s.Legal) != 0 || len(s.Hints) != 0 {
		t.Errorf("after North resigned: status %q, result %q, end %+v, legal %v, hints %v", s.Status, s.Result, s.End, s.Legal, s.Hints)
	}
	p.msg = ""
	p.send(map[string]any{"type": "resign"})
	p.await("a refusal", func(p *page) bool { return p.msg != "" })
	text := p.export("pgn")
	recs, err := record.ReadRecords([]byte(text))
	if err != nil || recs[0].Termination != record.Resignation || recs[0].Loser != "north" || recs[0].Result != "1-0" || recs[0].CheckResult() != nil {
		t.Fatalf("the record of a resigned game: %v %+v\n%s", err, recs, text)
	}
	p.send(map[string]any{"type": "new", "game": "hoyito3"})
	p.await("hoyito3", func(p *page) bool { return p.last.Game == "hoyito3" })
	p.send(map[string]any{"type": "import", "text": text})
	p.await("the record", func(p *page) bool { return p.last.Game == "katro-4x4" })
	if p.last.Result != s.Result || !p.last.End.Over {
		t.Errorf("the resigned game opened again: result %q, end %+v", p.last.Result, p.last.End)
	}
	p.send(map[string]any{"type": "takeback"})
	p.await("the take back", func(p *page) bool { return len(p.last.Moves) == 0 })
	if p.last.Turn != "human" || p.last.End.Over {
		t.Errorf("after a take back: turn %q, end %+v", p.last.Turn, p.last.End)
	}
	// A garbage record is said to be none.
	p.msg = ""
	p.send(map[string]any{"type": "import", "text": "hello\x00world"})
	p.await("a refusal", func(p *page) bool { return p.msg != "" })
	if !strings.Contains(p.msg, "not a game record") {
		t.Errorf("a garbage record: %q", p.msg)
	}
}

// TestStepOnFinishedGame: Step and Pause are refused once a game between
// engines is over, so that nothing stays armed, and a take back there
// stays paused: the engine does not replay the ply taken back.
func TestStepOnFinishedGame(t *testing.T) {
	fake := clienttest.BuildFake(t)
	addr, _ := startServer(t, Engine{Name: "fake", Command: []string{fake}})
	p := open(t, addr)
	// d1 captures North's last seeds (rules 6.4).
	p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "fake", "north": "fake", "fen": "0,0,0,0/0,2,0,0/7,1,7,7/0,0,5,3 S 0", "moves": "d1"})
	p.await("the finished game", func(p *page) bool { return p.last.Turn == "over" })
	if e := p.last.End; !e.Over || e.Plays || e.Status != "south" || e.Resigns != "" {
		t.Errorf("a finished game between engines: end %+v", e)
	}
	for _, what := range []string{"step", "pause"} {
		p.msg = ""
		p.send(map[string]any{"type": what})
		p.await("a refusal", func(p *page) bool { return p.msg != "" })
		if !strings.Contains(p.msg, "over") {
			t.Errorf("%s on a finished game: %q", what, p.msg)
		}
	}
	p.send(map[string]any{"type": "takeback"})
	p.await("the take back", func(p *page) bool { return len(p.last.Moves) == 0 })
	if !p.last.Paused || !p.last.End.Plays {
		t.Errorf("after the take back: paused %v, end %+v", p.last.Paused, p.last.End)
	}
	deadline := time.Now().Add(400 * time.Millisecond)
	for time.Now().Before(deadline) {
		if p.last.Thinking || len(p.last.Moves) != 0 {
			t.Fatalf("after a take back in a finished engine game, the engine plays: %d moves, thinking %v", len(p.last.Moves), p.last.Thinking)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
