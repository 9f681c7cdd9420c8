package protocol

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

// legalIn returns the legal moves of a position given as a position
// command's arguments, in the named variant.
func legalIn(t *testing.T, variant, pos string) []string {
	t.Helper()
	ts := newTestServer(t, Config{})
	ts.do("setoption name UCI_Variant value " + variant)
	got := ts.do("position "+pos, "d")
	if len(errorLines(got)) > 0 {
		t.Fatalf("%s: %q", pos, got)
	}
	return strings.Fields(field(got, "Legal"))
}

// checkSearchLines checks the lines of one search: info lines, then
// exactly one bestmove, last.
func checkSearchLines(t *testing.T, lines []string) {
	t.Helper()
	for i, l := range lines {
		last := i == len(lines)-1
		switch {
		case last && strings.HasPrefix(l, "bestmove "):
		case !last && strings.HasPrefix(l, "info "):
		default:
			t.Errorf("line %d of the search: %q\n%s", i, l, strings.Join(lines, "\n"))
		}
	}
}

func TestGo(t *testing.T) {
	for _, tc := range []struct {
		name, variant, pos, goCmd string
		want                      string // the bestmove, if only one is right
		wantInfo                  string // in the line before bestmove
	}{
		{name: "depth", variant: "katro", pos: "startpos", goCmd: "go depth 4", wantInfo: "info depth 4 "},
		{name: "nodes", variant: "katro", pos: "startpos moves a1", goCmd: "go nodes 3000"},
		{name: "one node", variant: "hoyito3", pos: "startpos", goCmd: "go nodes 1", wantInfo: "info depth 1 seldepth "}, // limits wait for depth 1
		{name: "movetime", variant: "hoyito3", pos: "startpos", goCmd: "go movetime 30"},
		{name: "movetime 0", variant: "katro", pos: "startpos", goCmd: "go movetime 0"},
		{name: "movetime negative", variant: "katro", pos: "startpos", goCmd: "go movetime -100"},
		{name: "clocks", variant: "katro", pos: "startpos", goCmd: "go wtime 300 btime 300 winc 10 binc 10 movestogo 5"},
		{name: "zero clock", variant: "katro", pos: "startpos", goCmd: "go wtime 0 btime 0"},
		{name: "negative clock", variant: "katro", pos: "startpos", goCmd: "go wtime -500 btime 1000 winc -5"},
		{name: "own clock only", variant: "katro", pos: "startpos", goCmd: "go wtime 200"},
		{name: "UGI clocks", variant: "hoyito3", pos: "startpos moves a1", goCmd: "go p1time 200 p2time 200 p1inc 0 p2inc 0"},
		{name: "UGI clock North", variant: "hoyito3", pos: "startpos moves a1", goCmd: "go p2time 100"},
		{name: "movestogo 0", variant: "katro-4x4", pos: "startpos", goCmd: "go wtime 200 btime 200 movestogo 0"},
		{name: "huge depth", variant: "katro-6x3", pos: "startpos", goCmd: "go depth 100000 movetime 50"},
		{name: "huge times", variant: "katro", pos: "startpos", goCmd: "go wtime 99999999999999999 btime 1 depth 3"},
		{name: "searchmoves", variant: "katro", pos: "startpos", goCmd: "go depth 3 searchmoves c1", want: "c1"},
		{name: "searchmoves two", variant: "hoyito3", pos: "startpos", goCmd: "go searchmoves e1 F1 depth 2"},
		{name: "case", variant: "katro", pos: "startpos", goCmd: "GO DEPTH 2"},
		{name: "forced pass", variant: "hoyito3", pos: "fen " + hoyitoPass, goCmd: "go depth 5", want: "pass"},
		{name: "forced pass on a clock", variant: "hoyito3", pos: "fen " + hoyitoPass, goCmd: "go wtime 1000 btime 1000", want: "pass"},
		{name: "Katro lost", variant: "katro", pos: "fen " + katroLost, goCmd: "go depth 3", want: "(none)", wantInfo: "info depth 0 score mate 0 "},
		{name: "Katro limit", variant: "katro", pos: "fen " + katroLimit, goCmd: "go wtime 100", want: "(none)", wantInfo: "info depth 0 score cp 0 "},
		{name: "Hoyito finished", variant: "hoyito3", pos: "fen " + hoyitoNorthWin, goCmd: "go", want: "(none)", wantInfo: "info depth 0 score cp 800 "},
		{name: "Hoyito drawn", variant: "hoyito3", pos: "fen " + hoyitoDrawn, goCmd: "go movetime 10", want: "(none)", wantInfo: "info depth 0 score cp 0 "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t, Config{})
			s.send("setoption name UCI_Variant value "+tc.variant, "position "+tc.pos)
			s.sync()
			start := time.Now()
			s.send(tc.goCmd)
			move, lines := s.bestmove()
			if d := time.Since(start); d > slack {
				t.Errorf("bestmove after %v", d)
			}
			checkSearchLines(t, append(lines, "bestmove "+move))
			if len(lines) == 0 {
				t.Fatal("no info line before bestmove")
			}
			if tc.want != "" && move != tc.want {
				t.Errorf("bestmove %s, want %s", move, tc.want)
			}
			if tc.want != "(none)" && !slices.Contains(legalIn(t, tc.variant, tc.pos), move) {
				t.Errorf("bestmove %s is not legal", move)
			}
			if final := lines[len(lines)-1]; tc.wantInfo != "" && !strings.HasPrefix(final, tc.wantInfo) {
				t.Errorf("final info %q, want %q…", final, tc.wantInfo)
			}
			s.quiet(50 * time.Millisecond)
		})
	}
}

// TestGoMalformed checks that a go with words it cannot read still ends
// with exactly one bestmove, as Stockfish's does: the rest is searched
// with, and one error line before the search says what was left out and
// why.
func TestGoMalformed(t *testing.T) {
	for _, tc := range []struct {
		pos, goCmd string
		ignored    []string // in the error line, in this order; none: no error line
		want       string   // the bestmove, if only one is right
	}{
		{"startpos moves a1 f6", "go depth abc", []string{`depth: "abc" is not an integer, ignored`}, ""},
		{"startpos moves a1 f6", "go foo", []string{`unknown parameter "foo", ignored`}, ""},
		{"startpos moves a1 f6", "go depth 3 foo", []string{`unknown parameter "foo", ignored`}, ""},
		{"startpos moves a1 f6", "go depth", []string{"depth needs a value, ignored"}, ""},
		{"startpos moves a1 f6", "go depth movetime 30", []string{"depth needs a value, ignored"}, ""},
		{"startpos moves a1 f6", "go depth 0 nodes 2000", []string{"depth 0: want 1 or more, ignored"}, ""},
		{"startpos moves a1 f6", "go depth -3 depth 2", []string{"depth -3: want 1 or more, ignored"}, ""},
		{"startpos moves a1 f6", "go nodes 1e6 depth 2", []string{`nodes: "1e6" is not an integer, ignored`}, ""},
		{"startpos moves a1 f6", "go nodes 0 nodes -1 depth 2", []string{"nodes 0: want 1 or more, ignored", "nodes -1: want 1 or more, ignored"}, ""},
		{"startpos moves a1 f6", "go wtime 1.5 btime abc movestogo x depth 2", []string{`wtime: "1.5" is not an integer, ignored`, `btime: "abc" is not an integer, ignored`, `movestogo: "x" is not an integer, ignored`}, ""},
		{"startpos moves a1 f6", "go mate 3 depth 2", []string{"mate: searching for a mate in n moves is not supported; use depth, ignored"}, ""},
		{"startpos moves a1 f6", "go depth 99999999999999999999 movetime 20", []string{`depth: "99999999999999999999" is too large (at most 9223372036854775807), ignored`}, ""},
		{"startpos moves a1 f6", "go movetime -5", nil, ""}, // 0 or less: 1 ms, no error
		{"startpos", "go searchmoves depth 2", []string{"searchmoves: no move given, ignored"}, ""},
		{"startpos", "go searchmoves z9 depth 2", []string{"searchmoves: ", "z9", ", ignored", "searchmoves: no legal move left, every move is searched"}, ""},
		{"startpos", "go searchmoves f6 depth 2", []string{"searchmoves: f6 is not a legal move here (legal: ", "), ignored", "searchmoves: no legal move left, every move is searched"}, ""},
		{"startpos", "go searchmoves pass depth 2", []string{"searchmoves: ", "pass", ", ignored", "every move is searched"}, ""},
		{"startpos", "go searchmoves f6 c1 depth 2", []string{"searchmoves: f6 is not a legal move here (legal: ", "), ignored"}, "c1"},
		{"fen " + katroLost, "go foo depth 2", []string{`unknown parameter "foo", ignored`}, "(none)"},
	} {
		t.Run(tc.goCmd, func(t *testing.T) {
			s := newSession(t, Config{})
			s.send("position " + tc.pos)
			s.sync()
			s.send(tc.goCmd, "stop") // stop: for a go without a limit left
			move, lines := s.bestmove()
			checkSearchLines(t, append(lines, "bestmove "+move))
			checkIgnored(t, lines, tc.ignored)
			switch {
			case tc.want != "" && move != tc.want:
				t.Errorf("bestmove %s, want %s", move, tc.want)
			case tc.want == "" && !slices.Contains(legalIn(t, "katro", tc.pos), move):
				t.Errorf("bestmove %s is not legal", move)
			}
			if got := s.sync(); len(got) != 0 {
				t.Errorf("after the bestmove: %q", got)
			}
		})
	}
}

// checkIgnored checks the error lines among the lines of a go: none if
// want is empty, else one, the first line, holding the parts of want in
// order.
func checkIgnored(t *testing.T, lines []string, want []string) {
	t.Helper()
	errs := errorLines(lines)
	if len(want) == 0 {
		if len(errs) > 0 {
			t.Errorf("error lines %q, want none", errs)
		}
		return
	}
	if len(errs) != 1 || lines[0] != errs[0] {
		t.Fatalf("lines %q, want one error line, first", lines)
	}
	rest, ok := strings.CutPrefix(errs[0], "info string error: go: ")
	for _, w := range want {
		var found bool
		if _, rest, found = strings.Cut(rest, w); !found {
			ok = false
		}
	}
	if !ok {
		t.Errorf("error line %q, want %q in order", errs[0], want)
	}
}

// TestGoAfterRefusedPosition checks that the first go after a refused
// position command, which changed nothing, says which position it
// searches and why; later ones, and one after a position taken, do not.
func TestGoAfterRefusedPosition(t *testing.T) {
	for _, bad := range []string{
		"position startpos moves a1 a1",
		"position fen 1,2 S 0",
		"position",
		"position foo",
		"position startpos moves a1 f6 " + strings.Repeat("z", 100),
	} {
		t.Run(bad, func(t *testing.T) {
			ts := newTestServer(t, Config{})
			fen := field(ts.do("position startpos moves a1", "d"), "Fen")
			got := ts.do(bad)
			if len(got) != 1 || !strings.HasPrefix(got[0], "info string error: position: ") {
				t.Fatalf("%s: %q, want one error line", bad, got)
			}
			reason := strings.TrimPrefix(got[0], "info string error: position: ")
			got = ts.do("go depth 2")
			want := "info string searching " + fen + " (the last position command was refused: " + reason + ")"
			if len(got) == 0 || got[0] != want {
				t.Errorf("first go: %q, want %q first", got, want)
			}
			checkSearchLines(t, got)
			if got := ts.do("go depth 2"); len(got) == 0 || strings.HasPrefix(got[0], "info string") {
				t.Errorf("second go: %q", got)
			}
			ts.do(bad, "position startpos moves a1 f6")
			if got := ts.do("go depth 2"); len(got) == 0 || strings.HasPrefix(got[0], "info string") {
				t.Errorf("go after a position taken: %q", got)
			}
		})
	}
}

// TestGoNumbers checks the range of go's numbers: every 64-bit integer is
// read (times and depths are then bounded), nodes up to the largest 64-bit
// unsigned integer, and a number beyond is "too large" (or "too small"),
// not "not an integer", and ignored.
func TestGoNumbers(t *testing.T) {
	for _, c := range []struct{ cmd, want string }{
		{"go movetime 99999999999999999999", `movetime: "99999999999999999999" is too large (at most 9223372036854775807)`},
		{"go movetime 9223372036854775808", `movetime: "9223372036854775808" is too large (at most 9223372036854775807)`},
		{"go wtime -9223372036854775809", `wtime: "-9223372036854775809" is too small (at least -9223372036854775808)`},
		{"go depth 99999999999999999999", `depth: "99999999999999999999" is too large (at most 9223372036854775807)`},
		{"go nodes 18446744073709551616", `nodes: "18446744073709551616" is too large (at most 18446744073709551615)`},
		{"go nodes -99999999999999999999", `nodes: "-99999999999999999999" is too small (at least -9223372036854775808)`},
		{"go nodes -1", "nodes -1: want 1 or more"},
		{"go nodes 0", "nodes 0: want 1 or more"},
		{"go nodes 1e6", `nodes: "1e6" is not an integer`},
		{"go movestogo 1.5", `movestogo: "1.5" is not an integer`},
		// The largest values taken: a search runs to its bestmove.
		{"go nodes 18446744073709551615 depth 2", ""},
		{"go nodes +300", ""},
		{"go depth 9223372036854775807 nodes 300", ""},
		{"go movetime 9223372036854775807 depth 2", ""},
		{"go wtime 9223372036854775807 btime 9223372036854775807 movestogo 9223372036854775807 depth 2", ""},
	} {
		s := newSession(t, Config{})
		if c.want == "" {
			s.send("position startpos", c.cmd)
			if _, before := s.bestmove(); len(errorLines(before)) > 0 {
				t.Errorf("%s: %q", c.cmd, errorLines(before))
			}
			continue
		}
		s.send("position startpos", c.cmd+" depth 2") // searched without the number
		if _, before := s.bestmove(); len(before) == 0 || before[0] != "info string error: go: "+c.want+", ignored" {
			t.Errorf("%s: %q, want %q first", c.cmd, before, c.want)
		}
	}
}

// TestInfinite checks that an infinite search, even one whose result is
// known, answers isready while it runs (readyok comes before any
// bestmove: an infinite search ends only on stop, so no clock is needed to
// tell) and gives its bestmove only after stop. How soon after stop is
// TestStopLatency's measure.
func TestInfinite(t *testing.T) {
	for _, tc := range []struct{ name, variant, pos string }{
		{"katro start", "katro", "startpos"},
		{"hoyito start", "hoyito3", "startpos"},
		{"Katro over", "katro", "fen " + katroLost},
		{"Hoyito finished", "hoyito3", "fen " + hoyitoNorthWin},
		{"Hoyito pass", "hoyito3", "fen " + hoyitoPass},
		{"Katro 4x4 late", "katro-4x4", "fen 0,0,0,1/0,0,0,0/0,0,0,0/0,0,30,1 S 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t, Config{})
			s.send("setoption name UCI_Variant value "+tc.variant, "position "+tc.pos)
			s.sync()
			s.send("go infinite")
			time.Sleep(100 * time.Millisecond)
			lines := s.sync()
			for _, l := range lines {
				if strings.HasPrefix(l, "bestmove") {
					t.Fatalf("bestmove before stop: %q", lines)
				}
			}
			s.noBestmove(50 * time.Millisecond)
			s.send("stop")
			move, _ := s.bestmove()
			if move == "" {
				t.Errorf("empty bestmove")
			}
			s.send("stop") // a second stop has nothing to stop
			if got := s.sync(); len(got) != 0 {
				t.Errorf("after a second stop: %q", got)
			}
		})
	}
}

// maxStopLatency is how soon after stop the bestmove must come.
const maxStopLatency = 50 * time.Millisecond

// slack bounds waits that are not what a test measures (stop in the
// tests of other things), generously for loaded machines: on two cores
// shared by a dozen busy processes the scheduler alone can hold the engine
// back for a second.
const slack = 5 * time.Second

// clockAnswer is "well inside" a 1 s clock without increment: the search
// budgets about a seventh of it, and this leaves room for a loaded machine.
// A trial over it is run again (withinTries).
const clockAnswer = 750 * time.Millisecond

// withinTries runs trial, which returns how long what it measures took,
// up to three times until it takes at most limit, and fails t when no
// attempt does. On a loaded machine the scheduler alone can hold the
// process back for longer than the limit now and then; an engine that is
// slow fails every attempt.
func withinTries(t *testing.T, limit time.Duration, what string, trial func() time.Duration) {
	t.Helper()
	var d time.Duration
	for attempt := 1; attempt <= 3; attempt++ {
		if d = trial(); d <= limit {
			return
		}
		t.Logf("attempt %d: %s after %v", attempt, what, d)
	}
	t.Errorf("%s after %v, want within %v", what, d, limit)
}

// TestStopLatency measures stop during deep searches of every variant,
// three times each at different moments. The search looks at its context
// every fraction of a millisecond; a trial over the limit is run again
// (withinTries).
func TestStopLatency(t *testing.T) {
	for _, variant := range board.Names() {
		t.Run(variant, func(t *testing.T) {
			s := newSession(t, Config{})
			s.send("setoption name UCI_Variant value "+variant, "position startpos")
			s.sync()
			for i := range 3 {
				after := time.Duration(20+40*i) * time.Millisecond
				withinTries(t, maxStopLatency, "bestmove after stop", func() time.Duration {
					s.send("go depth 120")
					time.Sleep(after)
					start := time.Now()
					s.send("stop")
					_, lines := s.bestmove()
					d := time.Since(start)
					checkSearchLines(t, append(lines, "bestmove x"))
					return d
				})
			}
		})
	}
}

// TestClock checks that a 1 s clock without increment is answered well
// inside it, for every variant and both sides.
func TestClock(t *testing.T) {
	for _, variant := range board.Names() {
		for _, pos := range []string{"startpos", "startpos moves " + map[bool]string{true: "a1 c2", false: "a1"}[variant == "hoyito3"]} {
			t.Run(variant+" "+pos, func(t *testing.T) {
				s := newSession(t, Config{})
				s.send("setoption name UCI_Variant value "+variant, "position "+pos)
				s.sync()
				withinTries(t, clockAnswer, "bestmove on a 1 s clock", func() time.Duration {
					start := time.Now()
					s.send("go wtime 1000 btime 1000")
					s.bestmove()
					return time.Since(start)
				})
			})
		}
	}
}

// TestCommandsDuringSearch checks that commands that change the state stop
// a running search first (it prints its bestmove) and that every go gets
// exactly one bestmove.
func TestCommandsDuringSearch(t *testing.T) {
	for _, tc := range []struct {
		cmd   string
		after string // a line the command prints after the bestmove
	}{
		{"position startpos moves a1", ""},
		{"setoption name Hash value 2", ""},
		{"setoption name Clear Hash", ""},
		{"setoption name Move Overhead value 30", ""},
		{"setoption name NoCaptureLimit value 100", ""},
		{"setoption name UCI_Variant value hoyito3", "info string variant hoyito3"},
		{"ucinewgame", ""},
		{"go depth 2", "bestmove"},
		{"perft 2", "nodes 36"},
		{"quit", ""},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			s := newSession(t, Config{})
			s.send("position startpos", "go infinite")
			time.Sleep(30 * time.Millisecond)
			s.send(tc.cmd)
			s.bestmove()
			if tc.after != "" {
				s.expect(tc.after)
			}
			if tc.cmd == "quit" {
				rest, err := s.close()
				if err != nil || len(rest) > 0 {
					t.Errorf("after quit: %v %q", err, rest)
				}
				return
			}
			if got := s.sync(); len(got) != 0 {
				t.Errorf("lines after: %q", got)
			}
		})
	}
}

// TestReadOnlyDuringSearch checks that commands that only look are
// answered during a search without stopping it.
func TestReadOnlyDuringSearch(t *testing.T) {
	s := newSession(t, Config{})
	s.send("setoption name UCI_Variant value hoyito3", "position startpos moves a1", "go infinite")
	for _, cmd := range []string{"isready", "d", "eval", "query p1turn", "query gameover", "query result", "uci", "ugi", "debug on", "ponderhit", "foo", "position fen x"} {
		s.send(cmd)
		for _, l := range s.sync() {
			if strings.HasPrefix(l, "bestmove") {
				t.Fatalf("%s stopped the search", cmd)
			}
		}
	}
	s.send("stop")
	s.bestmove()
}

func TestPonder(t *testing.T) {
	s := newSession(t, Config{})
	s.send("position startpos")
	withinTries(t, clockAnswer, "bestmove after ponderhit on a 1 s clock", func() time.Duration {
		s.send("go ponder wtime 1000 btime 1000")
		time.Sleep(100 * time.Millisecond)
		for _, l := range s.sync() {
			if strings.HasPrefix(l, "bestmove") {
				t.Fatalf("bestmove while pondering: %q", l)
			}
		}
		start := time.Now()
		s.send("ponderhit")
		s.bestmove()
		return time.Since(start)
	})
	s.send("ponderhit") // no longer pondering
	s.send("go ponder depth 3")
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	s.send("stop")
	s.bestmove()
	if d := time.Since(start); d > slack {
		t.Errorf("bestmove %v after stop while pondering", d)
	}
	if got := s.sync(); len(got) != 0 {
		t.Errorf("lines after: %q", got)
	}
}

func TestEOFDuringSearch(t *testing.T) {
	for _, goCmd := range []string{"go infinite", "go depth 120", "go ponder", "perft 40"} {
		t.Run(goCmd, func(t *testing.T) {
			s := newSession(t, Config{})
			s.send("position startpos", goCmd)
			time.Sleep(30 * time.Millisecond)
			start := time.Now()
			rest, err := s.close()
			if err != nil {
				t.Errorf("ServeWith: %v", err)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("ended %v after the input", d)
			}
			want := "bestmove "
			if strings.HasPrefix(goCmd, "perft") {
				want = "info string perft stopped"
			}
			if len(rest) == 0 || !strings.HasPrefix(rest[len(rest)-1], want) {
				t.Errorf("last lines %q, want %q…", rest, want)
			}
		})
	}
}

func TestContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := newSessionCtx(t, ctx, Config{})
	s.send("position startpos", "go infinite")
	s.sync()
	cancel()
	s.bestmove()
	select {
	case err := <-s.done:
		s.done <- err
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ServeWith: %v, want context.Canceled", err)
		}
	case <-time.After(wait):
		t.Fatal("ServeWith did not return after its context was cancelled")
	}
}

// TestUnsearchedMove: a go that cannot search answers the first legal
// move in the rule book's order, or none when the game is over.
func TestUnsearchedMove(t *testing.T) {
	v, err := board.New(board.NameKatro4x4)
	if err != nil {
		t.Fatal(err)
	}
	p := v.Start()
	if m := unsearchedMove(&p); m != p.LegalMoves()[0] {
		t.Errorf("start: %s, want %s", m, p.LegalMoves()[0])
	}
	over, err := v.ParsePosition("0,0,0,0/0,0,0,0/16,16,0,0/0,0,0,0 N 0")
	if err != nil {
		t.Fatal(err)
	}
	if m := unsearchedMove(&over); m != board.NoMove {
		t.Errorf("a finished game: %s, want none", m)
	}
}
