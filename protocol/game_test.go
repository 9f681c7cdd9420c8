package protocol

import (
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestFullGames plays a game of every variant through the protocol as a
// UGI match runner does: it keeps no rules of its own, asks whose turn it
// is and whether the game is over, and plays the engine's bestmove until
// the engine says the game is over. A board.Game follows along to check
// every answer.
func TestFullGames(t *testing.T) {
	for _, variant := range board.Names() {
		t.Run(variant, func(t *testing.T) {
			s := newSession(t, Config{MaxHashMiB: 4})
			s.send("ugi")
			s.expect("ugiok")
			s.send("setoption name UCI_Variant value "+variant, "setoption name Hash value 4")
			s.expect("info string variant " + variant + " startpos ")
			s.send("uginewgame")
			s.sync()
			v, err := board.New(variant)
			if err != nil {
				t.Fatal(err)
			}
			ref := board.NewGame(v.Start())
			var moves []string
			for ply := 0; ; ply++ {
				if ply > 5000 {
					t.Fatal("the game does not end")
				}
				pos := "position startpos"
				if len(moves) > 0 {
					pos += " moves " + strings.Join(moves, " ")
				}
				p := ref.Position()
				s.send(pos, "query gameover", "query p1turn")
				if got, want := s.expect("response ")[0], "response "+boolText(ref.Status().Over()); got != want {
					t.Fatalf("ply %d gameover: %q, want %q", ply, got, want)
				}
				if got, want := s.expect("response ")[0], "response "+boolText(p.Side() == board.South); got != want {
					t.Fatalf("ply %d p1turn: %q, want %q", ply, got, want)
				}
				if ref.Status().Over() {
					break
				}
				// Alternate the kinds of limit a runner sends.
				goCmd := "go nodes 600"
				if ply%3 == 1 {
					goCmd = "go depth 2"
				} else if ply%3 == 2 {
					goCmd = "go p1time 20000 p2time 20000 p1inc 0 p2inc 0 movestogo 1000 nodes 400"
				}
				s.send(goCmd)
				move, _ := s.bestmove()
				m, err := v.ParseMove(move)
				if err == nil {
					err = ref.Play(m)
				}
				if err != nil {
					t.Fatalf("ply %d: bestmove %s: %v", ply, move, err)
				}
				moves = append(moves, move)
			}
			s.send("query result", "d")
			if got, want := s.expect("response ")[0], "response "+ugiResult(ref.Status().Result); got != want {
				t.Errorf("result %q, want %q", got, want)
			}
			if got := field(s.expect("Status: "), "Status"); got != StatusText(ref.Status()) {
				t.Errorf("status %q, want %q", got, StatusText(ref.Status()))
			}
			s.send("go depth 3")
			if move, lines := s.bestmove(); move != "(none)" || !strings.HasPrefix(lines[len(lines)-1], "info depth 0 score ") {
				t.Errorf("go after the end: %q, bestmove %s", lines, move)
			}
			t.Logf("%s: %d plies, %s", variant, len(moves), StatusText(ref.Status()))
		})
	}
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
