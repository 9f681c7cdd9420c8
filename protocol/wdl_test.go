package protocol

import (
	"strconv"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
	"github.com/sower-engine/sower/eval/nnue"
	"github.com/sower-engine/sower/search"
)

// infoWDL returns an info line's score words ("cp 34", "mate -3"), its
// bound word (or ""), and its wdl triple; hasWDL is false when the line
// has no wdl. It fails t when wdl is anywhere but right after the score
// and bound, as Stockfish places it, or is not three per mille adding up
// to 1000.
func infoWDL(t *testing.T, line string) (score, bound string, wdl eval.WDL, hasWDL bool) {
	t.Helper()
	f := strings.Fields(line)
	i := 0
	for i < len(f) && f[i] != "score" {
		i++
	}
	if i+2 >= len(f) {
		t.Fatalf("no score in %q", line)
	}
	score, i = f[i+1]+" "+f[i+2], i+3
	if i < len(f) && (f[i] == "lowerbound" || f[i] == "upperbound") {
		bound, i = f[i], i+1
	}
	at := strings.Index(line, " wdl ")
	if at < 0 {
		return score, bound, wdl, false
	}
	if i+4 > len(f) || f[i] != "wdl" {
		t.Fatalf("wdl is not right after the score and bound: %q", line)
	}
	var n [3]int
	for k := range n {
		v, err := strconv.Atoi(f[i+1+k])
		if err != nil || v < 0 || v > 1000 {
			t.Fatalf("wdl share %q in %q", f[i+1+k], line)
		}
		n[k] = v
	}
	if n[0]+n[1]+n[2] != 1000 {
		t.Fatalf("wdl adds up to %d, not 1000: %q", n[0]+n[1]+n[2], line)
	}
	if i+4 >= len(f) || f[i+4] != "nodes" {
		t.Fatalf("nodes does not follow wdl: %q", line)
	}
	return score, bound, eval.WDL{Win: n[0], Draw: n[1], Loss: n[2]}, true
}

// scoreLines returns the info lines with a score.
func scoreLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, "info ") && strings.Contains(l, " score ") {
			out = append(out, l)
		}
	}
	return out
}

// UCI_ShowWDL is off by default; on, every info line with a score carries
// wdl after the score and bound, three per mille adding up to 1000, and
// an unproven score's forecast is the model of the family's default
// evaluation at that score; off
// again, none does. Over the pipe, in both families, with one line and
// with three.
func TestShowWDL(t *testing.T) {
	s := newSession(t, Config{})
	for _, tc := range []struct {
		variant, pos, goCmd string
		multiPV             int
	}{
		{"katro", "startpos moves a1", "go depth 6", 1},
		// Two of the balanced openings (testdata/openings).
		{"hoyito3", "fen 0,8,0,1,6,6/1,3,0,9,0,2 S 8 4 0", "go depth 7", 1},
		{"hoyito3", "fen 0,1,8,0,1,3/4,1,0,2,12,0 S 0 16 1", "go depth 5", 3},
	} {
		s.send("setoption name UCI_Variant value "+tc.variant, "setoption name MultiPV value "+strconv.Itoa(tc.multiPV), "position "+tc.pos)
		fam := board.Katro
		if tc.variant == "hoyito3" {
			fam = board.Hoyito
		}
		// The family's default evaluation plays: its model is the
		// default network's, or the linear evaluation's.
		v, err := board.New(tc.variant)
		if err != nil {
			t.Fatal(err)
		}
		n, err := nnue.Default(fam)
		if err != nil {
			t.Fatal(err)
		}
		model := search.NetWDLModel(n, v)
		for _, on := range []string{"", "true", "false"} {
			if on != "" {
				s.send("setoption name UCI_ShowWDL value " + on)
			}
			if got := errorLines(s.sync()); len(got) > 0 {
				t.Fatalf("%q", got)
			}
			s.send(tc.goCmd)
			_, lines := s.bestmove()
			infos := scoreLines(lines)
			if len(infos) == 0 {
				t.Fatalf("%s %s: no info line with a score:\n%s", tc.variant, tc.goCmd, strings.Join(lines, "\n"))
			}
			drawn := false
			for _, l := range infos {
				score, _, wdl, has := infoWDL(t, l)
				if has != (on == "true") {
					t.Fatalf("UCI_ShowWDL %q: %q", on, l)
				}
				if !has {
					continue
				}
				drawn = drawn || wdl.Draw > 0
				cp, ok := strings.CutPrefix(score, "cp ")
				x, err := strconv.Atoi(cp)
				if !ok || err != nil {
					continue // decisive: see TestShowWDLProven
				}
				if fam == board.Hoyito && x%100 == 0 && (x >= 100 || x <= -100) {
					continue // maybe a proven margin
				}
				if want := model.PerMille(x); wdl != want {
					t.Errorf("%s: wdl %+v, the model gives %+v at %d", l, wdl, want, x)
				}
			}
			if on == "true" && fam == board.Hoyito && !drawn {
				t.Errorf("Hoyito III, whose games are often drawn, forecasts no draw:\n%s", strings.Join(infos, "\n"))
			}
		}
	}
}

// A proven result is certain: a Katro win found by the search, Hoyito III
// endgames won and lost (exact margins, and margins proven as a minimum,
// reported as a bound on the winner's side), a proven draw, and a game
// already over, drawn or lost.
func TestShowWDLProven(t *testing.T) {
	for _, tc := range []struct {
		name, variant, limit, fen, goCmd string
		want                             eval.WDL
	}{
		{"katro-4x4 mate", "katro-4x4", "", "0,0,0,3/1,0,0,0/0,0,0,1/26,0,0,1 S 0", "go depth 8", eval.CertainWin},
		{"hoyito3 won by 28", "hoyito3", "8", "2,0,0,0,2,2/2,2,1,1,0,0 S 32 4 5", "go nodes 100000", eval.CertainWin},
		{"hoyito3 won, a bound", "hoyito3", "8", "2,0,0,0,2,2/2,2,1,1,0,0 S 32 4 5", "go depth 4", eval.CertainWin},
		{"hoyito3 lost", "hoyito3", "8", "0,3,0,2,1,0/1,3,0,1,1,0 S 12 24 5", "go nodes 100000", eval.CertainLoss},
		{"hoyito3 proven draw", "hoyito3", "8", "0,0,0,0,2,2/2,2,0,0,0,0 S 20 20 6", "go depth 6", eval.CertainDraw},
		{"hoyito3 over, drawn", "hoyito3", "", "0,0,0,0,0,0/0,0,0,0,0,0 N 24 24 7", "go depth 3", eval.CertainDraw},
		{"hoyito3 over, lost", "hoyito3", "", "0,0,0,0,0,0/0,0,0,0,0,0 N 28 20 7", "go depth 3", eval.CertainLoss},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t, Config{})
			s.send("setoption name UCI_ShowWDL value true", "setoption name UCI_Variant value "+tc.variant)
			if tc.limit != "" {
				s.send("setoption name NoCaptureLimit value " + tc.limit)
			}
			s.send("position fen " + tc.fen)
			if got := errorLines(s.sync()); len(got) > 0 {
				t.Fatalf("%q", got)
			}
			s.send(tc.goCmd)
			_, lines := s.bestmove()
			infos := scoreLines(lines)
			if len(infos) == 0 {
				t.Fatalf("no info line with a score:\n%s", strings.Join(lines, "\n"))
			}
			last := infos[len(infos)-1]
			score, bound, wdl, has := infoWDL(t, last)
			if !has || wdl != tc.want {
				t.Errorf("last line %q: wdl %+v, want %+v", last, wdl, tc.want)
			}
			if tc.name == "hoyito3 won, a bound" && bound != "lowerbound" {
				t.Errorf("%q: not the lower bound of a win the case is about (score %s)", last, score)
			}
		})
	}
}
