package protocol

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
	"github.com/sower-engine/sower/internal/sowertest"
	"github.com/sower-engine/sower/search"
	"github.com/sower-engine/sower/search/book"
)

// Positions used by several tests.
const (
	katroAfter4    = "1,0,3,1,4,1/4,0,1,4,4,1/3,3,1,0,3,3/3,3,0,0,3,3/0,3,3,1,4,4/1,0,0,0,5,2 S 2" // rule book 6
	katroStart     = "2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0"
	katroLost      = "12,12,12,12,12,12/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0 S 5" // South has no seeds
	katroLimit     = "2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 200"
	hoyitoStart    = "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 0"
	hoyitoAfter3   = "2,3,3,3,1,9/0,11,5,1,4,2 S 0 4 1"  // rule book 6
	hoyitoPass     = "1,1,1,1,1,3/0,0,0,0,0,0 S 20 20 3" // South must pass
	hoyitoNorthWin = "0,0,0,0,0,0/0,0,0,0,0,0 N 20 28 7"
	hoyitoDrawn    = "0,0,0,0,0,0/0,0,0,0,0,0 S 24 24 0"
)

// testServer drives a server directly, one line at a time, for commands
// that start no job; it can look at the server's state.
type testServer struct {
	t   *testing.T
	s   *server
	out *sowertest.SyncBuffer
	n   int // lines already returned
}

func newTestServer(t *testing.T, cfg Config) *testServer {
	out := new(sowertest.SyncBuffer)
	s := newServer(context.Background(), out, cfg)
	t.Cleanup(s.stopJob)
	return &testServer{t: t, s: s, out: out}
}

// do runs lines and returns the output lines they wrote.
func (ts *testServer) do(lines ...string) []string {
	ts.t.Helper()
	for _, l := range lines {
		if err := ts.s.handle(inputLine{text: l, length: len(l)}); err != nil {
			ts.t.Fatalf("%q: %v", l, err)
		}
	}
	if j := ts.s.job; j != nil { // let a perft or bench finish
		<-j.done
		ts.s.job = nil
	}
	all := ts.out.Lines()
	got := all[ts.n:]
	ts.n = len(all)
	return got
}

// state is everything a command may change, written out for comparison.
func (ts *testServer) state() string {
	s := ts.s
	p := s.game.Position()
	return fmt.Sprintf("variant %s rules %+v hash %d overhead %v start %s moves %v position %s status %+v",
		s.variant.Name(), s.rules, s.hashMiB, s.overhead, s.game.Start().String(), s.game.Moves(), p.String(), s.game.Status())
}

// field returns the value after "<name>: " in a d block.
func field(lines []string, name string) string {
	for _, l := range lines {
		if v, ok := strings.CutPrefix(l, name+": "); ok {
			return v
		}
	}
	return "<no " + name + " line>"
}

func TestNothingBeforeFirstCommand(t *testing.T) {
	if got := run(t, ""); len(got) != 0 {
		t.Errorf("output with no input: %q", got)
	}
	if got := run(t, "\n\n  \t \r\n"); len(got) != 0 {
		t.Errorf("output for empty lines: %q", got)
	}
}

func TestIdentify(t *testing.T) {
	eloLo, eloHi := search.SkillEloRange()
	for _, tc := range []struct{ cmd, ok string }{{"uci", "uciok"}, {"ugi", "ugiok"}} {
		t.Run(tc.cmd, func(t *testing.T) {
			got := run(t, tc.cmd+"\n")
			want := []string{
				"id name Sower " + Version,
				"id author The Sower developers",
				"option name UCI_Variant type combo default katro var katro var katro-6x3 var katro-4x6 var katro-4x4 var hoyito3",
				fmt.Sprintf("option name Hash type spin default 16 min 1 max %d", search.MaxHashMiB),
				"option name Clear Hash type button",
				"option name Threads type spin default 1 min 1 max 256",
				"option name Move Overhead type spin default 10 min 0 max 5000",
				"option name MultiPV type spin default 1 min 1 max 8",
				"option name Ponder type check default false",
				"option name UCI_ShowWDL type check default false",
				"option name Skill Level type spin default 20 min 0 max 20",
				"option name UCI_LimitStrength type check default false",
				fmt.Sprintf("option name UCI_Elo type spin default %d min %d max %d", eloLo, eloLo, eloHi),
				"option name CaptureSide type combo default any var any var opponent",
				"option name LastFour type combo default capturer var capturer var south var north",
				"option name Repetition type combo default threefold var threefold var off",
				"option name NoCaptureLimit type spin default 200 min 0 max 1000000",
				"option name TablePath type string default <empty>",
				"option name TableEstimate type check default true",
				"option name Prover type check default false",
				"option name ProverThread type check default false",
				"option name ProofBook type check default true",
				"option name EvalType type combo default auto var auto var linear var net",
				"option name EvalFile type string default <empty>",
				"option name EvalLazy type spin default 1200 min 0 max 10000",
				tc.ok,
			}
			if !slices.Equal(got, want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func TestIsReady(t *testing.T) {
	if got := run(t, "isready\n"); !slices.Equal(got, []string{"readyok"}) {
		t.Errorf("got %q", got)
	}
}

func TestMaxHashConfig(t *testing.T) {
	ts := newTestServer(t, Config{MaxHashMiB: 4})
	got := ts.do("uci")
	if !slices.Contains(got, "option name Hash type spin default 4 min 1 max 4") {
		t.Errorf("uci with MaxHashMiB 4:\n%s", strings.Join(got, "\n"))
	}
	if e := errorLines(ts.do("setoption name Hash value 5")); len(e) != 1 {
		t.Errorf("Hash 5 above the cap: %q", e)
	}
}

func TestSetOption(t *testing.T) {
	for _, tc := range []struct {
		cmd   string
		check func(s *server) bool
		out   string // an expected line, if any
	}{
		{"setoption name Hash value 32", func(s *server) bool { return s.hashMiB == 32 }, ""},
		{"setoption name hash value 1", func(s *server) bool { return s.hashMiB == 1 }, ""},
		{"setoption name HASH value 65536", func(s *server) bool { return s.hashMiB == 65536 }, ""},
		{"setoption name Clear Hash", func(s *server) bool { return true }, ""},
		{"setoption name clear   hash value ignored", func(s *server) bool { return true }, ""},
		{"setoption name Move Overhead value 100", func(s *server) bool { return s.overhead == 100*time.Millisecond }, ""},
		{"setoption name move\toverhead value 0", func(s *server) bool { return s.overhead == 0 }, ""},
		{"setoption name CaptureSide value opponent", func(s *server) bool {
			return s.rules.CaptureSide == board.CaptureOpponent && s.variant.Rules().CaptureSide == board.CaptureOpponent
		}, ""},
		{"setoption name captureside value ANY", func(s *server) bool { return s.rules.CaptureSide == board.CaptureAny }, ""},
		{"setoption name LastFour value north", func(s *server) bool { return s.rules.LastFour == board.LastFourNorth }, ""},
		{"setoption name LastFour value South", func(s *server) bool { return s.rules.LastFour == board.LastFourSouth }, ""},
		{"setoption name Repetition value threefold", func(s *server) bool { return s.rules.Repetition == board.RepetitionThreefold }, ""},
		{"setoption name NoCaptureLimit value 0", func(s *server) bool { return s.rules.NoCaptureLimit == 0 && s.variant.Rules().NoCaptureLimit == 0 }, ""},
		{"setoption name NoCaptureLimit value 1000000", func(s *server) bool { return s.rules.NoCaptureLimit == 1000000 }, ""},
		{"setoption name UCI_Variant value hoyito3", func(s *server) bool {
			return s.variant.Name() == "hoyito3" && s.game.Position().String() == hoyitoStart
		},
			"info string variant hoyito3 startpos " + hoyitoStart},
		{"setoption name uci_variant value KATRO-4X4", func(s *server) bool { return s.variant.Name() == "katro-4x4" },
			"info string variant katro-4x4 startpos 2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 0"},
		{"setoption name UCI_Variant value katro", func(s *server) bool { return s.variant.Name() == "katro" },
			"info string variant katro startpos " + katroStart},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			// The table is made by the first search: the largest Hash is
			// accepted where the memory would be available.
			ts := newTestServer(t, Config{AvailableMiB: func() (int, bool) { return 1 << 20, true }})
			got := ts.do(tc.cmd)
			if e := errorLines(got); len(e) > 0 {
				t.Fatalf("error: %q", e)
			}
			if !tc.check(ts.s) {
				t.Errorf("not applied: %s", ts.state())
			}
			if tc.out != "" && !slices.Equal(got, []string{tc.out}) {
				t.Errorf("output %q, want %q", got, tc.out)
			} else if tc.out == "" && len(got) > 0 {
				t.Errorf("output %q, want none", got)
			}
		})
	}
}

func TestSetOptionRefused(t *testing.T) {
	for _, cmd := range []string{
		"setoption",
		"setoption Hash value 3",
		"setoption name",
		"setoption name value 3",
		"setoption name Pondering value true",
		"setoption name Ponder value maybe",
		"setoption name Threads value 0",
		"setoption name Threads value 257",
		"setoption name Threads value x",
		"setoption name MultiPV value 0",
		"setoption name MultiPV value 9",
		"setoption name Hash",
		"setoption name Hash value",
		"setoption name Hash value 0",
		"setoption name Hash value 65537",
		"setoption name Hash value -1",
		"setoption name Hash value 12abc",
		"setoption name Hash value 99999999999999999999999",
		"setoption name Move Overhead value 5001",
		"setoption name Move Overhead value -1",
		"setoption name MoveOverhead value 5",
		"setoption name UCI_Variant value chess",
		"setoption name UCI_Variant",
		"setoption name UCI_Variant value katro 6x3",
		"setoption name CaptureSide value mine",
		"setoption name LastFour value west",
		"setoption name Repetition value twofold",
		"setoption name Repetition value off", // a Katro game
		"setoption name NoCaptureLimit value -1",
		"setoption name NoCaptureLimit value 1000001",
		"setoption name NoCaptureLimit value ten",
	} {
		t.Run(cmd, func(t *testing.T) {
			ts := newTestServer(t, Config{})
			ts.do("position startpos moves a1 f6")
			before := ts.state()
			got := ts.do(cmd)
			if len(got) != 1 || len(errorLines(got)) != 1 {
				t.Errorf("output %q, want one error line", got)
			}
			if after := ts.state(); after != before {
				t.Errorf("state changed:\n%s\n%s", before, after)
			}
		})
	}
}

// TestRuleOptionsReplay checks that a rule option replays the current game
// under the new rules, and is refused when the game does not fit them.
func TestRuleOptionsReplay(t *testing.T) {
	ts := newTestServer(t, Config{})
	ts.do("position startpos moves a1 f6 c1 b6") // clock 2 at the end
	before := ts.state()
	got := ts.do("setoption name NoCaptureLimit value 1") // the game would end after c1
	if len(errorLines(got)) != 1 || !strings.Contains(got[0], "does not fit") {
		t.Errorf("NoCaptureLimit 1: %q", got)
	}
	if ts.state() != before {
		t.Errorf("state changed by a refused option")
	}
	if got := ts.do("setoption name NoCaptureLimit value 2", "query gameover", "query result", "d"); got[0] != "response true" || got[1] != "response draw" ||
		field(got, "Status") != "draw (no-capture limit)" || field(got, "Fen") != katroAfter4 {
		t.Errorf("NoCaptureLimit 2:\n%s", strings.Join(got, "\n"))
	}
	if got := ts.do("setoption name NoCaptureLimit value 0", "d"); field(got, "Status") != "ongoing" || field(got, "Legal") != "a1 e1 f1" {
		t.Errorf("NoCaptureLimit 0:\n%s", strings.Join(got, "\n"))
	}
	// A rule of the other family replays the same game.
	if got := ts.do("setoption name CaptureSide value opponent", "d"); field(got, "Fen") != katroAfter4 {
		t.Errorf("CaptureSide in Katro:\n%s", strings.Join(got, "\n"))
	}
}

func TestNewGame(t *testing.T) {
	for _, cmd := range []string{"ucinewgame", "uginewgame"} {
		ts := newTestServer(t, Config{})
		ts.do("setoption name UCI_Variant value katro-4x6", "position startpos moves a1")
		if got := ts.do(cmd, "d"); field(got, "Fen") != "2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0" {
			t.Errorf("%s: %q", cmd, got)
		}
	}
}

func TestPosition(t *testing.T) {
	for _, tc := range []struct {
		variant, cmd, fen, legal string
	}{
		{"katro", "position startpos", katroStart, "a1 b1 c1 d1 e1 f1"},
		{"katro", "position startpos moves a1 f6 c1 b6", katroAfter4, "a1 e1 f1"},
		{"katro", "position fen " + katroAfter4, katroAfter4, "a1 e1 f1"},
		{"katro", "position fen " + strings.ReplaceAll(katroAfter4, " ", "   "), katroAfter4, "a1 e1 f1"},
		{"katro", "position fen " + strings.ToLower(katroAfter4), katroAfter4, "a1 e1 f1"},
		{"katro", "POSITION StartPos MOVES A1 F6 C1 B6", katroAfter4, "a1 e1 f1"},
		{"katro", "position\tstartpos \t moves\ta1  f6\t\tc1 b6 ", katroAfter4, "a1 e1 f1"},
		{"katro", "position startpos moves", katroStart, "a1 b1 c1 d1 e1 f1"},
		{"katro-4x4", "position startpos moves a1 d4", "2,3,1,4/6,3,1,0/3,0,0,0/1,4,1,3 S 0", "a1 b1 c1 d1"},
		{"hoyito3", "position startpos moves a1 c2 a2", hoyitoAfter3, "b1 c1 d1 e1 f1"},
		{"hoyito3", "position fen " + hoyitoPass, hoyitoPass, "pass"},
		{"hoyito3", "position fen " + hoyitoPass + " moves pass", "1,1,1,1,1,3/0,0,0,0,0,0 N 20 20 4", "a2 b2 c2 d2 e2 f2"},
		{"hoyito3", "position fen " + hoyitoPass + " moves 0000", "1,1,1,1,1,3/0,0,0,0,0,0 N 20 20 4", "a2 b2 c2 d2 e2 f2"},
		{"hoyito3", "position fen " + hoyitoNorthWin, hoyitoNorthWin, ""},
	} {
		t.Run(tc.variant+" "+tc.cmd, func(t *testing.T) {
			ts := newTestServer(t, Config{})
			ts.do("setoption name UCI_Variant value " + tc.variant)
			got := ts.do(tc.cmd, "d")
			if e := errorLines(got); len(e) > 0 {
				t.Fatalf("error: %q", e)
			}
			if f := field(got, "Fen"); f != tc.fen {
				t.Errorf("Fen %q, want %q", f, tc.fen)
			}
			if l := field(got, "Legal"); strings.TrimSpace(l) != tc.legal {
				t.Errorf("Legal %q, want %q", l, tc.legal)
			}
		})
	}
}

func TestPositionRefused(t *testing.T) {
	for _, tc := range []struct{ variant, cmd, want string }{
		{"katro", "position", "want"},
		{"katro", "position foo", "want startpos or fen"},
		{"katro", "position startpos extra", "unexpected"},
		{"katro", "position moves a1", "before"},
		{"katro", "position fen", "no position"},
		{"katro", "position fen moves a1", "no position"},
		{"katro", "position fen 1,2 S 0", "rows"},
		{"katro", "position fen " + hoyitoStart, "fields"},
		{"katro", "position fen " + strings.Replace(katroStart, " S ", " X ", 1), "side"},
		{"katro", "position fen " + strings.Replace(katroStart, "2,2", "3,2", 1), "72"},
		{"katro", "position fen " + strings.Replace(katroStart, "2,2", "-2,6", 1), "non-negative"},
		{"katro", "position fen " + strings.Replace(katroStart, " 0", " -1", 1), "clock"},
		{"katro", "position fen " + katroStart + " moves a1 zz", "move 2"},
		{"katro", "position startpos moves a1 a1", "move 2"},
		{"katro", "position startpos moves a1 f6 c1 b6 b1", "move 5"},
		{"katro", "position startpos moves pass", "move 1"},
		{"katro", "position startpos moves g1", "move 1"},
		{"katro", "position startpos moves a1 f6 c1 b6 a1 " + strings.Repeat("x", 100), "move 6"},
		{"katro", "position fen " + katroLost + " moves a1", "over"},
		{"hoyito3", "position fen " + katroStart, "fields"},
		{"hoyito3", "position startpos moves a2", "move 1"},
		{"hoyito3", "position startpos moves pass", "move 1"},
		{"hoyito3", "position startpos moves a1 c2 a1", "move 3"},
		{"hoyito3", "position fen " + hoyitoPass + " moves a1", "move 1"},
		{"hoyito3", "position fen " + hoyitoNorthWin + " moves pass", "over"},
		{"hoyito3", "position fen 4,4,4,4,4,4/4,4,4,4,4,4 S 1 0 0", "48"},
	} {
		t.Run(tc.variant+" "+tc.cmd, func(t *testing.T) {
			ts := newTestServer(t, Config{})
			ts.do("setoption name UCI_Variant value "+tc.variant, "position startpos moves "+map[string]string{"katro": "a1 f6", "hoyito3": "a1"}[tc.variant])
			before := ts.do("d")
			state := ts.state()
			got := ts.do(tc.cmd)
			if len(got) != 1 || len(errorLines(got)) != 1 || !strings.HasPrefix(got[0], "info string error: position: ") {
				t.Fatalf("output %q, want one error line", got)
			}
			if !strings.Contains(got[0], tc.want) {
				t.Errorf("error %q does not say %q", got[0], tc.want)
			}
			if after := ts.do("d"); !slices.Equal(after, before) || ts.state() != state {
				t.Errorf("position changed:\n%s\n%s", strings.Join(before, "\n"), strings.Join(after, "\n"))
			}
		})
	}
}

func TestQuery(t *testing.T) {
	for _, tc := range []struct {
		variant, pos         string
		p1turn, over, result string
	}{
		{"katro", "startpos", "true", "false", "none"},
		{"katro", "startpos moves a1", "false", "false", "none"},
		{"katro", "fen " + katroLost, "true", "true", "p2win"},
		{"katro", "fen " + katroLimit, "true", "true", "draw"},
		{"hoyito3", "startpos", "true", "false", "none"},
		{"hoyito3", "startpos moves a1 c2", "false", "false", "none"}, // North's extra turn
		{"hoyito3", "startpos moves a1 c2 a2", "true", "false", "none"},
		{"hoyito3", "fen " + hoyitoPass, "true", "false", "none"},
		{"hoyito3", "fen " + hoyitoNorthWin, "false", "true", "p2win"},
		{"hoyito3", "fen " + hoyitoDrawn, "true", "true", "draw"},
		{"hoyito3", "fen 0,0,0,0,0,0/0,0,0,0,0,0 S 28 20 0", "true", "true", "p1win"},
	} {
		t.Run(tc.variant+" "+tc.pos, func(t *testing.T) {
			ts := newTestServer(t, Config{})
			ts.do("setoption name UCI_Variant value " + tc.variant)
			got := ts.do("position "+tc.pos, "query p1turn", "query gameover", "query result", "QUERY Result")
			want := []string{"response " + tc.p1turn, "response " + tc.over, "response " + tc.result, "response " + tc.result}
			if !slices.Equal(got, want) {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
	ts := newTestServer(t, Config{})
	for _, cmd := range []string{"query", "query turn", "query p1turn now", "query p2turn"} {
		if got := ts.do(cmd); len(got) != 1 || len(errorLines(got)) != 1 {
			t.Errorf("%s: %q, want one error line", cmd, got)
		}
	}
}

// TestQueryRepetition plays a Hoyito III game that ends by a threefold
// repetition through the protocol and checks the UGI answers and the
// status against board.Game.
func TestQueryRepetition(t *testing.T) {
	const fen = "0,0,0,0,1,5/1,0,0,0,0,1 S 20 20 0"
	v, err := board.NewWithRules(board.NameHoyito3, board.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	// Random playouts from a sparse position until one repeats.
	rng := rand.New(rand.NewPCG(1, 2))
	var g *board.Game
	var moves []string
	for try := 0; try < 1000; try++ {
		g, moves = board.NewGame(p), nil
		for len(moves) < 400 && !g.Status().Over() {
			q := g.Position()
			legal := q.LegalMoves()
			m := legal[rng.IntN(len(legal))]
			g.Play(m)
			moves = append(moves, m.String())
		}
		if g.Status().Reason == board.ReasonRepeat {
			break
		}
	}
	if g.Status().Reason != board.ReasonRepeat {
		t.Fatal("found no game that ends by repetition")
	}
	ts := newTestServer(t, Config{})
	ts.do("setoption name UCI_Variant value hoyito3", "setoption name NoCaptureLimit value 0")
	got := ts.do("position fen "+fen+" moves "+strings.Join(moves, " "), "query gameover", "query result", "d", "go depth 3")
	if got[0] != "response true" || got[1] != "response "+ugiResult(g.Status().Result) ||
		field(got, "Status") != StatusText(g.Status()) || !strings.Contains(field(got, "Status"), "repetition") {
		t.Errorf("after %v (%s):\n%s", moves, StatusText(g.Status()), strings.Join(got, "\n"))
	}
	if last := got[len(got)-1]; last != "bestmove (none)" {
		t.Errorf("go after the game ended: %q", last)
	}
	// One move fewer: the game goes on.
	got = ts.do("position fen "+fen+" moves "+strings.Join(moves[:len(moves)-1], " "), "query gameover", "query result")
	if !slices.Equal(got, []string{"response false", "response none"}) {
		t.Errorf("one move before the repetition: %q", got)
	}
}

func TestD(t *testing.T) {
	ts := newTestServer(t, Config{})
	got := ts.do("position startpos moves a1 f6 c1 b6", "d")
	want := []string{
		"      a  b  c  d  e  f",
		" 6    1  .  3  1  4  1   North  37 seeds",
		" 5    4  .  1  4  4  1",
		" 4    3  3  1  .  3  3",
		"    -------------------",
		" 3    3  3  .  .  3  3",
		" 2    .  3  3  1  4  4",
		" 1    1  .  .  .  5  2   South  35 seeds",
		"      a  b  c  d  e  f",
		"South to move, clock 2",
		"Fen: " + katroAfter4,
		"Legal: a1 e1 f1",
		"Status: ongoing",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = ts.do("setoption name UCI_Variant value hoyito3", "position fen "+hoyitoNorthWin, "d")
	if field(got, "Status") != "North wins (finished, 20-28)" || field(got, "Legal") != "" {
		t.Errorf("finished Hoyito III:\n%s", strings.Join(got, "\n"))
	}
	if got := ts.do("d extra"); len(errorLines(got)) != 1 {
		t.Errorf("d extra: %q", got)
	}
}

// TestDReadsBack checks that the position d prints reads back with
// "position fen", also at the largest clock, which a ply without a
// capture does not pass.
func TestDReadsBack(t *testing.T) {
	for _, tc := range []struct{ variant, fen, moves, want string }{
		{"katro", katroAfter4, "", katroAfter4},
		{"hoyito3", "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 2147483646", "a1", "6,6,1,0,6,6/2,7,1,6,1,6 N 0 0 2147483647"},
		{"hoyito3", "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 2147483647", "a1", "6,6,1,0,6,6/2,7,1,6,1,6 N 0 0 2147483647"},
		{"hoyito3", "1,1,1,1,1,3/0,0,0,0,0,0 S 20 20 2147483647", "pass", "1,1,1,1,1,3/0,0,0,0,0,0 N 20 20 2147483647"},
	} {
		t.Run(tc.fen+" moves "+tc.moves, func(t *testing.T) {
			ts := newTestServer(t, Config{})
			ts.do("setoption name UCI_Variant value "+tc.variant, "setoption name NoCaptureLimit value 0")
			got := ts.do("position fen "+tc.fen+" moves "+tc.moves, "d")
			fen := field(got, "Fen")
			if fen != tc.want {
				t.Errorf("Fen: %s, want %s", fen, tc.want)
			}
			if got := ts.do("position fen "+fen, "d"); len(errorLines(got)) != 0 || field(got, "Fen") != fen {
				t.Errorf("position fen %s:\n%s", fen, strings.Join(got, "\n"))
			}
		})
	}
}

// TestEval checks eval's form with the linear evaluation in every game,
// and by default: the linear evaluation's terms where the family plays
// it by default, the network's report where it plays the network.
func TestEval(t *testing.T) {
	for _, variant := range board.Names() {
		v, err := board.New(variant)
		if err != nil {
			t.Fatal(err)
		}
		for _, evalType := range []string{"", evalLinear} {
			ts := newTestServer(t, Config{})
			ts.do("setoption name UCI_Variant value " + variant)
			if evalType != "" {
				ts.do("setoption name EvalType value " + evalType)
			}
			got := ts.do("eval")
			if evalType == "" && nnue.PlaysByDefault(v.Family()) {
				if len(got) < 4 || !strings.HasPrefix(got[0], "network: the built-in "+nnue.BuiltinName(v.Family())) ||
					got[len(got)-1] != "EvalLazy 1200: the search scores a position the linear evaluation puts beyond ± 1200 by the linear evaluation" ||
					!strings.HasPrefix(got[len(got)-2], "linear ") || !strings.HasPrefix(got[len(got)-3], "network ") {
					t.Errorf("%s eval by default:\n%s", variant, strings.Join(got, "\n"))
				}
				// At a strength level the linear evaluation plays.
				got = ts.do("setoption name Skill Level value 10", "eval")
				if len(got) < 3 || !strings.HasPrefix(got[0], "at a strength level") || !strings.HasPrefix(got[1], "term ") {
					t.Errorf("%s eval at Skill Level 10:\n%s", variant, strings.Join(got, "\n"))
				}
				continue
			}
			if len(got) < 3 || !strings.HasPrefix(got[0], "term ") || !strings.HasPrefix(got[len(got)-1], "total ") ||
				!strings.Contains(got[len(got)-1], "for South, the side to move") {
				t.Errorf("%s eval, EvalType %q:\n%s", variant, evalType, strings.Join(got, "\n"))
			}
		}
	}
}

func TestPerft(t *testing.T) {
	for _, tc := range []struct {
		variant string
		depth   int
		nodes   uint64
	}{
		{"katro", 0, 1}, {"katro", 1, 6}, {"katro", 4, 784}, {"katro-6x3", 6, 308}, {"katro-4x6", 5, 4008},
		{"katro-4x4", 6, 1685}, {"hoyito3", 3, 158}, {"hoyito3", 6, 20065}, {"hoyito3", 7, 0},
	} {
		t.Run(fmt.Sprintf("%s/%d", tc.variant, tc.depth), func(t *testing.T) {
			v, _ := board.New(tc.variant)
			p := v.Start()
			if tc.nodes == 0 {
				tc.nodes = p.Perft(tc.depth)
			}
			ts := newTestServer(t, Config{})
			ts.do("setoption name UCI_Variant value " + tc.variant)
			got := ts.do(fmt.Sprintf("perft %d", tc.depth))
			var want []string
			if tc.depth > 0 {
				for _, e := range p.Divide(tc.depth) {
					want = append(want, fmt.Sprintf("%s %d", e.Move, e.Nodes))
				}
			}
			want = append(want, fmt.Sprintf("nodes %d", tc.nodes))
			var body []string
			for _, l := range got {
				if !strings.HasPrefix(l, "info string perft time ") {
					body = append(body, l)
				}
			}
			if !slices.Equal(body, want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
	ts := newTestServer(t, Config{})
	for _, cmd := range []string{"perft", "perft -1", "perft 65", "perft x", "perft 1 2"} {
		if got := ts.do(cmd); len(got) != 1 || len(errorLines(got)) != 1 {
			t.Errorf("%s: %q, want one error line", cmd, got)
		}
	}
}

// TestPerftStop checks that a long perft runs as a job: isready is
// answered while it runs and stop ends it at once.
func TestPerftStop(t *testing.T) {
	s := newSession(t, Config{})
	s.send("perft 30")
	if got := s.sync(); len(got) > 0 {
		t.Errorf("before readyok: %q", got)
	}
	start := time.Now()
	s.send("stop")
	got := s.expect("info string perft stopped")
	if d := time.Since(start); d > slack {
		t.Errorf("perft stopped after %v", d)
	}
	for _, l := range got[:len(got)-1] {
		if strings.HasPrefix(l, "nodes") {
			t.Errorf("a stopped perft printed %q", l)
		}
	}
}

func TestBench(t *testing.T) {
	ts := newTestServer(t, Config{})
	if got := ts.do("bench"); len(got) != 1 || !strings.Contains(got[0], `run "sower bench"`) {
		t.Errorf("bench without a hook: %q", got)
	}
	ts = newTestServer(t, Config{Bench: func(ctx context.Context, w io.Writer, _ search.Options, _ int) error {
		fmt.Fprintf(w, "1/2 katro bestmove a1\n\n2/2 hoyito3 ")
		fmt.Fprintf(w, "bestmove c1\nNodes searched: 12")
		return nil
	}})
	want := []string{"info string 1/2 katro bestmove a1", "info string 2/2 hoyito3 bestmove c1", "info string Nodes searched: 12", "info string bench done"}
	if got := ts.do("bench"); !slices.Equal(got, want) {
		t.Errorf("bench: %q, want %q", got, want)
	}
	if got := ts.do("bench 3"); len(errorLines(got)) != 1 {
		t.Errorf("bench 3: %q", got)
	}
	ts = newTestServer(t, Config{Bench: func(ctx context.Context, w io.Writer, _ search.Options, _ int) error {
		return fmt.Errorf("no positions")
	}})
	if got := ts.do("bench"); !slices.Equal(got, []string{"info string error: bench: no positions"}) {
		t.Errorf("failing bench: %q", got)
	}

	s := newSession(t, Config{Bench: func(ctx context.Context, w io.Writer, _ search.Options, _ int) error {
		fmt.Fprintln(w, "started")
		<-ctx.Done()
		return ctx.Err()
	}})
	s.send("bench")
	s.expect("info string started")
	s.sync()
	s.send("stop")
	s.expect("info string bench stopped")
}

// TestBenchOptions: bench runs with the engine's current options (the
// defaults first) and MultiPV, without the proof books.
func TestBenchOptions(t *testing.T) {
	var got search.Options
	var lines int
	lib := &book.Library{}
	t.Cleanup(lib.Close)
	ts := newTestServer(t, Config{Books: lib, Bench: func(ctx context.Context, w io.Writer, o search.Options, multiPV int) error {
		got, lines = o, multiPV
		return nil
	}})
	ts.do("bench")
	def := search.DefaultOptions()
	for _, f := range []board.Family{board.Katro, board.Hoyito} {
		n, err := nnue.Default(f)
		if err != nil {
			t.Fatal(err)
		}
		if n != nil {
			def.Nets = append(def.Nets, n)
		}
	}
	if !reflect.DeepEqual(got, def) || lines != 1 {
		t.Errorf("bench with the defaults: %+v, MultiPV %d; want %+v, 1", got, lines, def)
	}
	ts.do("setoption name Hash value 2", "setoption name Threads value 2", "setoption name MultiPV value 2",
		"setoption name EvalType value linear", "setoption name EvalLazy value 50", "setoption name TableEstimate value false",
		"setoption name Prover value true", "setoption name ProverThread value true", "bench")
	want := search.Options{HashMiB: 2, Threads: 2, NetLazy: 50, Prover: true, ProverThread: true}
	if !reflect.DeepEqual(got, want) || lines != 2 {
		t.Errorf("bench after setoption: %+v, MultiPV %d; want %+v, 2", got, lines, want)
	}
}

func TestDebugRegister(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, cmd := range []string{"debug on", "debug off", "register later", "register name x code y", "stop", "ponderhit"} {
		if got := ts.do(cmd); len(got) != 0 {
			t.Errorf("%s: %q", cmd, got)
		}
	}
	for _, cmd := range []string{"debug", "debug maybe"} {
		if got := ts.do(cmd); len(errorLines(got)) != 1 {
			t.Errorf("%s: %q", cmd, got)
		}
	}
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct{ name, line, want string }{
		{"unknown command", "foo bar", `unknown command "foo"`},
		{"unknown command with control bytes", "\x00\x01\xff", "unknown command"},
		{"very long unknown command", strings.Repeat("y", 5000), "…"},
		{"uci option line", "option name Hash type spin", "unknown command"},
		{"move without position", "a1", "unknown command"},
		{"newgame with arguments", "ucinewgame now", "unexpected"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestServer(t, Config{})
			ts.do("position startpos moves a1")
			before := ts.state()
			got := ts.do(tc.line)
			if len(got) != 1 || len(errorLines(got)) != 1 || !strings.Contains(got[0], tc.want) {
				t.Errorf("output %q, want one error line with %q", got, tc.want)
			}
			if len(got) == 1 && len(got[0]) > 200 {
				t.Errorf("error line of %d bytes", len(got[0]))
			}
			if ts.state() != before {
				t.Errorf("state changed")
			}
		})
	}
}

func TestLongLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		line string
		err  bool
	}{
		{"10 MB", "position startpos moves " + strings.Repeat("a1 ", 10<<20/3), true},
		{"10 MB without spaces", strings.Repeat("x", 10<<20), true},
		{"limit+1", "go " + strings.Repeat(" ", MaxLineBytes-2), true},
		{"limit", "isready" + strings.Repeat(" ", MaxLineBytes-7), false},
		{"limit with CRLF", "isready" + strings.Repeat(" ", MaxLineBytes-7) + "\r", false},
		{"limit+1 with CRLF", "go " + strings.Repeat(" ", MaxLineBytes-2) + "\r", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			got := run(t, "position startpos moves a1\n"+tc.line+"\nd\nisready\n")
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
			if tc.err {
				// The count excludes the line break, "\r\n" as well as "\n".
				want := fmt.Sprintf("info string error: line of %d bytes is longer than 1048576 bytes; ignored", len(strings.TrimSuffix(tc.line, "\r")))
				if len(got) == 0 || got[0] != want {
					t.Fatalf("first line %q", got[:min(len(got), 1)])
				}
				got = got[1:]
			} else {
				if len(got) == 0 || got[0] != "readyok" {
					t.Fatalf("first line %q", got[:min(len(got), 1)])
				}
				got = got[1:]
			}
			if field(got, "Fen") != "2,2,2,2,2,2/2,2,2,2,2,2/2,2,0,2,2,2/3,3,0,3,3,3/0,3,3,0,3,3/1,0,1,4,4,1 N 0" || got[len(got)-1] != "readyok" {
				t.Errorf("after the long line:\n%s", strings.Join(got, "\n"))
			}
		})
	}
}

// TestReadLine reads lines with each line ending, through a small buffer
// and the engine's: the text and the length exclude the line break, also
// when the "\r" and the "\n" come in different reads.
func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", MaxLineBytes)
	for _, tc := range []struct {
		name, line string // the line, then "next\n" follows
		text       string // "" when too long
		length     int
	}{
		{"LF", "go\n", "go", 2},
		{"CRLF", "go\r\n", "go", 2},
		{"empty", "\n", "", 0},
		{"empty CRLF", "\r\n", "", 0},
		{"CR inside", "go\rdepth\n", "go\rdepth", 8},
		{"limit LF", long + "\n", long, MaxLineBytes},
		{"limit CRLF", long + "\r\n", long, MaxLineBytes},
		{"limit+1 LF", long + "y\n", "", MaxLineBytes + 1},
		{"limit+1 CRLF", long + "y\r\n", "", MaxLineBytes + 1},
		{"CRLF across reads", long + strings.Repeat("y", 15) + "\r\n", "", MaxLineBytes + 15},
		{"10 MiB CRLF", strings.Repeat("z", 10<<20) + "\r\n", "", 10 << 20},
	} {
		for _, size := range []int{16, 64 << 10} {
			t.Run(fmt.Sprintf("%s/%d", tc.name, size), func(t *testing.T) {
				br := bufio.NewReaderSize(strings.NewReader(tc.line+"next\n"), size)
				l, err := readLine(br)
				if err != nil || l.text != tc.text || l.length != tc.length || l.tooLong != (tc.text == "" && tc.length > 0) {
					t.Errorf("got text of %d bytes, length %d, too long %v, error %v; want text of %d bytes, length %d",
						len(l.text), l.length, l.tooLong, err, len(tc.text), tc.length)
				}
				if l, err := readLine(br); err != nil || l.text != "next" {
					t.Errorf("next line: %q, %v", l.text, err)
				}
			})
		}
	}
	// The last line, without a line break.
	for _, in := range []string{"go", "go\r"} {
		l, err := readLine(bufio.NewReader(strings.NewReader(in)))
		if !errors.Is(err, io.EOF) || l.text != "go" || l.length != 2 || l.tooLong {
			t.Errorf("last line %q: text %q, length %d, too long %v, error %v", in, l.text, l.length, l.tooLong, err)
		}
	}
}

func TestLineEndings(t *testing.T) {
	got := run(t, "isready\r\n\r\n\t \r\nposition startpos moves a1\r\n  setoption\tname  Move\t Overhead  value\t20 \r\nd\r\nisready")
	if got[0] != "readyok" || got[len(got)-1] != "readyok" || len(errorLines(got)) != 0 ||
		field(got, "Fen") != "2,2,2,2,2,2/2,2,2,2,2,2/2,2,0,2,2,2/3,3,0,3,3,3/0,3,3,0,3,3/1,0,1,4,4,1 N 0" {
		t.Errorf("got:\n%s", strings.Join(got, "\n"))
	}
	// A lone CR is white space inside a line, not a line break.
	got = run(t, "position\rstartpos\rmoves a1\rf6\nd\n")
	if field(got, "Fen") != "0,3,3,1,4,1/3,3,0,3,3,0/3,3,1,0,3,3/3,3,0,0,3,3/0,3,3,0,3,3/1,0,1,4,4,1 S 0" {
		t.Errorf("CR inside a line:\n%s", strings.Join(got, "\n"))
	}
}

func TestWriteErrors(t *testing.T) {
	err := ServeWith(context.Background(), strings.NewReader("isready\nisready\n"), failingWriter{}, Config{})
	if err == nil || !strings.Contains(err.Error(), "writing") {
		t.Errorf("ServeWith with a failing writer: %v", err)
	}
	err = ServeWith(context.Background(), failingReader{}, io.Discard, Config{})
	if err == nil || !strings.Contains(err.Error(), "reading") {
		t.Errorf("ServeWith with a failing reader: %v", err)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

func TestQuit(t *testing.T) {
	got := run(t, "isready\nquit\nisready\n")
	if !slices.Equal(got, []string{"readyok"}) {
		t.Errorf("got %q", got)
	}
}

func TestStatusText(t *testing.T) {
	for _, tc := range []struct {
		st   board.Status
		want string
	}{
		{board.Status{}, "ongoing"},
		{board.Status{Result: board.SouthWins, Reason: board.ReasonNoMove}, "South wins (no legal move)"},
		{board.Status{Result: board.Draw, Reason: board.ReasonRepeat}, "draw (repetition)"},
		{board.Status{Result: board.NorthWins, Reason: board.ReasonLastFour, Seeds: [2]int{20, 28}}, "North wins (last four, 20-28)"},
	} {
		if got := StatusText(tc.st); got != tc.want {
			t.Errorf("StatusText(%+v) = %q, want %q", tc.st, got, tc.want)
		}
	}
}

// TestRepetitionAcrossVariants: Repetition off, set in Hoyito III, is kept
// when UCI_Variant changes, and a Katro game keeps threefold repetition.
func TestRepetitionAcrossVariants(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, c := range []struct {
		cmd        string
		game, rule board.Repetition // the game's and the option's
	}{
		{"setoption name UCI_Variant value hoyito3", board.RepetitionThreefold, board.RepetitionThreefold},
		{"setoption name Repetition value OFF", board.RepetitionOff, board.RepetitionOff},
		{"setoption name UCI_Variant value katro-4x4", board.RepetitionThreefold, board.RepetitionOff},
		{"setoption name LastFour value north", board.RepetitionThreefold, board.RepetitionOff},
		{"setoption name UCI_Variant value hoyito3", board.RepetitionOff, board.RepetitionOff},
		{"setoption name Repetition value threefold", board.RepetitionThreefold, board.RepetitionThreefold},
	} {
		if e := errorLines(ts.do(c.cmd)); len(e) > 0 {
			t.Fatalf("%s: %q", c.cmd, e)
		}
		if game, rule := ts.s.variant.Rules().Repetition, ts.s.rules.Repetition; game != c.game || rule != c.rule {
			t.Errorf("%s: the game's Repetition %v, the option %v; want %v, %v", c.cmd, game, rule, c.game, c.rule)
		}
	}
}
