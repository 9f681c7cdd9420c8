package gui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/sower-engine/sower/internal/sowertest"
	"github.com/sower-engine/sower/protocol/client/clienttest"
)

// stateServer makes a server that keeps its games in dir ("" in memory)
// and its notes in notes (if not nil), serves it on a free port and
// returns the address and a stop that ends it as Ctrl-C does.
func stateServer(t *testing.T, dir string, notes *sowertest.SyncBuffer, engines ...Engine) (string, func()) {
	t.Helper()
	cfg := Config{Engines: engines, Timeout: 5 * time.Second, StateDir: dir}
	if notes != nil {
		cfg.Errors = notes
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return serveStop(t, s)
}

// sessionOf waits for a page's first message and returns its session.
func (p *page) sessionOf() sessionMsg {
	p.t.Helper()
	p.await("the session", func(p *page) bool { return p.session.ID != "" })
	return p.session
}

// ms is a clock's time in milliseconds.
func ms(d time.Duration) int64 { return d.Milliseconds() }

// TestSessionRestart: a game against the engine under a clock, with
// analysis on, comes back after a restart of the server as it stood: the
// moves with the engine's scores, the shown ply, the analysis settings,
// and the clocks, which stopped with the server.
func TestSessionRestart(t *testing.T) {
	fake := clienttest.BuildFake(t)
	dir := t.TempDir()
	engines := []Engine{{Name: "fake", Command: []string{fake, "-multipv", "3"}}}
	addr, stop := stateServer(t, dir, nil, engines...)
	p := open(t, addr)
	sess := p.sessionOf()
	if sess.Restored || !validID(sess.ID) {
		t.Fatalf("a new page's session: %+v", sess)
	}
	p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "fake", "limitKind": "tc", "limitValue": "60+0"})
	p.await("the new game", func(p *page) bool { return p.last.Game == "katro-4x4" && p.last.Turn == "human" })
	p.send(map[string]any{"type": "move", "move": p.last.Legal[0], "ply": 0})
	p.await("the engine's answer", func(p *page) bool { return len(p.last.Moves) == 2 && !p.last.Thinking && p.last.Turn == "human" })
	p.send(map[string]any{"type": "analyse", "on": true, "engine": "fake", "multipv": 2})
	p.await("the analysis", func(p *page) bool { return p.last.Analysis.On && p.last.Analysis.MultiPV == 2 })
	before := p.last
	read := time.Now()
	stop()
	stopped := time.Since(read)
	if _, err := os.Stat(filepath.Join(dir, sess.ID+".json")); err != nil {
		t.Fatalf("no state file after the server stopped: %v", err)
	}
	time.Sleep(time.Second) // the server is down: no clock runs

	addr, _ = stateServer(t, dir, nil, engines...)
	q := openSession(t, addr, sess.ID)
	if s := q.sessionOf(); s.ID != sess.ID || !s.Restored {
		t.Fatalf("the session after a restart: %+v, want %s restored", s, sess.ID)
	}
	q.await("the restored game", func(p *page) bool { return p.last.GameID != 0 })
	got := q.last
	if !reflect.DeepEqual(got.Moves, before.Moves) || got.Fen != before.Fen || got.View != before.View || got.Limit != before.Limit {
		t.Errorf("restored %+v\nwant %+v", got, before)
	}
	if got.Analysis != before.Analysis {
		t.Errorf("analysis %+v, want %+v", got.Analysis, before.Analysis)
	}
	if got.Clocks == nil || got.Running != "south" {
		t.Fatalf("clocks %v, running %q: want South's running", got.Clocks, got.Running)
	}
	// South's clock ran from the state read until the server stopped, not
	// while it was down.
	south, was := got.Clocks[0], before.Clocks[0]
	if south > was || south < was-ms(stopped)-300 || got.Clocks[1] != before.Clocks[1] {
		t.Errorf("clocks after the restart %v, before %v (the server stopped %v after): South's must not have run while the server was down", *got.Clocks, *before.Clocks, stopped)
	}
}

// TestSessionClockRunsWhileAway: a person's clock runs on while no tab
// shows the game: a reload cannot refill it.
func TestSessionClockRunsWhileAway(t *testing.T) {
	addr, _ := stateServer(t, "", nil, Engine{Name: "e", Command: []string{"e"}})
	p := open(t, addr)
	id := p.sessionOf().ID
	p.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "human", "limitKind": "tc", "limitValue": "10+0"})
	p.await("the clock", func(p *page) bool { return p.last.Running == "south" })
	p.conn.CloseNow() // the connection drops
	const away = 1500 * time.Millisecond
	time.Sleep(away)
	q := openSession(t, addr, id)
	if s := q.sessionOf(); !s.Restored {
		t.Fatalf("the session after a drop: %+v", s)
	}
	q.await("the game", func(p *page) bool { return p.last.GameID != 0 })
	if c := q.last.Clocks; c == nil || c[0] > 10000-ms(away) || c[0] < 10000-ms(away)-1000 || c[1] != 10000 || q.last.Running != "south" {
		t.Errorf("clocks %v, running %q after %v away: want South's down by that, North's full", c, q.last.Running, away)
	}
}

// TestSessionTwoTabs: a second tab on a game takes it over: it shows the
// game as it stands, the first is told so and closed; the first can take
// it back, with the second's moves.
func TestSessionTwoTabs(t *testing.T) {
	addr, _ := stateServer(t, "", nil, Engine{Name: "e", Command: []string{"e"}})
	a := open(t, addr)
	id := a.sessionOf().ID
	a.send(map[string]any{"type": "new", "game": "katro-4x4", "south": "human", "north": "human"})
	a.await("the game", func(p *page) bool { return p.last.Game == "katro-4x4" })
	for ply := 0; ply < 2; ply++ {
		a.send(map[string]any{"type": "move", "move": a.last.Legal[0], "ply": ply})
		a.await("the move", func(p *page) bool { return len(p.last.Moves) == ply+1 })
	}
	b := openSession(t, addr, id)
	if s := b.sessionOf(); s.ID != id || !s.Restored {
		t.Fatalf("the second tab's session: %+v, want %s restored", s, id)
	}
	b.await("the game", func(p *page) bool { return p.last.GameID != 0 })
	if b.last.Fen != a.last.Fen || len(b.last.Moves) != 2 {
		t.Errorf("the second tab shows %s after %d plies, the first %s after 2", b.last.Fen, len(b.last.Moves), a.last.Fen)
	}
	a.await("the note that the game went on elsewhere", func(p *page) bool { return p.taken })
	if _, err := a.read(); websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Errorf("the first tab's socket after the note: %v, want closed going away", err)
	}

	b.send(map[string]any{"type": "move", "move": b.last.Legal[0], "ply": 2})
	b.await("the move", func(p *page) bool { return len(p.last.Moves) == 3 })
	a2 := openSession(t, addr, id)
	if s := a2.sessionOf(); s.ID != id || !s.Restored {
		t.Fatalf("the first tab back: %+v", s)
	}
	a2.await("the game", func(p *page) bool { return p.last.GameID != 0 })
	if a2.last.Fen != b.last.Fen || len(a2.last.Moves) != 3 {
		t.Errorf("the first tab back shows %s after %d plies, want the second's %s after 3", a2.last.Fen, len(a2.last.Moves), b.last.Fen)
	}
	b.await("the note that the game went on elsewhere", func(p *page) bool { return p.taken })
}

// TestSessionStateRefused: a state file that is damaged, does not fit the
// rules or names an engine the server lacks is refused by name and
// ignored: the page gets a new game; the server goes on.
func TestSessionStateRefused(t *testing.T) {
	dir := t.TempDir()
	var notes sowertest.SyncBuffer
	engines := []Engine{{Name: "e", Command: []string{"e"}}}
	good := savedState{Format: stateFormat, Saved: time.Now(), GameID: 1, Game: "katro-4x4",
		Rules: rulesMsg{"any", "capturer", "threefold", 200}, Start: "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 0",
		Plies: []savedPly{{Move: "a1", By: "human"}}, Players: [2]string{"human", "human"},
		Limit: limitMsg{"movetime", "1000"}, Running: -1, Analysis: analysis{Engine: "e", MultiPV: 1, MaxMultiPV: 1}}
	variants := map[string]func(s *savedState){
		"ok":             func(*savedState) {},
		"illegal move":   func(s *savedState) { s.Plies[0].Move = "a4" },
		"unknown engine": func(s *savedState) { s.Players[1] = "stockfish" },
		"other format":   func(s *savedState) { s.Format = "sower gui game 99" },
		"bad view":       func(s *savedState) { s.View = 5 },
	}
	ids := map[string]string{}
	k := 0
	for name, change := range variants {
		st := good
		st.Plies = append([]savedPly(nil), good.Plies...)
		change(&st)
		b, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = strings.Repeat("0", 31) + string(rune('a'+k))
		k++
		if err := os.WriteFile(filepath.Join(dir, ids[name]+".json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ids["damaged"] = strings.Repeat("1", 32)
	if err := os.WriteFile(filepath.Join(dir, ids["damaged"]+".json"), []byte(`{"format": "sower gui game 1", "plies": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	addr, _ := stateServer(t, dir, &notes, engines...)
	for name, id := range ids {
		p := openSession(t, addr, id)
		s := p.sessionOf()
		if name == "ok" {
			if !s.Restored || s.ID != id {
				t.Errorf("a good state file: session %+v, want %s restored", s, id)
			}
			continue
		}
		if s.Restored || s.ID == id || !validID(s.ID) {
			t.Errorf("%s: session %+v, want a new game", name, s)
		}
		if file := filepath.Join(dir, id+".json"); !strings.Contains(notes.String(), file) {
			t.Errorf("%s: the notes do not name %s:\n%s", name, file, notes.String())
		}
		// The page goes on with a game of its own.
		p.send(map[string]any{"type": "new", "game": "katro"})
		p.await("a game", func(p *page) bool { return p.last.Game == "katro" })
	}
	for _, want := range []string{"damaged:", "ply 1:", `no engine named "stockfish"`, `format "sower gui game 99"`, "view 5"} {
		if !strings.Contains(notes.String(), want) {
			t.Errorf("the notes do not say %q:\n%s", want, notes.String())
		}
	}
	// Ids that are not a store's: a new game, no file looked for.
	for _, id := range []string{"../etc/passwd", strings.Repeat("A", 32), "x"} {
		p := openSession(t, addr, strings.ReplaceAll(id, "/", "%2F"))
		if s := p.sessionOf(); s.Restored || !validID(s.ID) {
			t.Errorf("session=%s: %+v, want a new game", id, s)
		}
	}
}

// TestStorePrune: a game no tab has shown for a week is dropped, and past
// the most kept the oldest go first; a game a tab shows stays.
func TestStorePrune(t *testing.T) {
	now := time.Now()
	for _, inDir := range []bool{true, false} {
		dir := ""
		if inDir {
			dir = t.TempDir()
		}
		st := newStore(dir, func(format string, a ...any) { t.Errorf("note: "+format, a...) })
		st.max = 3
		ages := []time.Duration{8 * 24 * time.Hour, time.Hour, 2 * time.Hour, 3 * time.Hour, 4 * time.Hour}
		var ids []string
		for i, age := range ages {
			id := strings.Repeat("0", 31) + string(rune('a'+i))
			ids = append(ids, id)
			if inDir {
				f := filepath.Join(dir, id+".json")
				if err := os.WriteFile(f, []byte("{}"), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(f, now.Add(-age), now.Add(-age)); err != nil {
					t.Fatal(err)
				}
			} else {
				st.games[id] = &entry{id: id, kept: true, saved: []byte("{}"), seen: now.Add(-age)}
			}
		}
		// An old game a tab shows now.
		live := strings.Repeat("f", 32)
		st.games[live] = &entry{id: live, kept: true, live: &session{}, seen: now.Add(-30 * 24 * time.Hour)}
		st.prune(now)
		kept := func(id string) bool {
			if inDir {
				_, err := os.Stat(filepath.Join(dir, id+".json"))
				return err == nil
			}
			return st.games[id] != nil
		}
		for i, want := range []bool{false, true, true, true, false} {
			if kept(ids[i]) != want {
				t.Errorf("dir %v: the game last shown %v ago kept %v, want %v", inDir, ages[i], !want, want)
			}
		}
		if st.games[live] == nil {
			t.Errorf("dir %v: the game a tab shows was dropped", inDir)
		}
	}
}

// TestSessionMatchAndReview: a traditional match and a reviewed game come
// back after a restart as they stood, and a review under way goes on from
// where it stood.
func TestSessionMatchAndReview(t *testing.T) {
	fake := clienttest.BuildFake(t)
	dir := t.TempDir()
	engines := []Engine{{Name: "fake", Command: []string{fake}}, {Name: "slow", Command: []string{fake, "-mode", "late", "-delay", "300ms"}}}
	addr, stop := stateServer(t, dir, nil, engines...)
	p := open(t, addr)
	id := p.sessionOf().ID
	p.send(map[string]any{"type": "new", "game": "hoyito3", "south": "human", "north": "human", "match": 2})
	p.await("the match", func(p *page) bool { return p.last.Match != nil && p.last.Game == "hoyito3" })
	for p.last.Turn != "over" {
		n := len(p.last.Moves)
		p.send(map[string]any{"type": "move", "move": p.last.Legal[0], "ply": n})
		p.await("the move", func(p *page) bool { return len(p.last.Moves) == n+1 })
	}
	p.send(map[string]any{"type": "next"})
	p.await("game 2", func(p *page) bool { return p.last.Match.Game == 2 && len(p.last.Moves) == 0 })
	for n := range 4 {
		p.send(map[string]any{"type": "move", "move": p.last.Legal[0], "ply": n})
		p.await("the move", func(p *page) bool { return len(p.last.Moves) == n+1 })
	}
	p.send(map[string]any{"type": "review", "on": true, "engine": "fake", "limitKind": "depth", "limitValue": "3"})
	p.await("the review", func(p *page) bool { return p.last.Review != nil && !p.last.Review.Running && p.last.Review.Plies == 4 })
	p.send(map[string]any{"type": "goto", "ply": 2})
	p.await("ply 2", func(p *page) bool { return p.last.View == 2 })
	before := p.last
	stop()

	addr, stop = stateServer(t, dir, nil, engines...)
	q := openSession(t, addr, id)
	q.await("the restored game", func(p *page) bool { return p.last.GameID != 0 })
	got := q.last
	if !reflect.DeepEqual(got.Match, before.Match) {
		t.Errorf("match %+v, want %+v", got.Match, before.Match)
	}
	if !reflect.DeepEqual(got.Review, before.Review) || !reflect.DeepEqual(got.Moves, before.Moves) || got.View != 2 || got.Rules != before.Rules {
		t.Errorf("review %+v, moves %+v at ply %d\nwant %+v, %+v at ply 2", got.Review, got.Moves, got.View, before.Review, before.Moves)
	}

	// A review under way, the server stopped after two positions.
	q.send(map[string]any{"type": "review", "on": true, "engine": "slow", "limitKind": "movetime", "limitValue": "2000"})
	q.await("two positions reviewed", func(p *page) bool { return p.last.Review != nil && p.last.Review.Running && p.last.Review.Done >= 2 })
	done := q.last.Review.Done
	stop()
	addr, _ = stateServer(t, dir, nil, engines...)
	r := openSession(t, addr, id)
	r.await("the review under way", func(p *page) bool { return p.last.GameID != 0 })
	if rv := r.last.Review; rv == nil || !rv.Running || rv.Engine != "slow" || rv.Done < done-1 || rv.Total != 5 {
		t.Fatalf("the review after the restart: %+v, want slow's under way from %d of 5 positions", rv, done)
	}
	r.await("the review's end", func(p *page) bool { return !p.last.Review.Running && p.last.Review.Plies == 4 })
	for i, m := range r.last.Moves {
		if m.Review == nil {
			t.Errorf("ply %d not reviewed", i+1)
		}
	}
}
