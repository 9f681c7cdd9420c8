package gui

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"time"
)

// pastGame is one finished game the store keeps, for the page's list of
// past games: its session (the page opens it with ?session=ID), what was
// played and how it ended.
type pastGame struct {
	ID      string    `json:"id"`
	Game    string    `json:"game"`
	Players [2]string `json:"players"` // South, North
	Plies   int       `json:"plies"`
	Status  string    `json:"status"` // south, north or draw: the winner
	Result  string    `json:"result"` // in words, as the page shows it
	// Reviewed says the game has a review; Saved is when its state was
	// last kept.
	Reviewed bool      `json:"reviewed"`
	Saved    time.Time `json:"saved"`
}

// gamesMsg is the list of past games, newest first.
type gamesMsg struct {
	Type  string     `json:"type"` // "games"
	Games []pastGame `json:"games"`
}

// keptState is a game's saved state as the store has it.
type keptState struct {
	id string
	b  []byte
}

// states returns the state of every game the store keeps, in memory or
// in its directory; a file that cannot be read is left out.
func (st *store) states() []keptState {
	st.mu.Lock()
	var out []keptState
	var onDisk []string
	seen := map[string]bool{}
	for id, e := range st.games {
		seen[id] = true
		switch {
		case e.saved != nil:
			out = append(out, keptState{id, e.saved})
		case e.kept && st.dir != "":
			onDisk = append(onDisk, id)
		}
	}
	st.mu.Unlock()
	if st.dir != "" {
		des, _ := os.ReadDir(st.dir)
		for _, de := range des {
			if id, ok := strings.CutSuffix(de.Name(), ".json"); ok && validID(id) && !seen[id] {
				onDisk = append(onDisk, id)
			}
		}
	}
	for _, id := range onDisk {
		if b, err := st.load(&entry{id: id, kept: true}); err == nil && b != nil {
			out = append(out, keptState{id, b})
		}
	}
	return out
}

// pastGames lists the finished games the store keeps, newest first,
// but the game of session self. A state the server would refuse to
// restore is left out.
func (s *Server) pastGames(self string) []pastGame {
	out := []pastGame{}
	for _, k := range s.store.states() {
		if k.id == self {
			continue
		}
		ss := newSession(s, nil)
		if err := ss.restore(k.b); err != nil {
			continue
		}
		n := len(ss.moves)
		g := ss.gameAt(n)
		pg := pastGame{ID: k.id, Game: ss.v.Name(), Players: ss.players, Plies: n, Reviewed: len(ss.review) > 0, Saved: savedAt(k.b)}
		switch l := ss.lostAt(n); {
		case l != nil:
			pg.Status, pg.Result = l.winner().String(), l.text()
		case g.Status().Over():
			pg.Status, pg.Result = g.Status().Result.String(), resultText(g)
		default:
			continue
		}
		out = append(out, pg)
	}
	slices.SortFunc(out, func(a, b pastGame) int { return b.Saved.Compare(a.Saved) })
	return out
}

// savedAt reads when a state was saved; the zero time if it cannot.
func savedAt(b []byte) time.Time {
	var st struct {
		Saved time.Time `json:"saved"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return time.Time{}
	}
	return st.Saved
}

// sendPastGames lists the past games for the page, read away from the
// session's loop (the store may read many files).
func (s *session) sendPastGames() {
	self := s.game.id
	go func() {
		list := s.srv.pastGames(self)
		s.post(func() { s.send(gamesMsg{Type: "games", Games: list}) })
	}()
}

// leaving returns the state of the game in play if it is finished, to
// be kept apart as a past game of its own (keepApart) once a new game, a
// set up or an opened record has replaced it in this tab's session; nil
// if there is nothing to keep.
func (s *session) leaving() []byte {
	n := len(s.moves)
	if n == 0 || s.game == nil {
		return nil
	}
	if g := s.gameAt(n); !g.Status().Over() && s.lostAt(n) == nil {
		return nil
	}
	return s.snapshot()
}

// keepApart keeps done, a finished game's state from leaving, under a
// new id, and the session's new game under its own, in one step of the
// store: a list of past games read at any moment has the finished game
// once, never twice (also under the tab's id) nor not at all.
func (s *session) keepApart(done []byte) {
	if done == nil {
		return
	}
	s.srv.store.putApart(s.game, s.snapshot(), done)
	s.dirty = false
}
