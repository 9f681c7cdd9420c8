package gui

import (
	"strings"
	"testing"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/protocol/client/clienttest"
)

// TestLossOnTime lets a person's clock run out: the game ends there, lost
// on time, the record says so as sower match does, a late move is refused,
// and a take back plays on.
func TestLossOnTime(t *testing.T) {
	addr, _ := startServer(t)
	p := open(t, addr)
	p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "human",
		"limitKind": "tc", "limitValue": "1+0"})
	p.await("the new game", func(p *page) bool { return p.last.Game == "katro-4x4" && p.last.Turn == "human" })
	if p.last.Clocks == nil || p.last.Running != "south" {
		t.Fatalf("clocks %v, running %q: want South's clock running", p.last.Clocks, p.last.Running)
	}
	// South moves at once; North does not move.
	p.send(map[string]any{"type": "move", "move": p.last.Legal[0], "ply": 0})
	p.await("North's clock", func(p *page) bool { return len(p.last.Moves) == 1 && p.last.Running == "north" })
	p.await("the end of the game", func(p *page) bool { return p.last.Turn == "over" })
	s := p.last
	if s.Status != "south" || s.Reason != string(record.TimeForfeit) || s.Result != "South wins: North lost on time" {
		t.Errorf("after North's clock ran out: status %q, reason %q, result %q", s.Status, s.Reason, s.Result)
	}
	if s.Clocks == nil || s.Clocks[1] != 0 || s.Running != "" || len(s.Legal) != 0 || len(s.Moves) != 1 {
		t.Errorf("after North's clock ran out: clocks %v, running %q, legal %v, %d moves", s.Clocks, s.Running, s.Legal, len(s.Moves))
	}
	// A move now is too late.
	p.msg = ""
	p.send(map[string]any{"type": "move", "move": "a4", "ply": 1})
	p.await("a refusal", func(p *page) bool { return p.msg != "" })
	if !strings.Contains(p.msg, "over") || len(p.last.Moves) != 1 {
		t.Errorf("a move after the loss on time: message %q, %d moves", p.msg, len(p.last.Moves))
	}
	// The record, in both formats.
	records := map[string]string{}
	for _, format := range []string{"jsonl", "pgn"} {
		text := p.export(format)
		records[format] = text
		recs, err := record.ReadRecords([]byte(text))
		if err != nil {
			t.Fatalf("%s: %v\n%s", format, err, text)
		}
		r := recs[0]
		if r.Result != "1-0" || r.Winner != "south" || r.Termination != record.TimeForfeit || r.Loser != "north" ||
			r.Reason != "north's clock ran out" || len(r.Moves) != 1 {
			t.Errorf("%s record: result %q, winner %q, termination %q, loser %q, reason %q, %d moves:\n%s",
				format, r.Result, r.Winner, r.Termination, r.Loser, r.Reason, len(r.Moves), text)
		}
	}
	// Looking back at ply 0 shows a game going on; the end shows the loss.
	p.send(map[string]any{"type": "goto", "ply": 0})
	p.await("ply 0", func(p *page) bool { return p.last.View == 0 })
	if p.last.Turn != "human" || p.last.Status != "ongoing" {
		t.Errorf("ply 0 of a game lost on time: turn %q, status %q", p.last.Turn, p.last.Status)
	}
	p.send(map[string]any{"type": "goto", "ply": 1})
	p.await("ply 1", func(p *page) bool { return p.last.View == 1 })
	if p.last.Turn != "over" || p.last.Reason != string(record.TimeForfeit) {
		t.Errorf("the end of a game lost on time: turn %q, reason %q", p.last.Turn, p.last.Reason)
	}
	// A take back undoes the loss: South is to move with its clock.
	p.send(map[string]any{"type": "takeback"})
	p.await("the take back", func(p *page) bool { return len(p.last.Moves) == 0 })
	if p.last.Turn != "human" || p.last.Status != "ongoing" || p.last.Result != "" || p.last.Running != "south" {
		t.Errorf("after the take back: turn %q, status %q, result %q, running %q", p.last.Turn, p.last.Status, p.last.Result, p.last.Running)
	}
	// And South, who does not move, loses on time too.
	p.await("South's loss on time", func(p *page) bool { return p.last.Turn == "over" })
	if p.last.Status != "north" || p.last.Result != "North wins: South lost on time" {
		t.Errorf("South's loss on time: status %q, result %q", p.last.Status, p.last.Result)
	}
	// Opened again, the record ends in the same loss on time, in either
	// format.
	for _, format := range []string{"pgn", "jsonl"} {
		p.send(map[string]any{"type": "new", "game": "hoyito3"})
		p.await("hoyito3", func(p *page) bool { return p.last.Game == "hoyito3" })
		p.send(map[string]any{"type": "import", "text": records[format]})
		p.await("the import", func(p *page) bool { return p.last.Game == "katro-4x4" })
		if p.last.Turn != "over" || p.last.Result != s.Result || len(p.last.Moves) != 1 {
			t.Errorf("the %s record opened again: turn %q, result %q, %d moves; want over, %q, 1 move", format, p.last.Turn, p.last.Result, len(p.last.Moves), s.Result)
		}
	}
	p.send(map[string]any{"type": "resume"}) // opening a record pauses play
	p.await("play on", func(p *page) bool { return !p.last.Paused })
	if p.last.Turn != "over" {
		t.Errorf("Play from here at the end of a game lost on time: turn %q, want over", p.last.Turn)
	}
}

// TestClockRunsWhileLookingBack looks back through the move list while a
// person is to move: their clock goes on running, as in a chess GUI, and
// when it runs out the game ends there and the end is shown.
func TestClockRunsWhileLookingBack(t *testing.T) {
	fake := clienttest.BuildFake(t)
	tests := []struct {
		name, north string
		moves       int // plies played before looking back
		toMove      string
	}{
		{"against an engine", "fake", 2, "south"},
		{"two people", "human", 1, "north"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			addr, _ := startServer(t, Engine{Name: "fake", Command: []string{fake}})
			p := open(t, addr)
			p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": tc.north,
				"limitKind": "tc", "limitValue": "2+0"})
			p.await("the new game", func(p *page) bool { return p.last.Game == "katro-4x4" && p.last.Turn == "human" })
			p.send(map[string]any{"type": "move", "move": p.last.Legal[0], "ply": 0})
			p.await("the position to look back from", func(p *page) bool {
				return len(p.last.Moves) == tc.moves && !p.last.Thinking && p.last.Running == tc.toMove
			})
			p.send(map[string]any{"type": "goto", "ply": 0})
			p.await("ply 0", func(p *page) bool { return p.last.View == 0 })
			if p.last.Running != tc.toMove || p.last.Clocks == nil {
				t.Fatalf("looking back at ply 0: running %q, clocks %v; want %s's clock running", p.last.Running, p.last.Clocks, tc.toMove)
			}
			p.await("the loss on time", func(p *page) bool { return p.last.Turn == "over" })
			winner := map[string]string{"south": "north", "north": "south"}[tc.toMove]
			if p.last.View != tc.moves || p.last.Status != winner || p.last.Reason != string(record.TimeForfeit) || p.last.Running != "" {
				t.Errorf("after the clock ran out while looking back: view %d, status %q, reason %q, running %q; want view %d, %s wins on time",
					p.last.View, p.last.Status, p.last.Reason, p.last.Running, tc.moves, winner)
			}
		})
	}
}

// TestTakeBackLossAtPlyZero undoes a loss on time before the first move.
func TestTakeBackLossAtPlyZero(t *testing.T) {
	addr, _ := startServer(t)
	p := open(t, addr)
	p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "human",
		"limitKind": "tc", "limitValue": "1+0"})
	p.await("South's loss on time", func(p *page) bool { return p.last.Game == "katro-4x4" && p.last.Turn == "over" })
	p.send(map[string]any{"type": "takeback"})
	p.await("the take back", func(p *page) bool { return p.last.Turn != "over" })
	s := p.last
	if s.Turn != "human" || s.Status != "ongoing" || s.Result != "" || s.Running != "south" || len(s.Moves) != 0 ||
		s.Clocks == nil || s.Clocks[0] < 500 {
		t.Errorf("after the take back: turn %q, status %q, result %q, running %q, clocks %v, %d moves",
			s.Turn, s.Status, s.Result, s.Running, s.Clocks, len(s.Moves))
	}
}
