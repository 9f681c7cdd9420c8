package gui

import (
	"strings"
	"testing"

	"github.com/sower-engine/sower/protocol/client/clienttest"
)

// TestEnginesAway: a game between engines stops when its tab goes, and
// the tab that shows it again is told so and sees play go on; a paused
// one is not said to have stopped.
func TestEnginesAway(t *testing.T) {
	fake := clienttest.BuildFake(t)
	engines := []Engine{{Name: "fake", Command: []string{fake, "-mode", "late", "-delay", "200ms"}}}
	addr, _ := stateServer(t, "", nil, engines...)
	p := open(t, addr)
	id := p.sessionOf().ID
	p.send(map[string]any{"type": "new", "game": "katro", "south": "fake", "north": "fake", "limitKind": "movetime", "limitValue": "1000"})
	p.await("two plies", func(p *page) bool { return p.last.Game == "katro" && len(p.last.Moves) >= 2 })
	p.conn.CloseNow()

	q := openSession(t, addr, id)
	q.await("the game and the note", func(p *page) bool { return p.last.GameID != 0 && p.msg != "" })
	if !strings.Contains(q.msg, "did not play while no tab showed this game") {
		t.Errorf("the note after coming back: %q", q.msg)
	}
	n := len(q.last.Moves)
	q.await("play going on", func(p *page) bool { return len(p.last.Moves) > n })
	q.send(map[string]any{"type": "pause"})
	q.await("the pause", func(p *page) bool { return p.last.Paused && !p.last.Thinking })
	q.conn.CloseNow()

	r := openSession(t, addr, id)
	r.msg = ""
	r.await("the paused game", func(p *page) bool { return p.last.GameID != 0 })
	r.send(map[string]any{"type": "goto", "ply": len(r.last.Moves)}) // a state after the first messages
	r.await("its answer", func(p *page) bool { return true })
	if strings.Contains(r.msg, "did not play") {
		t.Errorf("a paused game said to have stopped: %q", r.msg)
	}
}
