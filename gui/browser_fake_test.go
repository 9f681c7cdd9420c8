package gui_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/gui"
)

// fakeFlag, as the test binary's first argument, makes it the scripted
// engine of the scores tests instead of running tests.
const fakeFlag = "-scripted-engine"

// TestMain runs the tests, or the scripted engine when asked.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == fakeFlag {
		scriptedEngine(os.Stdin, os.Stdout, os.Args[2:])
		return
	}
	os.Exit(gui.FixturesMain(m))
}

// scriptedCommand is the engine command that runs the test binary as a
// scripted engine: its k-th search prints the k-th script's lines (the
// last script repeats) and plays the first legal move.
func scriptedCommand(t *testing.T, scripts ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	words := []string{strconv.Quote(exe), fakeFlag}
	for _, s := range scripts {
		words = append(words, strconv.Quote(s))
	}
	return strings.Join(words, " ")
}

// scriptedEngine speaks enough of the protocol to play the first legal
// move with made-up scores. A script is info lines separated by "|"; a
// "sleep D" among them waits D (a time.Duration) before going on.
func scriptedEngine(in io.Reader, stdout io.Writer, scripts []string) {
	out := bufio.NewWriter(stdout)
	say := func(format string, a ...any) {
		fmt.Fprintf(out, format+"\n", a...)
		out.Flush()
	}
	name, rules := board.NameKatro, board.DefaultRules()
	var game *board.Game
	searches := 0
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			say("id name scripted")
			say("option name UCI_Variant type combo default katro var katro var katro-4x4 var hoyito3")
			say("option name UCI_ShowWDL type check default false")
			say("uciok")
		case "isready":
			say("readyok")
		case "setoption":
			if len(f) >= 5 && f[1] == "name" && f[3] == "value" {
				setRule(&name, &rules, f[2], f[4])
			}
		case "position":
			game = scriptedPosition(name, rules, f[1:])
		case "go":
			searches++
			if len(scripts) > 0 {
				for _, l := range strings.Split(scripts[min(searches, len(scripts))-1], "|") {
					if d, ok := strings.CutPrefix(l, "sleep "); ok {
						dur, _ := time.ParseDuration(d)
						time.Sleep(dur)
						continue
					}
					say("%s", l)
				}
			}
			if game == nil || game.Status().Over() {
				say("bestmove (none)")
				continue
			}
			p := game.Position()
			say("bestmove %s", p.LegalMoves()[0])
		case "quit":
			return
		}
	}
}

// setRule notes an option of the game.
func setRule(name *string, rules *board.Rules, option, value string) {
	switch option {
	case "UCI_Variant":
		*name = value
	case "CaptureSide":
		rules.CaptureSide, _ = board.ParseCaptureSide(value)
	case "LastFour":
		rules.LastFour, _ = board.ParseLastFour(value)
	case "Repetition":
		rules.Repetition, _ = board.ParseRepetition(value)
	case "NoCaptureLimit":
		rules.NoCaptureLimit, _ = strconv.Atoi(value)
	}
}

// scriptedPosition reads "startpos|fen F… [moves M…]"; nil if it cannot.
func scriptedPosition(name string, rules board.Rules, f []string) *board.Game {
	v, err := board.NewWithRules(name, rules)
	if err != nil || len(f) == 0 {
		return nil
	}
	p := v.Start()
	rest := f[1:]
	if f[0] == "fen" {
		end := len(rest)
		for i, w := range rest {
			if w == "moves" {
				end = i
				break
			}
		}
		if p, err = v.ParsePosition(strings.Join(rest[:end], " ")); err != nil {
			return nil
		}
		rest = rest[end:]
	}
	g := board.NewGame(p)
	if len(rest) > 0 && rest[0] == "moves" {
		ms, err := v.ParseMoves(strings.Join(rest[1:], " "))
		if err != nil || g.PlayAll(ms) != nil {
			return nil
		}
	}
	return g
}
