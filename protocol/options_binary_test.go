package protocol

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

// TestBinaryMaxHash: sower --max-hash caps the Hash option.
func TestBinaryMaxHash(t *testing.T) {
	bin := buildSower(t)
	s, _ := startSower(t, bin, "--max-hash", "64")
	s.send("uci")
	if got := s.expect("uciok"); !slices.Contains(got, "option name Hash type spin default 16 min 1 max 64") {
		t.Errorf("uci with --max-hash 64:\n%s", strings.Join(got, "\n"))
	}
	s.send("setoption name Hash value 65", "setoption name Hash value 64")
	if got := errorLines(s.sync()); len(got) != 1 || !strings.Contains(got[0], `"65" is not an integer from 1 to 64`) {
		t.Errorf("Hash 65 and 64 with --max-hash 64: errors %q", got)
	}
	s.send("go depth 2")
	s.bestmove()
	s.send("quit")
}

// TestBinaryOptions drives the built engine as a GUI does: every option is
// listed by uci and ugi; good values are taken silently; bad values (out
// of range, not a number, not a check value, an unknown option) each get
// one error line and change nothing; Threads changed during a search
// leaves that search alone; searches with the options set answer legally.
func TestBinaryOptions(t *testing.T) {
	bin := buildSower(t)
	s, stderr := startSower(t, bin)
	names := []string{"UCI_Variant", "Hash", "Clear Hash", "Threads", "Move Overhead", "MultiPV", "Ponder", "UCI_ShowWDL",
		"Skill Level", "UCI_LimitStrength", "UCI_Elo", "CaptureSide", "LastFour", "Repetition", "NoCaptureLimit", "TablePath", "TableEstimate", "Prover", "ProverThread", "ProofBook", "EvalType", "EvalFile", "EvalLazy"}
	for _, hello := range []string{"ugi", "uci"} {
		s.send(hello)
		got := s.expect(hello + "ok")
		var listed []string
		for _, l := range got {
			if name, ok := strings.CutPrefix(l, "option name "); ok {
				listed = append(listed, name[:strings.Index(name, " type ")])
			}
		}
		if !slices.Equal(listed, names) {
			t.Errorf("%s lists %q, want %q", hello, listed, names)
		}
	}
	for _, good := range []string{
		"Threads value 2", "MultiPV value 3", "Ponder value true", "Skill Level value 10",
		"UCI_LimitStrength value false", "UCI_Elo value 1000", "Hash value 8", "Clear Hash", "ProverThread value true",
	} {
		s.send("setoption name " + good)
	}
	if got := errorLines(s.sync()); len(got) != 0 {
		t.Errorf("good values refused: %q", got)
	}
	for _, bad := range []struct{ cmd, want string }{
		{"Threads value 0", `Threads: "0" is not an integer from 1 to 256`},
		{"Threads value 300", `Threads: "300" is not an integer from 1 to 256`},
		{"Threads value two", `Threads: "two" is not an integer from 1 to 256`},
		{"MultiPV value 9", `MultiPV: "9" is not an integer from 1 to 8`},
		{"MultiPV value", `MultiPV needs a value`},
		{"Ponder value on", `Ponder: "on" is not true or false`},
		{"Skill Level value 21", `Skill Level: "21" is not an integer from 0 to 20`},
		{"Skill Level value -1", `Skill Level: "-1" is not an integer from 0 to 20`},
		{"UCI_LimitStrength value 1", `UCI_LimitStrength: "1" is not true or false`},
		{"UCI_ShowWDL value yes", `UCI_ShowWDL: "yes" is not true or false`},
		{"ProverThread value 1", `ProverThread: "1" is not true or false`},
		{"UCI_Elo value 99999", `UCI_Elo: "99999" is not an integer from`},
		{"UCI_Elo value x", `UCI_Elo: "x" is not an integer from`},
		{"Threadz value 2", `unknown option "Threadz"`},
		{"Skill value 3", `unknown option "Skill"`},
	} {
		s.send("setoption name " + bad.cmd)
		got := errorLines(s.sync())
		if len(got) != 1 || !strings.Contains(got[0], bad.want) {
			t.Errorf("%s: errors %q, want one with %q", bad.cmd, got, bad.want)
		}
	}
	// Threads during a search: no error, no bestmove; the next search
	// uses the new value.
	s.send("setoption name Skill Level value 20", "position startpos", "go infinite")
	s.expect("info depth 3 ")
	s.send("setoption name Threads value 1")
	if got := errorLines(s.sync()); len(got) != 0 {
		t.Errorf("Threads during a search: %q", got)
	}
	s.noBestmove(50 * time.Millisecond)
	s.send("stop")
	s.bestmove()
	// Skill Level 10 with MultiPV 3: lines ranked 1 to 4 (the level ranks
	// four), a legal move.
	s.send("setoption name Skill Level value 10", "position startpos moves e1", "go depth 6")
	move, lines := s.bestmove()
	if !slices.Contains([]string{"a6", "b6", "c6", "d6", "e6", "f6"}, move) {
		t.Errorf("bestmove %s", move)
	}
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, " multipv 4 ") }) {
		t.Errorf("skill level 10: no fourth line:\n%s", strings.Join(lines, "\n"))
	}
	s.send("quit")
	if _, err := s.close(); err != nil {
		t.Errorf("exit: %v (stderr %q)", err, stderr.String())
	}
}

// TestBinaryRepetition drives the Repetition option over the engine's
// pipe: listed by uci, refused for a Katro game and together with no
// no-capture limit (whichever comes second), each refusal one error line
// that leaves the engine as it was; set to off in Hoyito III, a game
// that repeats a position a third time goes on, and the engine searches
// it. The game cycles when each side plays its first legal move.
func TestBinaryRepetition(t *testing.T) {
	bin := buildSower(t)
	s, stderr := startSower(t, bin)
	s.send("uci")
	if got := s.expect("uciok"); !slices.Contains(got, "option name Repetition type combo default threefold var threefold var off") {
		t.Errorf("uci:\n%s", strings.Join(got, "\n"))
	}
	const fen = "1,1,1,3,0,2/0,0,0,0,0,0 S 20 20 0"
	moves := cycle(t, fen)
	pos := "position fen " + fen + " moves " + moves
	for _, c := range []struct {
		cmds []string
		err  string // the one error line wanted, or "" for none
	}{
		{[]string{"setoption name Repetition value off"}, "Repetition: a Hoyito III option; katro is a Katro game"},
		{[]string{"setoption name UCI_Variant value hoyito3", "setoption name NoCaptureLimit value 0", "setoption name Repetition value off"},
			"Repetition: off needs a no-capture limit, and NoCaptureLimit is 0"},
		{[]string{"setoption name NoCaptureLimit value 200", "setoption name Repetition value off", "setoption name NoCaptureLimit value 0"},
			"NoCaptureLimit: 0 (none) with Repetition off: nothing would end a game without captures; set Repetition threefold first; NoCaptureLimit stays 200"},
		{[]string{pos}, ""},
	} {
		s.send(c.cmds...)
		got := errorLines(s.sync())
		if (c.err == "" && len(got) != 0) || (c.err != "" && (len(got) != 1 || !strings.Contains(got[0], c.err))) {
			t.Errorf("%q: errors %q, want %q", c.cmds, got, c.err)
		}
	}
	// Off (set, and kept after the refused limit): the third occurrence
	// ends nothing, and the engine plays on. Threefold: the game is over.
	for _, c := range []struct{ value, over string }{{"off", "response false"}, {"threefold", "response true"}} {
		s.send("setoption name Repetition value "+c.value, pos, "query gameover")
		if got := s.expect("response "); got[len(got)-1] != c.over {
			t.Errorf("Repetition %s: query gameover %q, want %q", c.value, got, c.over)
		}
		if c.value == "off" {
			s.send("go depth 3")
			s.bestmove()
		}
	}
	s.send("quit")
	if err, _ := s.close(); err != nil {
		t.Errorf("exit: %v (stderr %q)", err, stderr.String())
	}
}

// cycle returns the moves, each side playing its first legal move, from
// the Hoyito III position fen to the third occurrence of a position
// under the default rules.
func cycle(t *testing.T, fen string) string {
	t.Helper()
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParsePosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	g := board.NewGame(p)
	for !g.Status().Over() && g.Ply() < 100 {
		pos := g.Position()
		if err := g.Play(pos.LegalMoves()[0]); err != nil {
			t.Fatal(err)
		}
	}
	if st := g.Status(); st.Reason != board.ReasonRepeat {
		t.Fatalf("%s: the game ends %+v, not by repetition", fen, st)
	}
	return board.FormatMoves(g.Moves())
}
