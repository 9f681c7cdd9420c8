package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
	"github.com/sower-engine/sower/search"
)

// TestReportPrinter feeds the analyse printer reports by hand: a line
// equal to the last is not printed again, and once a report is settled the
// search is stopped (once) and later reports but the proof are dropped.
func TestReportPrinter(t *testing.T) {
	var out bytes.Buffer
	stops := 0
	pr := &reportPrinter{w: &out, settle: func() { stops++ }}
	cb := pr.callbacks()
	est := search.Info{Family: board.Katro, Depth: 3, Score: 40, Bound: search.BoundExact}
	win := search.Info{Family: board.Katro, Depth: 5, Score: search.KatroWin(5), Bound: search.BoundExact, Proven: true}
	cb.Info(est)
	cb.Info(est) // the same line again
	cb.CurrMove(search.CurrMove{Depth: 4, Number: 1})
	cb.Info(win)
	cb.Proven(search.Proof{Family: board.Katro, Depth: 5, Score: win.Score, Plies: 5})
	deeper := win
	deeper.Depth = 6
	cb.Info(deeper)
	cb.CurrMove(search.CurrMove{Depth: 7, Number: 1})
	want := "info depth 3 score cp 40 nodes 0 nps 0 time 0 hashfull 0\n" +
		"info depth 4 currmove (none) currmovenumber 1\n" +
		"info depth 5 score mate 3 nodes 0 nps 0 time 0 hashfull 0\n" +
		"info string proven: win in 5 plies\n"
	if out.String() != want || stops != 1 {
		t.Errorf("printed\n%s(%d stops), want\n%s(1 stop)", out.String(), stops, want)
	}
}

// TestAnalyseStopsWhenSettled analyses a katro-6x3 position won in a few
// plies to depth 100: the search stops once the win is settled instead of
// printing an info line per depth up to 100, no line is printed twice,
// and the last info line before bestmove is the settled one.
func TestAnalyseStopsWhenSettled(t *testing.T) {
	stdout, stderr, st := runCLI("analyse", "--game", "katro-6x3", "--moves", "a1 a6 a1 c6 c1 b6 a1 a6 b1 a6 c1 c6", "--depth", "100")
	if st != exitOK {
		t.Fatalf("status %d, stderr %s", st, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	seen := map[string]bool{}
	var infos []string
	for _, l := range lines {
		if seen[l] && strings.HasPrefix(l, "info") {
			t.Errorf("line printed twice: %q", l)
		}
		seen[l] = true
		if strings.HasPrefix(l, "info depth") && !strings.Contains(l, "currmove") {
			infos = append(infos, l)
		}
	}
	if len(infos) == 0 || len(infos) > 10 || !strings.Contains(stdout, "info string proven: win in 3 plies") {
		t.Fatalf("%d info lines:\n%s", len(infos), stdout)
	}
	if last := infos[len(infos)-1]; !strings.HasPrefix(last, "info depth 3 ") || !strings.Contains(last, "score mate 2") ||
		lines[len(lines)-1] != "bestmove c1 ponder b6" {
		t.Errorf("last info line %q, output\n%s", last, stdout)
	}
}

// TestAnalyseEval checks that analyse searches with each game's default
// evaluation (--eval auto): as with --eval net where the family plays its
// network by default, as with --eval linear where it does not; and that
// --evallazy reaches the search.
func TestAnalyseEval(t *testing.T) {
	nodes := func(args ...string) string {
		t.Helper()
		stdout, stderr, st := runCLI(append([]string{"analyse", "--depth", "6", "--threads", "1"}, args...)...)
		if st != exitOK {
			t.Fatalf("%v: status %d, stderr %s", args, st, stderr)
		}
		var last string
		for _, l := range strings.Split(stdout, "\n") {
			if f := strings.Fields(l); len(f) > 2 && f[0] == "info" && f[1] == "depth" {
				for i := range f[:len(f)-1] {
					if f[i] == "nodes" {
						last = f[i+1]
					}
				}
			}
		}
		return last
	}
	for _, g := range []string{board.NameKatro, board.NameHoyito3} {
		v, err := board.New(g)
		if err != nil {
			t.Fatal(err)
		}
		byDefault, net, linear := nodes("--game", g), nodes("--game", g, "--eval", "net"), nodes("--game", g, "--eval", "linear")
		if net == linear {
			t.Fatalf("%s: --eval net and linear search alike (%s nodes)", g, net)
		}
		want, which := linear, "linear"
		if nnue.PlaysByDefault(v.Family()) {
			want, which = net, "net"
		}
		if byDefault != want {
			t.Errorf("%s: %s nodes by default, %s with --eval %s", g, byDefault, want, which)
		}
		if lazy := nodes("--game", g, "--eval", "net", "--evallazy", "1"); lazy == net {
			t.Errorf("%s: --evallazy 1 searches as the default margin does (%s nodes)", g, lazy)
		}
	}
}

// TestAnalyseText: --format text writes a line a depth for people and a
// summary, no protocol lines; uci (the default off a terminal) writes the
// protocol's; another value is refused.
func TestAnalyseText(t *testing.T) {
	stdout, stderr, st := runCLI("analyse", "--game", "katro-4x4", "--depth", "5", "--format", "text")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	last := lines[len(lines)-1]
	if st != exitOK || !strings.HasPrefix(last, "best move ") || !strings.Contains(last, " at depth 5, ") || strings.Contains(stdout, "info ") ||
		!strings.Contains(stdout, "\ndepth  5/") {
		t.Errorf("--format text: status %d\n%s\n%s", st, stdout, stderr)
	}
	stdout, _, st = runCLI("analyse", "--game", "katro-4x4", "--depth", "5")
	if st != exitOK || !strings.Contains(stdout, "info depth 5 ") || !strings.Contains(stdout, "\nbestmove ") {
		t.Errorf("the default off a terminal: status %d\n%s", st, stdout)
	}
	if _, stderr, st := runCLI("analyse", "--format", "json"); st != exitUsage || !strings.Contains(stderr, `--format "json": want auto, text or uci`) {
		t.Errorf("--format json: status %d, %q", st, stderr)
	}
}
