package gui

import (
	"fmt"
	"time"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
)

// maxMatchGames bounds the games of a traditional match.
const maxMatchGames = 20

// nextGameAfter is how long a finished game between engines stays on
// the page before the match's next game starts.
const nextGameAfter = 1500 * time.Millisecond

// tradMatch is a traditional Hoyito III match (rule book 2.6): games in
// sequence between two players, A (South in the first game) and B, the
// colours alternating; the seeds left by the capture that ends a game go
// to the capturer in games 1 and 2, and from game 3 on to the winner of
// the previous game (a drawn game leaves the setting as it was), as sower
// match --traditional-match plays it.
type tradMatch struct {
	games   int
	players [2]string // A and B
	rules   board.Rules
	done    []*record.GameRecord // the finished games, in order
	holder  int                  // the player the last four go to, or -1 for the capturer
	// scheduled is the game (the session's gameID) whose successor is
	// due to start by itself (autoNext).
	scheduled int
}

// newMatch makes a traditional match of n games from the first game's
// setup, whose LastFour it sets to the match's.
func newMatch(n int, ns *newSetup) (*tradMatch, error) {
	if ns.v.Family() != board.Hoyito {
		return nil, refuse("match", "match: a traditional match is played in hoyito3, not %s", ns.v.Name())
	}
	if n < 2 || n%2 != 0 || n > maxMatchGames {
		return nil, refuse("match", "match %d: want an even number of games from 2 to %d", n, maxMatchGames)
	}
	if len(ns.moves) > 0 || ns.start.String() != ns.v.Start().String() {
		return nil, refuse("match", "match: a traditional match starts its games from the start position")
	}
	m := &tradMatch{games: n, players: ns.players, rules: ns.v.Rules(), holder: -1}
	m.rules.LastFour = board.LastFourCapturer
	v, err := ns.v.WithRules(m.rules)
	if err != nil {
		return nil, err
	}
	ns.v = v
	return m, nil
}

// number is the 1-based number of the game in play.
func (m *tradMatch) number() int { return len(m.done) + 1 }

// sides returns the players of game k (1-based): A is South in odd games.
func (m *tradMatch) sides(k int) [2]string {
	if k%2 == 1 {
		return m.players
	}
	return [2]string{m.players[1], m.players[0]}
}

// player returns which player (0 A, 1 B) has side in game k.
func (m *tradMatch) player(k int, side board.Side) int {
	if (k%2 == 1) == (side == board.South) {
		return 0
	}
	return 1
}

// lastFour is game k's LastFour setting.
func (m *tradMatch) lastFour(k int) board.LastFour {
	if k <= 2 || m.holder < 0 {
		return board.LastFourCapturer
	}
	if m.player(k, board.South) == m.holder {
		return board.LastFourSouth
	}
	return board.LastFourNorth
}

// gameOver reports whether the game in play has ended (by the rules or on
// time), at its last ply.
func (s *session) gameOver() bool {
	g := s.gameAt(len(s.moves))
	return g.Status().Over() || s.lostAt(len(s.moves)) != nil
}

// nextGame records the finished game of the match and starts the next:
// the colours swapped, LastFour as the tradition gives it.
func (s *session) nextGame() error {
	m := s.match
	switch {
	case m == nil:
		return fmt.Errorf("next game: no match is being played")
	case !s.gameOver():
		return fmt.Errorf("next game: game %d of the match is not over", m.number())
	case m.number() >= m.games:
		return fmt.Errorf("next game: the match of %d games is over", m.games)
	}
	k := m.number()
	rec := s.record()
	rec.Game = k
	rec.Engine1 = "south"
	if k%2 == 0 {
		rec.Engine1 = "north"
	}
	m.done = append(m.done, rec)
	if k >= 2 && rec.Winner != "draw" {
		w := board.South
		if rec.Winner == "north" {
			w = board.North
		}
		m.holder = m.player(k, w)
	}
	rules := m.rules
	rules.LastFour = m.lastFour(k + 1)
	v, err := s.v.WithRules(rules)
	if err != nil {
		return err
	}
	s.stopJob()
	s.players = m.sides(k + 1)
	s.begin(v, v.Start(), nil)
	return nil
}

// records returns the match's records: the finished games and the one in
// play, numbered, each saying which side player A had (Engine1).
func (m *tradMatch) records(s *session) []*record.GameRecord {
	recs := append([]*record.GameRecord(nil), m.done...)
	rec := s.record()
	rec.Game = m.number()
	rec.Engine1 = "south"
	if rec.Game%2 == 0 {
		rec.Engine1 = "north"
	}
	return append(recs, rec)
}

// autoNext starts the next game of a match between engines a moment
// after a game ends, so that the page shows the end first.
func (s *session) autoNext() {
	m := s.match
	if m == nil || m.scheduled == s.gameID || s.players[0] == "human" || s.players[1] == "human" || s.paused || !s.gameOver() || m.number() >= m.games {
		return
	}
	id := s.gameID
	m.scheduled = id
	time.AfterFunc(nextGameAfter, func() {
		s.post(func() {
			if s.match == m && s.gameID == id && !s.paused && s.gameOver() && s.view == len(s.moves) {
				if err := s.nextGame(); err == nil {
					s.update()
				}
			}
		})
	})
}

// matchMsg is a match as the page shows it.
type matchMsg struct {
	Games   int       `json:"games"`
	Game    int       `json:"game"`    // the game in play, 1-based
	Players [2]string `json:"players"` // A (South in game 1) and B
	// Score is each player's points: the finished games and the one in
	// play once it is over (a win 1, a draw ½).
	Score    [2]float64     `json:"score"`
	LastFour string         `json:"lastFour"` // the game in play's setting
	Results  []matchGameMsg `json:"results"`
	// Next says the game in play is over and another follows ("next"
	// starts it; between engines it starts by itself).
	Next bool `json:"next"`
	// Over says the match's last game is over: the score is final.
	Over bool `json:"over"`
}

// matchGameMsg is one finished game of a match.
type matchGameMsg struct {
	Game     int    `json:"game"`
	South    string `json:"south"`
	North    string `json:"north"`
	LastFour string `json:"lastFour"`
	Result   string `json:"result"` // 1-0, 0-1 or 1/2-1/2
	Seeds    string `json:"seeds"`  // "30-18", South's first
}

// matchState writes the match for the state message.
func (s *session) matchState() *matchMsg {
	m := s.match
	if m == nil {
		return nil
	}
	mm := &matchMsg{Games: m.games, Game: m.number(), Players: m.players, LastFour: s.v.Rules().LastFour.String(), Results: []matchGameMsg{}}
	recs := m.done
	over := s.gameOver()
	if over {
		recs = m.records(s)
	}
	for _, r := range recs {
		g := matchGameMsg{Game: r.Game, South: r.South, North: r.North, LastFour: r.Options["LastFour"], Result: r.Result}
		if r.Seeds != nil {
			g.Seeds = fmt.Sprintf("%d-%d", r.Seeds[0], r.Seeds[1])
		}
		mm.Results = append(mm.Results, g)
		switch r.Winner {
		case "draw":
			mm.Score[0] += 0.5
			mm.Score[1] += 0.5
		case "south":
			mm.Score[m.player(r.Game, board.South)]++
		case "north":
			mm.Score[m.player(r.Game, board.North)]++
		}
	}
	mm.Next = over && m.number() < m.games
	mm.Over = over && m.number() >= m.games
	return mm
}
