// Command fakeengine is a small engine for the tests of engine clients: it speaks
// enough of the engine protocol to play legal moves (the first legal move
// in the position; "go infinite" answers at "stop") and, when asked, misbehaves in one way from a given
// search on.
//
// With -wdl it offers UCI_ShowWDL and, once that is on, reports win, draw
// and loss chances with every score; with -mate N its scores are a win in
// 3 (certain: wdl 1000 0 0) from its Nth search on.
//
//	fakeengine -mode good|illegal|garbage|none|crash|hang|late|nouci [-after N] [-delay D] [-trace FILE] [-multipv N] [-wdl] [-mate N]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sower-engine/sower/board"
)

func main() {
	mode := flag.String("mode", "good", "how to misbehave")
	after := flag.Int("after", 1, "misbehave from this search on (1-based, counted per process)")
	delay := flag.Duration("delay", time.Second, "how late a late bestmove comes")
	trace := flag.String("trace", "", "append every command received to this file")
	maxPV := flag.Int("multipv", 0, "offer a MultiPV option up to this many lines (0: none)")
	offerWDL := flag.Bool("wdl", false, "offer UCI_ShowWDL")
	mateFrom := flag.Int("mate", 0, "score a win in 3 from this search on (0: never)")
	flag.Parse()

	var tr *os.File
	if *trace != "" {
		f, err := os.OpenFile(*trace, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer f.Close()
		tr = f
	}
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, a ...any) {
		fmt.Fprintf(out, format+"\n", a...)
		out.Flush()
	}
	name := board.NameKatro
	rules := board.DefaultRules()
	var game *board.Game
	searches := 0
	pending := false // an infinite search is running
	lines := 1       // MultiPV
	showWDL := false
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if tr != nil {
			fmt.Fprintln(tr, line)
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			if *mode == "nouci" {
				continue
			}
			say("id name fake")
			say("option name UCI_Variant type combo default katro var katro var hoyito3")
			if *maxPV > 0 {
				say("option name MultiPV type spin default 1 min 1 max %d", *maxPV)
			}
			if *offerWDL {
				say("option name UCI_ShowWDL type check default false")
			}
			say("uciok")
		case "isready":
			say("readyok")
		case "setoption":
			if len(f) >= 5 && f[1] == "name" && f[3] == "value" {
				switch f[2] {
				case "UCI_Variant":
					name = f[4]
				case "CaptureSide":
					rules.CaptureSide, _ = board.ParseCaptureSide(f[4])
				case "LastFour":
					rules.LastFour, _ = board.ParseLastFour(f[4])
				case "Repetition":
					rules.Repetition, _ = board.ParseRepetition(f[4])
				case "NoCaptureLimit":
					rules.NoCaptureLimit, _ = strconv.Atoi(f[4])
				case "MultiPV":
					lines, _ = strconv.Atoi(f[4])
				case "UCI_ShowWDL":
					showWDL = *offerWDL && f[4] == "true"
				}
			}
		case "position":
			v, err := board.NewWithRules(name, rules)
			if err != nil {
				say("info string error: %v", err)
				continue
			}
			p := v.Start()
			rest := f[1:]
			if len(rest) > 0 && rest[0] == "fen" {
				end := len(rest)
				for i, w := range rest {
					if w == "moves" {
						end = i
						break
					}
				}
				if p, err = v.ParsePosition(strings.Join(rest[1:end], " ")); err != nil {
					say("info string error: %v", err)
					continue
				}
				rest = rest[end:]
			} else if len(rest) > 0 {
				rest = rest[1:]
			}
			game = board.NewGame(p)
			if len(rest) > 0 && rest[0] == "moves" {
				ms, err := v.ParseMoves(strings.Join(rest[1:], " "))
				if err == nil {
					err = game.PlayAll(ms)
				}
				if err != nil {
					say("info string error: %v", err)
				}
			}
		case "go":
			searches++
			bad := searches >= *after
			if bad {
				switch *mode {
				case "crash":
					os.Exit(3)
				case "hang":
					continue
				case "late":
					time.Sleep(*delay)
				case "garbage":
					say("bestmove xyz")
					continue
				case "none":
					say("bestmove (none)")
					continue
				case "illegal":
					say("bestmove %s", illegal(game))
					continue
				}
			}
			score := fmt.Sprintf("cp %d", 10*searches)
			if *mateFrom > 0 && searches >= *mateFrom {
				score = "mate 3"
			}
			if showWDL {
				score += " " + wdl(10*searches, *mateFrom > 0 && searches >= *mateFrom)
			}
			say("info depth 3 seldepth 5 score %s nodes 100 nps 1000 time 1 pv x", score)
			if *maxPV > 0 && game != nil && !game.Status().Over() {
				p := game.Position()
				for k, m := range p.LegalMoves() {
					if k < lines {
						say("info depth 4 multipv %d score cp %d nodes 200 nps 2000 time 1 pv %s", k+1, -k, m)
					}
				}
			}
			if strings.Contains(line, "infinite") {
				pending = true // until stop
				continue
			}
			say("bestmove %s", first(game))
		case "stop":
			if pending {
				pending = false
				say("bestmove %s", first(game))
			}
		case "quit":
			return
		}
	}
}

// wdl writes made-up chances for a score in centi-units, or a certain win.
func wdl(cp int, won bool) string {
	if won {
		return "wdl 1000 0 0"
	}
	w := min(300+cp, 900)
	l := max(400-cp, 0)
	return fmt.Sprintf("wdl %d %d %d", w, 1000-w-l, l)
}

// first returns the first legal move, or NoMove when the game is over.
func first(g *board.Game) board.Move {
	if g == nil || g.Status().Over() {
		return board.NoMove
	}
	p := g.Position()
	return p.LegalMoves()[0]
}

// illegal returns a hole of the board that is not a legal move.
func illegal(g *board.Game) board.Move {
	p := g.Position()
	legal := map[board.Move]bool{}
	for _, m := range p.LegalMoves() {
		legal[m] = true
	}
	for _, h := range p.Variant().Holes() {
		if !legal[h] {
			return h
		}
	}
	return board.Pass
}
