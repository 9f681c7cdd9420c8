package protocol

import (
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
	"github.com/sower-engine/sower/eval/nnue"
	"github.com/sower-engine/sower/eval/nnue/nnuetest"
)

// seedCountNet returns a Hoyito III network whose score is, by hand,
// round(500·S/255) hundredths of a seed for the side to move, S the seeds
// on the board when no hole holds more than 8: each hole's input adds 5
// per seed to the first accumulator value (5·S, below the clip at 255 for
// S up to 51), which the dense layer and the output pass on at weight 1.
func seedCountNet() *nnue.Net {
	n := nnue.New(board.Hoyito, "seed count")
	for i := 0; i < 12*nnue.Buckets; i++ {
		n.FT[i*nnue.Hidden] = int16(5 * (i%nnue.Buckets + 1))
	}
	n.Dense[0][0] = nnue.QB
	n.Out[0] = nnue.QB
	return n
}

// TestNetEvalByHand checks the protocol's eval with EvalType net on a
// position worked out by hand with seedCountNet: 44 seeds on the board,
// North to move, a score of round(500·44/255) = 86 for North; taking away
// a2's 8 seeds leaves round(500·36/255) = 71, an effect of 15 for North,
// −15 for South; 7 seeds: 86 − 73; 2 seeds: 86 − 82; 1 seed: 86 − 84.
func TestNetEvalByHand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "count.nnue")
	if err := seedCountNet().WriteFile(path); err != nil {
		t.Fatal(err)
	}
	s := newSession(t, Config{})
	s.send("setoption name UCI_Variant value hoyito3", "setoption name EvalFile value "+path, "setoption name EvalType value net",
		"position fen 8,1,1,1,7,7/0,8,2,7,2,0 N 0 4 0", "eval")
	got := s.sync()
	linear := eval.New(mustVariant(t, "hoyito3"))
	p, _ := mustVariant(t, "hoyito3").ParsePosition("8,1,1,1,7,7/0,8,2,7,2,0 N 0 4 0")
	lin := linear.Evaluate(&p)
	want := []string{
		"network: file " + path + ", a hoyito3 network for every board",
		"made by: seed count",
		"wdl model: K 0.002838, band 359.5, forecast by its table (none recorded: the linear evaluation's)",
		"effect of each hole's seeds on the score, for South (the score less the score without them):",
		"         a     b     c     d     e     f",
		"  2    -15    -2    -2    -2   -13   -13",
		"  1      .   -15    -4   -13    -4     .",
		"         a     b     c     d     e     f",
		"network 86 for North, the side to move; -86 for South (hundredths of a seed)",
		"linear  " + strconv.Itoa(lin) + " for North, the side to move; " + strconv.Itoa(-lin) + " for South",
		"EvalLazy 1200: the search scores a position the linear evaluation puts beyond ± 1200 by the linear evaluation",
	}
	if e := errorLines(got); len(e) > 0 {
		t.Fatalf("errors: %v", e)
	}
	i := 0
	for i < len(got) && !strings.HasPrefix(got[i], "network: ") {
		i++
	}
	if len(got)-i != len(want) {
		t.Fatalf("eval:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for k, w := range want {
		if got[i+k] != w {
			t.Errorf("line %d: %q, want %q", k, got[i+k], w)
		}
	}
	if e := errorLines(run(t, "setoption name EvalType value net\neval now\n")); len(e) != 1 || !strings.Contains(e[0], `unexpected "now"`) {
		t.Errorf("eval with an argument: errors %q", e)
	}
}

func mustVariant(t *testing.T, name string) *board.Variant {
	t.Helper()
	v, err := board.New(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestWriteNetEvalTotal checks, along random games of every board, that
// the total WriteNetEval prints is the network's evaluation computed from
// the model, for the side to move and for South, that every non-empty
// hole has an effect and no empty one, and that a network not trained for
// the board says so and shows the linear evaluation.
func TestWriteNetEvalTotal(t *testing.T) {
	total := regexp.MustCompile(`(?m)^network (-?\d+) for (South|North), the side to move; (-?\d+) for South`)
	for _, name := range board.Names() {
		v := mustVariant(t, name)
		n := nnuetest.RandomNet(v.Family(), 7)
		m, err := nnue.NewModel(n, v)
		if err != nil {
			t.Fatal(err)
		}
		lin := eval.New(v)
		rng := rand.New(rand.NewPCG(1, 2))
		p := v.Start()
		for ply := 0; ply < 40; ply++ {
			var b strings.Builder
			if err := WriteNetEval(&b, n, "test", &p, lin); err != nil {
				t.Fatal(err)
			}
			f := total.FindStringSubmatch(b.String())
			want := m.EvaluatePosition(&p)
			south := want
			if p.Side() == board.North {
				south = -want
			}
			if f == nil || f[1] != strconv.Itoa(want) || f[2] != p.Side().String() || f[3] != strconv.Itoa(south) {
				t.Fatalf("%s %s: the network scores %d for the side to move; eval printed:\n%s", name, p.String(), want, b.String())
			}
			_, holes := m.Explain(&p)
			nonEmpty := 0
			for _, h := range v.Holes() {
				if p.Count(h) > 0 {
					nonEmpty++
				}
			}
			if len(holes) != nonEmpty {
				t.Fatalf("%s %s: %d effects for %d non-empty holes", name, p.String(), len(holes), nonEmpty)
			}
			for _, h := range holes {
				if h.Seeds != p.Count(h.Hole) || h.Seeds == 0 {
					t.Fatalf("%s %s: hole %s has %d seeds, its effect says %d", name, p.String(), h.Hole, p.Count(h.Hole), h.Seeds)
				}
			}
			l := p.LegalMoves()
			if len(l) == 0 {
				break
			}
			p.Play(l[rng.IntN(len(l))])
		}
	}
	k := nnuetest.RandomNet(board.Katro, 8)
	k.Boards = 2 // 6x3 only
	v := mustVariant(t, board.NameKatro)
	p := v.Start()
	var b strings.Builder
	if err := WriteNetEval(&b, k, "test", &p, eval.New(v)); err != nil {
		t.Fatal(err)
	}
	wantLin := "total " + strconv.Itoa(eval.New(v).Evaluate(&p)) + " for South, the side to move"
	if s := b.String(); !strings.Contains(s, "a katro network for katro-6x3\n") || !strings.Contains(s, "the network does not evaluate katro: the search plays it with the linear evaluation") ||
		!strings.Contains(s, wantLin) || strings.Contains(s, "\nnetwork ") {
		t.Errorf("a 6x3 network on the 6x6 board:\n%s", s)
	}
}

// TestEvalTypeNetEval checks the protocol's eval after EvalType net with
// the built-in networks: a family with one shows it and its total, one
// without says the linear evaluation plays.
func TestEvalTypeNetEval(t *testing.T) {
	for _, name := range []string{board.NameHoyito3, board.NameKatro} {
		v := mustVariant(t, name)
		n, err := nnue.Builtin(v.Family())
		if err != nil {
			t.Fatal(err)
		}
		s := newSession(t, Config{})
		s.send("setoption name UCI_Variant value "+name, "setoption name EvalType value net", "eval")
		got := s.sync()
		if n == nil {
			if !contains(got, "no "+v.Family().String()+" network (none is built in; EvalFile can give one): the linear evaluation plays") || !strings.HasPrefix(got[len(got)-1], "total ") {
				t.Errorf("%s eval without a network:\n%s", name, strings.Join(got, "\n"))
			}
			continue
		}
		m, err := nnue.NewModel(n, v)
		if err != nil {
			t.Fatal(err)
		}
		p := v.Start()
		want := "network " + strconv.Itoa(m.EvaluatePosition(&p)) + " for South, the side to move"
		if !contains(got, "network: the built-in "+nnue.BuiltinName(v.Family())+", a "+v.Family().String()+" network for "+NetBoards(n)) || !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("%s eval with the built-in network, want %q:\n%s", name, want, strings.Join(got, "\n"))
		}
	}
}

// TestEvalTypeNetWDL checks that with EvalType net the wdl of the info
// lines is the network's own model's forecast at the line's score, and
// the linear evaluation's model's after EvalType linear.
func TestEvalTypeNetWDL(t *testing.T) {
	own := eval.WDLModel{K: 0.02, Band: 10}
	n := seedCountNet()
	n.WDL = own
	path := filepath.Join(t.TempDir(), "wdl.nnue")
	if err := n.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(` score cp (-?\d+) (?:lowerbound |upperbound )?wdl (\d+) (\d+) (\d+) `)
	s := newSession(t, Config{})
	s.send("setoption name UCI_Variant value hoyito3", "setoption name UCI_ShowWDL value true", "setoption name EvalFile value "+path)
	for _, tc := range []struct {
		evalType string
		model    eval.WDLModel
	}{{"net", own}, {"linear", eval.BuiltinWDL(board.Hoyito)}} {
		s.send("setoption name EvalType value "+tc.evalType, "position startpos moves a1 c2", "go depth 4")
		_, lines := s.bestmove()
		checked := 0
		for _, l := range lines {
			m := line.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			cp, _ := strconv.Atoi(m[1])
			w := tc.model.PerMille(cp)
			if got := m[2] + " " + m[3] + " " + m[4]; got != strconv.Itoa(w.Win)+" "+strconv.Itoa(w.Draw)+" "+strconv.Itoa(w.Loss) {
				t.Errorf("EvalType %s: %q, want wdl %d %d %d", tc.evalType, l, w.Win, w.Draw, w.Loss)
			}
			checked++
		}
		if checked == 0 {
			t.Errorf("EvalType %s: no info line with a score and wdl:\n%s", tc.evalType, strings.Join(lines, "\n"))
		}
	}
}
