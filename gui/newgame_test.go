package gui

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
	"github.com/sower-engine/sower/protocol/client/clienttest"
)

// TestNewGameRefusals sends new games with one bad field each: every one
// is refused with a message that names the field and what it wants, and
// the game shown stays as it was. Good values at the edges are taken.
func TestNewGameRefusals(t *testing.T) {
	addr, _ := startServer(t, Engine{Name: "e", Command: []string{"e"}})
	p := open(t, addr)
	base := map[string]any{"type": "new", "game": board.NameHoyito3, "south": "human", "north": "human"}
	with := func(kv ...any) map[string]any {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	p.send(base)
	p.await("the first game", func(p *page) bool { return p.last.Game == board.NameHoyito3 })
	katro := "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 0"
	limit := fmt.Sprintf("want a whole number of plies from 0 (off) to %d", board.MaxNoCaptureLimit)
	for _, c := range []struct {
		name string
		req  map[string]any
		want string // in the message
	}{
		{"captureside on Katro", with("game", board.NameKatro, "captureSide", "opponent"), "captureside opponent: a Hoyito III rule"},
		{"lastfour on Katro", with("game", board.NameKatro4x4, "lastFour", "north"), "lastfour north: a Hoyito III rule"},
		{"limit 1.5 as text", with("noCaptureLimit", "1.5"), `no-capture limit "1.5": ` + limit},
		{"limit 1.5 as a number", with("noCaptureLimit", 1.5), `no-capture limit "1.5": ` + limit},
		{"empty limit", with("noCaptureLimit", ""), "no-capture limit: empty; " + limit},
		{"limit past the maximum", with("noCaptureLimit", board.MaxNoCaptureLimit+1), limit},
		{"negative limit", with("noCaptureLimit", -1), limit},
		{"depth 500", with("limitKind", "depth", "limitValue", "500"), `depth "500": want 1 to 127 plies`},
		{"clock past the limit", with("fen", "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 999"), "the no-capture clock 999 is past the game's no-capture limit of 200 plies"},
		{"a Katro position in Hoyito III", with("fen", katro), "looks like a katro-4x4 position, and the game is hoyito3"},
		{"unknown engine", with("north", "stockfish"), `north: no engine named "stockfish"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			id := p.last.GameID
			p.msg = ""
			p.send(c.req)
			p.await("the refusal", func(p *page) bool { return p.msg != "" })
			if !strings.Contains(p.msg, c.want) {
				t.Errorf("message %q, want it to contain %q", p.msg, c.want)
			}
			p.send(map[string]any{"type": "goto", "ply": 0})
			p.await("the state", func(p *page) bool { return p.msg == "" })
			if p.last.GameID != id {
				t.Errorf("the refused request started game %d (was %d)", p.last.GameID, id)
			}
		})
	}
	for _, c := range []struct {
		limit any
		want  int
	}{{"150", 150}, {0, 0}, {board.MaxNoCaptureLimit, board.MaxNoCaptureLimit}, {" 7 ", 7}} {
		p.msg = "x"
		p.send(with("noCaptureLimit", c.limit))
		p.await("the game", func(p *page) bool { return p.msg == "" && p.last.Rules.NoCaptureLimit == c.want })
	}
}

// TestAddressKeepsValid sends the address's game with bad fields: the
// game starts with every good field and the defaults for the bad ones,
// and one message names each bad field.
func TestAddressKeepsValid(t *testing.T) {
	addr, _ := startServer(t, Engine{Name: "e", Command: []string{"e"}})
	p := open(t, addr)
	p.send(map[string]any{"type": "new", "address": true, "game": board.NameHoyito3, "south": "human", "north": "stockfish",
		"limitKind": "movetime", "limitValue": "abc", "lastFour": "north", "noCaptureLimit": "1.5", "captureSide": "sideways",
		"fen": "garbage", "moves": "a1"})
	p.await("the game", func(p *page) bool { return p.last.Game == board.NameHoyito3 })
	s := p.last
	if s.Rules.LastFour != "north" || s.Rules.CaptureSide != "any" || s.Rules.NoCaptureLimit != board.DefaultNoCaptureLimit {
		t.Errorf("rules %+v: want LastFour north kept, CaptureSide and the no-capture limit at their defaults", s.Rules)
	}
	if s.Players != [2]string{"human", "e"} || s.Limit != (limitMsg{"movetime", "1000"}) || !s.StartIsInitial || len(s.Moves) != 1 {
		t.Errorf("players %v, limit %v, start %q, %d moves: want human and e, 1000 ms, the start, a1 played", s.Players, s.Limit, s.Start, len(s.Moves))
	}
	for _, want := range []string{`north: no engine named "stockfish"`, `movetime "abc"`, `no-capture limit "1.5"`, `CaptureSide "sideways"`, "fen:", "the game starts from its start position", "The rest of the address is kept"} {
		if !strings.Contains(p.msg, want) {
			t.Errorf("message %q: want it to name %q", p.msg, want)
		}
	}
	if strings.Contains(p.msg, "moves:") || strings.Contains(p.msg, "lastfour") {
		t.Errorf("message %q: refuses good fields (lastfour, or moves legal from the start)", p.msg)
	}
}

// TestTakeBackBetweenEngines takes back in engine games, finished and
// paused: exactly one ply goes each time, and play stays paused.
func TestTakeBackBetweenEngines(t *testing.T) {
	fake := clienttest.BuildFake(t)
	addr, _ := startServer(t, Engine{Name: "fake", Command: []string{fake}})
	p := open(t, addr)
	v, _ := board.New(board.NameKatro4x4)
	g := board.NewGame(v.Start())
	rng := rand.New(rand.NewPCG(3, 0))
	for !g.Status().Over() {
		pos := g.Position()
		l := pos.LegalMoves()
		g.Play(l[rng.IntN(len(l))])
	}
	n := len(g.Moves())
	p.send(map[string]any{"type": "new", "game": board.NameKatro4x4, "south": "fake", "north": "fake", "moves": board.FormatMoves(g.Moves())})
	p.await("the finished game", func(p *page) bool { return p.last.Turn == "over" && len(p.last.Moves) == n })
	for k := 1; k <= 3; k++ {
		p.send(map[string]any{"type": "takeback"})
		p.await("the take back", func(p *page) bool { return len(p.last.Moves) < n-k+1 })
		if len(p.last.Moves) != n-k || p.last.View != n-k || !p.last.Paused {
			t.Fatalf("take back %d of a finished %d-ply engine game: %d plies, view %d, paused %v; want %d, paused", k, n, len(p.last.Moves), p.last.View, p.last.Paused, n-k)
		}
	}
	// A running engine game, paused.
	id := p.last.GameID
	p.send(map[string]any{"type": "new", "game": board.NameKatro4x4, "south": "fake", "north": "fake", "limitKind": "movetime", "limitValue": "20"})
	p.await("three plies", func(p *page) bool { return p.last.GameID != id && len(p.last.Moves) >= 3 })
	p.send(map[string]any{"type": "pause"})
	p.await("the pause", func(p *page) bool { return p.last.Paused && !p.last.Thinking })
	m := len(p.last.Moves)
	p.send(map[string]any{"type": "takeback"})
	p.await("the take back", func(p *page) bool { return len(p.last.Moves) < m })
	if len(p.last.Moves) != m-1 || !p.last.Paused {
		t.Errorf("take back in a paused %d-ply engine game: %d plies, paused %v; want %d, paused", m, len(p.last.Moves), p.last.Paused, m-1)
	}
}

// TestProof reads "info string proven: …" lines and the scores they
// prove: only the same exact score, never a bound or another number.
func TestProof(t *testing.T) {
	for _, c := range []struct {
		line  string
		score string // an info line's score
		want  bool
	}{
		{"info string proven: win by exactly 8 seeds", "score cp 800", true},
		{"info string proven: win by exactly 8 seeds", "score cp 800 lowerbound", false},
		{"info string proven: win by exactly 8 seeds", "score cp 700", false},
		{"info string proven: loss by exactly 4 seeds", "score cp -400", true},
		{"info string proven: loss by exactly 1 seed", "score cp -100", true},
		{"info string proven: draw", "score cp 0", true},
		{"info string proven: draw", "score cp 1", false},
		{"info string proven: win in 7 plies", "score mate 4", false}, // a mate is proven by itself
		{"info string proven: win in 7 plies", "score cp 0", false},
		{"info string something else", "score cp 0", false},
		{"", "score cp 100000", false},
	} {
		var pf proof
		pf.read(c.line)
		var in client.Info
		in.Parse("info depth 9 " + c.score + " pv a1")
		if got := pf.proves(in); got != c.want {
			t.Errorf("after %q, %q proven: %v, want %v", c.line, c.score, got, c.want)
		}
	}
}

// TestResultText writes finished games' results in words.
func TestResultText(t *testing.T) {
	for _, c := range []struct {
		game, fen, moves, want string
	}{
		{board.NameHoyito3, "0,0,0,0,0,0/0,0,0,0,0,0 S 24 24 0", "", "Draw, 24 seeds each: the board is empty"},
		{board.NameHoyito3, "0,0,0,0,0,0/0,0,0,0,0,0 N 30 18 0", "", "South wins 30-18: the board is empty"},
		{board.NameKatro4x4, "16,0,0,0/0,0,0,16/0,0,0,0/0,0,0,0 S 0", "", "North wins: South has no move left"},
		{board.NameKatro4x4, "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 200", "", "Draw: 200 plies without a capture (the no-capture limit)"},
		{board.NameHoyito3, "4,0,0,0,0,0/0,0,0,0,0,4 S 20 20 200", "", "Draw, 24 seeds each: 200 plies without a capture (the no-capture limit); each player took the seeds of their own row"},
	} {
		v, err := board.New(c.game)
		if err != nil {
			t.Fatal(err)
		}
		p, err := v.ParsePosition(c.fen)
		if err != nil {
			t.Fatalf("%s: %v", c.fen, err)
		}
		g := board.NewGame(p)
		if got := resultText(g); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.game, c.fen, got, c.want)
		}
	}
}

// TestLastFourText finds Hoyito III games that end by the LastFour rule
// and checks their result names the capturer: the side whose store the
// last move filled.
func TestLastFourText(t *testing.T) {
	v, _ := board.New(board.NameHoyito3)
	rng := rand.New(rand.NewPCG(5, 0))
	found := 0
	for game := 0; game < 200 && found < 3; game++ {
		g := board.NewGame(v.Start())
		for !g.Status().Over() {
			pos := g.Position()
			l := pos.LegalMoves()
			g.Play(l[rng.IntN(len(l))])
		}
		st := g.Status()
		if st.Reason != board.ReasonLastFour {
			continue
		}
		found++
		moves := g.Moves()
		before := board.NewGame(v.Start())
		before.PlayAll(moves[:len(moves)-1])
		b, a := before.Position(), g.Position()
		capturer := board.South
		if a.Captured(board.North) > b.Captured(board.North) {
			capturer = board.North
		}
		win, lose := max(st.Seeds[0], st.Seeds[1]), min(st.Seeds[0], st.Seeds[1])
		want := fmt.Sprintf("%s wins %d-%d: %s made the last capture and took the last seeds (four or fewer)", st.Result.String(), win, lose, capturer)
		want = strings.ToUpper(want[:1]) + want[1:]
		if st.Seeds[0] == st.Seeds[1] {
			want = fmt.Sprintf("Draw, %d seeds each: %s made the last capture and took the last seeds (four or fewer)", win, capturer)
		}
		if got := resultText(g); got != want {
			t.Errorf("%s: %q, want %q", board.FormatMoves(moves), got, want)
		}
	}
	if found == 0 {
		t.Fatal("no random game ended by the LastFour rule")
	}
}
