package gui

import (
	"reflect"
	"testing"

	"github.com/sower-engine/sower/protocol/client/clienttest"
)

// TestSessionEndAndLines: a game's side lines, its review's engine,
// budget, wdl and moves, and a resignation come back after a restart of
// the server as they stood.
func TestSessionEndAndLines(t *testing.T) {
	fake := clienttest.BuildFake(t)
	dir := t.TempDir()
	engines := []Engine{{Name: "fake", Command: []string{fake, "-wdl"}}}
	addr, stop := stateServer(t, dir, nil, engines...)
	p := open(t, addr)
	id := p.sessionOf().ID
	p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "human", "moves": "a1 a4 b1 b4"})
	p.await("the game", func(p *page) bool { return len(p.last.Moves) == 4 })
	p.send(map[string]any{"type": "line", "line": map[string]any{"index": -1, "from": 1, "moves": "c4", "at": -1}})
	p.await("the side line", func(p *page) bool { return len(p.last.Lines) == 1 })
	p.send(map[string]any{"type": "review", "on": true, "engine": "fake", "limitKind": "depth", "limitValue": "3"})
	p.await("the review", func(p *page) bool { return p.last.Review != nil && !p.last.Review.Running && p.last.Review.Plies == 4 })
	p.send(map[string]any{"type": "resign"})
	p.await("the resignation", func(p *page) bool { return p.last.Turn == "over" })
	before := p.last
	if before.Review.Budget != "depth 3" || before.Moves[0].Eval == nil || before.Moves[0].Eval.WDL == nil {
		t.Fatalf("before the restart: review %+v, ply 1's eval %+v", before.Review, before.Moves[0].Eval)
	}
	stop()

	addr, _ = stateServer(t, dir, nil, engines...)
	q := openSession(t, addr, id)
	q.await("the restored game", func(p *page) bool { return p.last.GameID != 0 })
	got := q.last
	if !reflect.DeepEqual(got.Lines, before.Lines) || !reflect.DeepEqual(got.Review, before.Review) || !reflect.DeepEqual(got.Moves, before.Moves) {
		t.Errorf("restored lines %+v, review %+v, moves %+v\nwant %+v, %+v, %+v", got.Lines, got.Review, got.Moves, before.Lines, before.Review, before.Moves)
	}
	if got.Result != "North wins: South resigned" || got.End != before.End || got.Reason != "resignation" {
		t.Errorf("restored end: result %q, reason %q, %+v; want %q, %+v", got.Result, got.Reason, got.End, before.Result, before.End)
	}
}
