package record

import (
	"strings"
	"testing"
)

// playedGame returns a record of game n with the given moves and result.
func playedGame(n int, moves string, result string, term Termination) GameRecord {
	g := GameRecord{Game: n, Result: result, Termination: term}
	for _, m := range strings.Fields(moves) {
		g.Moves = append(g.Moves, MoveRecord{Move: m})
	}
	return g
}

// TestComparePlayedOut counts the plies saved, an adjudication that
// agrees, one that differs, and games that diverged, reported by game
// number.
func TestComparePlayedOut(t *testing.T) {
	adj := []GameRecord{
		playedGame(1, "a1 b2", "0-1", Adjudication),  // agrees
		playedGame(12, "a1", "1-0", Adjudication),    // differs
		playedGame(3, "c1 d2 e1", "1/2-1/2", Normal), // the same game
		playedGame(4, "a1 c2", "0-1", Adjudication),  // other moves
		playedGame(5, "a1 b2 c1", "1-0", Normal),     // ended, but longer when played out
		playedGame(6, "a1 b2", "1-0", TimeForfeit),   // the same moves, another result
	}
	played := []GameRecord{
		playedGame(12, "a1 b2 c1 d2", "0-1", Normal),
		playedGame(1, "a1 b2 c1 d2 e1 f2", "0-1", Normal),
		playedGame(3, "c1 d2 e1", "1/2-1/2", Normal),
		playedGame(4, "a1 b2 c1", "0-1", Normal),
		playedGame(5, "a1 b2 c1 d2", "1-0", Normal),
		playedGame(6, "a1 b2", "1/2-1/2", Normal),
	}
	p, err := ComparePlayedOut(adj, played)
	if err != nil {
		t.Fatal(err)
	}
	if p.Games != 6 || p.Adjudicated != 3 || p.Agree != 1 || p.Plies != 13 || p.PlayedPlies != 22 {
		t.Errorf("counts %+v", p)
	}
	var games []int
	for _, d := range p.Differ {
		games = append(games, d.Game)
	}
	if len(p.Differ) != 4 || games[0] != 4 || games[1] != 5 || games[2] != 6 || games[3] != 12 {
		t.Fatalf("differences %+v, want games 4, 5, 6, 12 in order", p.Differ)
	}
	if !p.Differ[0].Diverged || !p.Differ[1].Diverged || p.Differ[2].Diverged || p.Differ[3].Diverged ||
		!strings.HasPrefix(p.Differ[3].Detail, "game 12: adjudicated 1-0 at ply 1") ||
		!strings.Contains(p.Differ[0].Detail, "at ply 2") {
		t.Errorf("differences %+v", p.Differ)
	}
	if s := p.Saving(); s < 0.409 || s > 0.410 {
		t.Errorf("saving %.4f, want 9/22", s)
	}
}

// TestComparePlayedOutRefused refuses files that do not hold the same
// games, naming the game.
func TestComparePlayedOutRefused(t *testing.T) {
	adj := []GameRecord{playedGame(1, "a1", "0-1", Adjudication), playedGame(2, "a1", "0-1", Adjudication)}
	played := []GameRecord{playedGame(1, "a1 b2", "0-1", Normal), playedGame(2, "a1 b2", "0-1", Normal)}
	if _, err := ComparePlayedOut(adj, played[:1]); err == nil || !strings.Contains(err.Error(), "2 games with adjudication and 1 played out") {
		t.Errorf("a game played out missing: %v", err)
	}
	played[1].Game = 3
	if _, err := ComparePlayedOut(adj, played); err == nil || !strings.Contains(err.Error(), "game 2 is not among") {
		t.Errorf("game 2 not played out: %v", err)
	}
	played[1].Game = 1
	if _, err := ComparePlayedOut(adj, played); err == nil || !strings.Contains(err.Error(), "game 1 is recorded twice") {
		t.Errorf("game 1 twice: %v", err)
	}
	// A tournament's games are told apart by pairing too.
	adj[1].Game, adj[1].Pairing, played[1].Pairing = 1, 2, 2
	if p, err := ComparePlayedOut(adj, played); err != nil || p.Agree != 2 {
		t.Errorf("by pairing: %+v %v", p, err)
	}
}
