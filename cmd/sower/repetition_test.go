package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// cycleFEN cycles without a capture when each side plays its first legal
// move (see cycleMoves).
const cycleFEN = "1,1,1,3,0,2/0,0,0,0,0,0 S 20 20 0"

// cycleMoves returns the moves from cycleFEN, each side playing its first
// legal move, up to the third occurrence of a position.
func cycleMoves(t *testing.T) string {
	t.Helper()
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParsePosition(cycleFEN)
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
	if g.Status().Reason != board.ReasonRepeat {
		t.Fatalf("%s: the game ends %+v, not by repetition", cycleFEN, g.Status())
	}
	return board.FormatMoves(g.Moves())
}

// TestRepetitionFlag: --repetition off lets the cycling game go on where
// threefold ends it, analyse and solve search it, and --repetition off
// with --no-capture-limit 0 is refused.
func TestRepetitionFlag(t *testing.T) {
	moves := cycleMoves(t)
	for _, c := range []struct {
		rep, status, reason string
	}{{"threefold", "draw", "repetition"}, {"off", "ongoing", ""}} {
		stdout, stderr, st := runCLI("show", "--game", "hoyito3", "--fen", cycleFEN, "--moves", moves, "--repetition", c.rep, "--json")
		if st != exitOK {
			t.Fatalf("show --repetition %s: status %d, %s", c.rep, st, stderr)
		}
		var out showJSON
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatal(err)
		}
		if out.Status != c.status || out.Reason != c.reason {
			t.Errorf("show --repetition %s: status %q, reason %q; want %q, %q", c.rep, out.Status, out.Reason, c.status, c.reason)
		}
	}
	for _, args := range [][]string{
		{"analyse", "--depth", "3"},
		{"solve", "--depth", "2"},
		{"eval"},
	} {
		args = append(args, "--game", "hoyito3", "--fen", cycleFEN, "--moves", moves, "--repetition", "off")
		if stdout, stderr, st := runCLI(args...); st != exitOK || strings.Contains(stdout, "repetition") {
			t.Errorf("%v: status %d, stdout %q, stderr %q", args, st, stdout, stderr)
		}
	}
	const noLimit = "sower: --repetition off with --no-capture-limit 0: nothing would end a game without captures; give a limit or --repetition threefold\n"
	for _, args := range [][]string{
		{"show", "--game", "hoyito3", "--repetition", "off", "--no-capture-limit", "0"},
		{"analyse", "--game", "hoyito3", "--depth", "1", "--no-capture-limit", "0", "--repetition", "off"},
		{"match", "--engine1", "builtin:random", "--engine2", "builtin:random", "--game", "hoyito3", "--repetition", "off", "--no-capture-limit", "0"},
	} {
		if stdout, stderr, st := runCLI(args...); st != exitUsage || stdout != "" || stderr != noLimit {
			t.Errorf("%v: status %d, stdout %q, stderr %q, want %q", args, st, stdout, stderr, noLimit)
		}
	}
	if _, stderr, st := runCLI("show", "--game", "hoyito3", "--repetition", "twice"); st != exitUsage || !strings.Contains(stderr, `--repetition: unknown Repetition "twice": want threefold or off`) {
		t.Errorf("--repetition twice: status %d, stderr %q", st, stderr)
	}
	// tables build is not listed: one set serves both (TestTablesFlags).
	for _, cmd := range [][]string{{"tables", "probe"}, {"datagen"}, {"match"}, {"solve"}, {"analyse"}, {"eval"}, {"show"}} {
		stdout, _, st := runCLI(append(cmd, "--help")...)
		if st != exitOK || !strings.Contains(stdout, "--repetition") {
			t.Errorf("%v --help: status %d, no --repetition in %q", cmd, st, stdout)
		}
	}
}

// TestDatagenRepetition: datagen with --repetition off writes the option in
// the data file's header, continues that file with the same option, and
// refuses to continue it with threefold.
func TestDatagenRepetition(t *testing.T) {
	data := filepath.Join(t.TempDir(), "off.dat")
	args := []string{"datagen", "--game", "hoyito3", "--repetition", "off", "--no-capture-limit", "40", "--nodes", "100", "--random-plies", "4", "--out", data}
	if _, stderr, st := runCLI(append(args, "--games", "1")...); st != exitOK {
		t.Fatalf("datagen: status %d\n%s", st, stderr)
	}
	if r := scanData(t, data).Variant.Rules(); r.Repetition != board.RepetitionOff || r.NoCaptureLimit != 40 {
		t.Errorf("data file rules %+v, want Repetition off, limit 40", r)
	}
	if _, stderr, st := runCLI(append(args, "--games", "2")...); st != exitOK || !strings.Contains(stderr, " of 1 games; playing the 1 others") {
		t.Errorf("continuing with off: status %d\n%s", st, stderr)
	}
	threefold := append(slices.Clone(args), "--games", "3")
	threefold[4] = "threefold"
	if _, stderr, st := runCLI(threefold...); st != exitUsage || !strings.Contains(stderr, "Repetition:off NoCaptureLimit:40}, not hoyito3 with {CaptureSide:any LastFour:capturer Repetition:threefold") {
		t.Errorf("continuing with threefold: status %d\n%s", st, stderr)
	}
}
