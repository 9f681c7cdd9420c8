package gui

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/sower-engine/sower/protocol/client/clienttest"
)

// readInfos reads p's messages until done accepts the analysis lines
// seen so far (the latest per multipv, of the last state's position),
// failing after 15 s.
func readInfos(p *page, what string, done func(lines map[int]infoMsg) bool) map[int]infoMsg {
	p.t.Helper()
	lines := map[int]infoMsg{}
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); {
		b, err := p.read()
		if err != nil {
			p.t.Fatalf("waiting for %s: %v", what, err)
		}
		var m infoMsg
		if json.Unmarshal(b, &m); m.Type == "info" && m.Fen == p.last.Fen {
			lines[m.MultiPV] = m
		}
		if m.Type == "state" {
			json.Unmarshal(b, &p.last)
		}
		if done(lines) {
			return lines
		}
	}
	p.t.Fatalf("no %s in 15 s: %+v", what, lines)
	return nil
}

// TestSessionAnalysisLines: the analysis's lines come back after a restart
// of the server, marked as restored, before the engine's new search: the
// lines last shown, as many as the analysis shows.
func TestSessionAnalysisLines(t *testing.T) {
	fake := clienttest.BuildFake(t)
	dir := t.TempDir()
	engines := []Engine{{Name: "fake", Command: []string{fake, "-multipv", "3"}}}
	addr, stop := stateServer(t, dir, nil, engines...)
	p := open(t, addr)
	id := p.sessionOf().ID
	p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "human"})
	p.await("the new game", func(p *page) bool { return p.last.Game == "katro-4x4" })
	p.send(map[string]any{"type": "move", "move": p.last.Legal[0], "ply": 0})
	p.await("the move", func(p *page) bool { return len(p.last.Moves) == 1 })
	p.send(map[string]any{"type": "analyse", "on": true, "engine": "fake", "multipv": 2})
	p.await("the analysis", func(p *page) bool { return p.last.Analysis.On && p.last.Analysis.MultiPV == 2 })
	shown := readInfos(p, "two lines of depth 4", func(l map[int]infoMsg) bool { return l[1].Depth == 4 && l[2].Depth == 4 })
	stop()

	addr, _ = stateServer(t, dir, nil, engines...)
	q := openSession(t, addr, id)
	if s := q.sessionOf(); !s.Restored {
		t.Fatalf("the session after a restart: %+v", s)
	}
	q.await("the restored game", func(p *page) bool { return p.last.GameID != 0 })
	got := readInfos(q, "the restored lines", func(l map[int]infoMsg) bool { return l[1].Restored && l[2].Restored })
	if _, ok := got[3]; ok {
		t.Errorf("a third line restored, the analysis shows two: %+v", got[3])
	}
	for k := 1; k <= 2; k++ {
		g := got[k]
		if !g.Restored || g.Fen != p.last.Fen {
			t.Errorf("line %d: %+v, want a restored line of %s", k, g, p.last.Fen)
		}
		g.Restored, g.Gen = false, shown[k].Gen
		if !reflect.DeepEqual(g, shown[k]) {
			t.Errorf("line %d restored as %+v, shown before as %+v", k, g, shown[k])
		}
	}

	// With the analysis off, no line is kept.
	q.send(map[string]any{"type": "analyse", "on": false})
	q.await("the analysis off", func(p *page) bool { return !p.last.Analysis.On })
	q.conn.CloseNow()
	r := openSession(t, addr, id)
	r.await("the game again", func(p *page) bool { return p.last.GameID != 0 })
	// Every message the server sent first comes before the state that
	// answers this.
	r.send(map[string]any{"type": "goto", "ply": 0})
	for {
		b, err := r.read()
		if err != nil {
			t.Fatal(err)
		}
		var m infoMsg
		json.Unmarshal(b, &m)
		if m.Type == "info" {
			t.Fatalf("a line sent with the analysis off: %+v", m)
		}
		if m.Type == "state" {
			json.Unmarshal(b, &r.last)
			if r.last.View == 0 {
				break
			}
		}
	}
}
