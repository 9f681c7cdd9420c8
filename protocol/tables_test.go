package protocol

import (
	"context"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/tables"
)

// TestTablePath sets the option to a directory of 8-seed tables, searches
// a position in them (tbhits, a value-keeping move at once), refuses a
// directory without tables, follows a rule change, and turns tables off.
func TestTablePath(t *testing.T) {
	dir := t.TempDir()
	if err := tables.Build(context.Background(), tables.BuildConfig{Dir: dir, Options: tables.OptionsFor(board.DefaultRules()), Seeds: 8}); err != nil {
		t.Fatal(err)
	}
	s := newSession(t, Config{})
	s.send("uci")
	if got := s.expect("uciok"); !contains(got, "option name TablePath type string default <empty>") {
		t.Fatalf("uci does not list TablePath:\n%s", strings.Join(got, "\n"))
	}
	s.send("setoption name UCI_Variant value hoyito3", "setoption name TablePath value "+dir)
	if got := s.sync(); !contains(got, "info string tables "+dir+": any-capturer, up to 8 seeds") {
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
	if got := s.sync(); len(errorLines(got)) != 1 || !strings.Contains(got[0], "no any-capturer tables") {
		t.Errorf("a directory without tables:\n%s", strings.Join(got, "\n"))
	}
	// Other rules: no tables for them in dir; the search says so and goes on.
	s.send("setoption name CaptureSide value opponent", "go depth 2")
	_, lines = s.bestmove()
	if !contains(lines, "info string tables off: no opponent-capturer tables in "+dir+" (want hoyito3-opponent-capturer-08.sowtb and up; build them with sower tables build)") {
		t.Errorf("rule change:\n%s", strings.Join(lines, "\n"))
	}
	s.send("setoption name CaptureSide value any", "setoption name TablePath value <empty>", "go depth 2")
	_, lines = s.bestmove()
	for _, l := range lines {
		if strings.Contains(l, "tbhits") {
			t.Errorf("tables off, yet %q", l)
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
