package gui

import (
	"encoding/json"
	"testing"
)

// awaitGames asks for the list of past games and returns it.
func (p *page) awaitGames() []pastGame {
	p.t.Helper()
	p.send(map[string]any{"type": "games"})
	for {
		b, err := p.read()
		if err != nil {
			p.t.Fatalf("waiting for the past games: %v", err)
		}
		var m gamesMsg
		if json.Unmarshal(b, &m); m.Type == "games" {
			return m.Games
		}
	}
}

// TestPastGames: the list of past games has the finished games the store
// keeps (two resigned games, the second kept apart when its tab started
// a new game), newest first, with their
// players, plies and result, but neither an unfinished game nor the
// asking tab's own; after a restart of the server they are read from
// its directory, and each opens as it ended (and is then the newest).
func TestPastGames(t *testing.T) {
	dir := t.TempDir()
	engines := []Engine{{Name: "e", Command: []string{"e"}}}
	addr, stop := stateServer(t, dir, nil, engines...)
	play := func(moves string, resign, again bool) string {
		p := open(t, addr)
		id := p.sessionOf().ID
		p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "human", "moves": moves})
		p.await("the game", func(p *page) bool { return p.last.Game == "katro-4x4" })
		if resign {
			p.send(map[string]any{"type": "resign"})
			p.await("the resignation", func(p *page) bool { return p.last.Turn == "over" })
		}
		if again { // a new game in the same tab: the finished one is kept apart
			p.send(map[string]any{"type": "new", "game": "katro-6x3", "south": "human", "north": "human"})
			p.await("the new game", func(p *page) bool { return p.last.Game == "katro-6x3" })
		}
		p.conn.CloseNow()
		return id
	}
	resigned := play("a1", true, false)
	unfinished := play("a1 a4", false, false)
	// South resigns, then starts another game in the same tab.
	again := play("a1 a4", true, true)
	// check lists the games, newest first, the first game expected at
	// first, then opens it (which makes it the newest).
	check := func(when string, first int) {
		q := open(t, addr)
		self := q.sessionOf().ID
		got := q.awaitGames()
		if len(got) != 2 || got[first].ID != resigned || got[1-first].ID == again || !validID(got[1-first].ID) {
			t.Fatalf("%s: past games %+v, want the first game %s at %d and the later one kept apart from its tab's game %s (not %s, unfinished, nor %s, the tab's own)", when, got, resigned, first, again, unfinished, self)
		}
		r := got[first]
		if r.Game != "katro-4x4" || r.Players != [2]string{"human", "human"} || r.Plies != 1 || r.Status != "south" || r.Result != "South wins: North resigned" || r.Saved.IsZero() {
			t.Errorf("%s: the resigned game listed as %+v", when, r)
		}
		if o := got[1-first]; o.Plies != 2 || o.Status != "north" || o.Result != "North wins: South resigned" {
			t.Errorf("%s: the later game listed as %+v", when, o)
		}
		// Its session opens it as it ended.
		g := openSession(t, addr, r.ID)
		if s := g.sessionOf(); !s.Restored {
			t.Fatalf("%s: the listed game's session is not restored: %+v", when, s)
		}
		g.await("the game", func(p *page) bool { return p.last.GameID != 0 })
		if g.last.Turn != "over" || len(g.last.Moves) != 1 {
			t.Errorf("%s: the listed game opened as %+v", when, g.last)
		}
		g.conn.CloseNow()
		q.conn.CloseNow()
	}
	check("in memory", 1)
	stop()
	addr, _ = stateServer(t, dir, nil, engines...)
	check("after a restart", 0) // opened last
}

// TestPastGamesAtOnce: a game is listed as past the moment its tab hears
// that it is over, while the tab is still open, and once only when that
// tab then starts another game, whenever another tab asks (the state is
// saved when the game ends, not at the next save of the session, and the
// finished game moves apart from the tab's id in one step).
func TestPastGamesAtOnce(t *testing.T) {
	addr, _ := stateServer(t, t.TempDir(), nil, Engine{Name: "e", Command: []string{"e"}})
	for i := range 5 {
		p := open(t, addr)
		id := p.sessionOf().ID
		p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "human", "moves": "a1"})
		p.await("the game", func(p *page) bool { return p.last.Game == "katro-4x4" && len(p.last.Moves) == 1 })
		p.send(map[string]any{"type": "resign"})
		p.await("the resignation", func(p *page) bool { return p.last.Turn == "over" })
		q := open(t, addr)
		got := q.awaitGames()
		if len(got) != i+1 || got[0].ID != id || got[0].Plies != 1 {
			t.Fatalf("game %d over, its tab open: past games %+v, want %d with %s first", i, got, i+1, id)
		}
		p.send(map[string]any{"type": "new", "game": "katro-6x3", "south": "human", "north": "human"})
		p.await("the new game", func(p *page) bool { return p.last.Game == "katro-6x3" })
		got = q.awaitGames()
		if len(got) != i+1 || got[0].ID == id || got[0].Plies != 1 {
			t.Fatalf("game %d over, its tab on to a new one: past games %+v, want %d, the newest kept apart from %s", i, got, i+1, id)
		}
		q.conn.CloseNow()
		p.conn.CloseNow()
	}
}
