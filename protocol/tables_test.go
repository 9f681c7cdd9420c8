package protocol

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/tables"
)

// TestTablePath sets the option to a directory of 8-seed tables, searches
// a position in them (tbhits, a value-keeping move at once), refuses a
// directory without tables, follows a rule change, and turns tables off.
func TestTablePath(t *testing.T) {
	dir := buildTables(t, board.DefaultRules())
	s := newSession(t, Config{})
	s.send("uci")
	if got := s.expect("uciok"); !contains(got, "option name TablePath type string default <empty>") {
		t.Fatalf("uci does not list TablePath:\n%s", strings.Join(got, "\n"))
	}
	s.send("setoption name UCI_Variant value hoyito3", "setoption name TablePath value "+dir)
	if got := s.sync(); !contains(got, "info string tables "+dir+": any-capturer-limit200, up to 8 seeds") {
		t.Fatalf("TablePath:\n%s", strings.Join(got, "\n"))
	}
	s.send("position fen 0,0,1,2,0,1/1,0,2,0,1,0 N 40 0 0", "go depth 6")
	move, lines := s.bestmove()
	if move != "c2" && move != "f2" {
		t.Errorf("bestmove %s, want a value-keeping move (c2 or f2)", move)
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, "score cp -3200") || !strings.Contains(last, "tbhits ") {
		t.Errorf("last info %q, want the tables' score -32 seeds and tbhits", last)
	}
	s.send("setoption name TablePath value " + dir + "/none")
	if got := s.sync(); len(errorLines(got)) != 1 || !strings.Contains(got[0], "no any-capturer-limit200 tables") {
		t.Errorf("a directory without tables:\n%s", strings.Join(got, "\n"))
	}
	// Other rules: no tables for them in dir; the option says so and the
	// search goes on without them.
	s.send("setoption name CaptureSide value opponent")
	if got := s.sync(); !contains(got, "info string tables off: no opponent-capturer-limit200 tables in "+dir+" (want hoyito3-opponent-capturer-limit200-08.sowtb and up; build them with sower tables build)") {
		t.Errorf("rule change:\n%s", strings.Join(got, "\n"))
	}
	s.send("go depth 2")
	_, lines = s.bestmove()
	for _, l := range lines {
		if strings.Contains(l, "tbhits") || strings.HasPrefix(l, "info string") {
			t.Errorf("no tables for the rules, yet %q", l)
		}
	}
	s.send("setoption name CaptureSide value any", "setoption name TablePath value <empty>", "go depth 2")
	_, lines = s.bestmove()
	for _, l := range lines {
		if strings.Contains(l, "tbhits") {
			t.Errorf("tables off, yet %q", l)
		}
	}
}

// buildTables builds the 8-seed Hoyito III tables for each rule set in a
// new directory and returns it.
func buildTables(t *testing.T, rules ...board.Rules) string {
	t.Helper()
	dir := t.TempDir()
	for _, r := range rules {
		if err := tables.Build(context.Background(), tables.BuildConfig{Dir: dir, Options: tables.OptionsFor(r), Seeds: 8}); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestTablesFollowRules checks that a rule option reopens the tables for
// the new rules when it is set, so that isready covers the file work and
// go does none: once the tables are open, go uses them even after their
// directory is gone.
func TestTablesFollowRules(t *testing.T) {
	capturer := board.DefaultRules()
	fixed := capturer
	fixed.LastFour = board.LastFourSouth
	dir := buildTables(t, capturer, fixed)
	s := newSession(t, Config{})
	s.send("setoption name UCI_Variant value hoyito3", "setoption name TablePath value "+dir)
	s.sync()
	off := "info string tables off: no opponent-fixed-limit200 tables in " + dir +
		" (want hoyito3-opponent-fixed-limit200-08.sowtb and up; build them with sower tables build)"
	for _, step := range []struct {
		cmd  string
		want []string // the lines before readyok
	}{
		{"setoption name LastFour value south", []string{"info string tables " + dir + ": any-fixed-limit200, up to 8 seeds"}},
		{"setoption name LastFour value north", []string{"info string tables " + dir + ": any-fixed-limit200, up to 8 seeds"}},
		// The no-capture limit chooses the set too: the exact values
		// under Repetition off depend on it.
		{"setoption name NoCaptureLimit value 100", []string{"info string tables off: no any-fixed-limit100 tables in " + dir +
			" (want hoyito3-any-fixed-limit100-08.sowtb and up; build them with sower tables build)"}},
		{"setoption name NoCaptureLimit value 200", []string{"info string tables " + dir + ": any-fixed-limit200, up to 8 seeds"}},
		{"setoption name Repetition value off", nil}, // the same tables serve it
		{"setoption name Repetition value threefold", nil},
		{"setoption name CaptureSide value opponent", []string{off}},
		{"setoption name CaptureSide value any", []string{"info string tables " + dir + ": any-fixed-limit200, up to 8 seeds"}},
		{"setoption name LastFour value capturer", []string{"info string tables " + dir + ": any-capturer-limit200, up to 8 seeds"}},
		{"setoption name LastFour value south", []string{"info string tables " + dir + ": any-fixed-limit200, up to 8 seeds"}},
	} {
		s.send(step.cmd)
		if got := s.sync(); strings.Join(got, "\n") != strings.Join(step.want, "\n") {
			t.Errorf("%s: before readyok\n%s\nwant\n%s", step.cmd, strings.Join(got, "\n"), strings.Join(step.want, "\n"))
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Skipf("cannot remove the open tables here: %v", err)
	}
	s.send("position fen 0,0,1,2,0,1/1,0,2,0,1,0 N 40 0 0", "go depth 6")
	_, lines := s.bestmove()
	if last := lines[len(lines)-1]; !strings.Contains(last, "tbhits ") {
		t.Errorf("go after the tables were opened: no tbhits in\n%s", strings.Join(lines, "\n"))
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "info string") {
			t.Errorf("go: %q", l)
		}
	}
}

// TestTablePathDuringSearch sets TablePath while an infinite search runs:
// a refused directory, the directory already open (however spelled) and
// turning off tables that are off leave the search running; a new
// directory, and turning tables off, stop it first.
func TestTablePathDuringSearch(t *testing.T) {
	dir, other := buildTables(t, board.DefaultRules()), buildTables(t, board.DefaultRules())
	opened := func(d string) string { return "info string tables " + d + ": any-capturer-limit200, up to 8 seeds" }
	s := newSession(t, Config{})
	s.send("setoption name UCI_Variant value hoyito3", "setoption name TablePath value "+dir)
	s.sync()
	for _, tc := range []struct {
		value string
		want  string // the line the option prints, if any
		stops bool   // whether it stops the search
	}{
		{dir, opened(dir), false},
		{dir + "/", opened(dir), false},
		{dir + "/none", "info string error: setoption: TablePath: no any-capturer-limit200 tables in " + dir + "/none", false},
		{dir, opened(dir), false}, // still open after the refusal
		{other, opened(other), true},
		{"<empty>", "", true},
		{"<empty>", "", false},
		{"", "", false},
		{dir, opened(dir), true},
	} {
		s.send("position startpos", "go infinite", "setoption name TablePath value "+tc.value)
		got := s.sync()
		var stopped bool
		for _, l := range got {
			stopped = stopped || strings.HasPrefix(l, "bestmove ")
			if !strings.HasPrefix(l, "info depth ") && !strings.HasPrefix(l, "bestmove ") &&
				(tc.want == "" || !strings.HasPrefix(l, tc.want)) {
				t.Errorf("TablePath %s: unexpected %q", tc.value, l)
			}
			if tc.want != "" && strings.HasPrefix(l, tc.want) {
				tc.want = "" // found
			}
		}
		if tc.want != "" {
			t.Errorf("TablePath %s: no %q in\n%s", tc.value, tc.want, strings.Join(got, "\n"))
		}
		if stopped != tc.stops {
			t.Errorf("TablePath %s: stopped the search: %v, want %v", tc.value, stopped, tc.stops)
		}
		if !stopped {
			s.send("stop")
			s.bestmove()
		}
	}
}

// contains reports whether lines holds want.
func contains(lines []string, want string) bool {
	for _, l := range lines {
		if l == want {
			return true
		}
	}
	return false
}
