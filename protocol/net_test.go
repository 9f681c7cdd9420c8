package protocol

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
)

// writeNet writes a network of family f whose output grows with the seeds
// of the side to move's first hole, and returns its path.
func writeNet(t *testing.T, f board.Family) string {
	t.Helper()
	n := nnue.New(f, "a test network")
	for i := 0; i < nnue.Buckets; i++ {
		n.FT[i*nnue.Hidden] = int16(20 * (i + 1))
	}
	n.Dense[0][0] = nnue.QB
	n.Out[0] = nnue.QB
	path := filepath.Join(t.TempDir(), f.String()+".nnue")
	if err := n.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// nodesOf returns the node count of the last info line with one.
func nodesOf(lines []string) string {
	re := regexp.MustCompile(` nodes (\d+) `)
	last := ""
	for _, l := range lines {
		if m := re.FindStringSubmatch(l); m != nil {
			last = m[1]
		}
	}
	return last
}

func TestEvalTypeNet(t *testing.T) {
	path := writeNet(t, board.Hoyito)
	s := newSession(t, Config{})
	search := func() string {
		s.send("setoption name Clear Hash", "position startpos", "go depth 5")
		_, lines := s.bestmove()
		return nodesOf(lines)
	}
	s.send("setoption name UCI_Variant value hoyito3", "setoption name EvalType value linear")
	s.sync()
	lin := search()
	s.send("setoption name EvalFile value "+path, "setoption name EvalType value net")
	got := s.sync()
	if e := errorLines(got); len(e) > 0 {
		t.Fatalf("errors: %v", e)
	}
	if !contains(got, "info string hoyito3: network "+path) {
		t.Errorf("no line says which network plays:\n%s", strings.Join(got, "\n"))
	}
	if !contains(got, "info string katro: no network, the linear evaluation plays") && !contains(got, "info string katro: the built-in network") {
		t.Errorf("no line says how Katro is evaluated:\n%s", strings.Join(got, "\n"))
	}
	net := search()
	if lin == "" || lin == net {
		t.Errorf("the same search with and without the network: %s and %s nodes", lin, net)
	}
	if again := search(); again != net {
		t.Errorf("the network's search again: %s nodes, first %s", again, net)
	}
	s.send("setoption name EvalType value linear")
	s.sync()
	if back := search(); back != lin {
		t.Errorf("after EvalType linear: %s nodes, the linear search %s", back, lin)
	}
}

func TestEvalFileRefuses(t *testing.T) {
	dir := t.TempDir()
	damaged := filepath.Join(dir, "damaged.nnue")
	b, err := os.ReadFile(writeNet(t, board.Katro))
	if err != nil {
		t.Fatal(err)
	}
	b[100] ^= 1
	if err := os.WriteFile(damaged, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, want string }{
		{filepath.Join(dir, "missing.nnue"), "EvalFile: open"},
		{damaged, "EvalFile: " + damaged + ": nnue: damaged file"},
	} {
		got := errorLines(run(t, "setoption name EvalFile value "+tc.file+"\n"))
		if len(got) != 1 || !strings.Contains(got[0], tc.want) {
			t.Errorf("%s: errors %v, want one with %q", tc.file, got, tc.want)
		}
	}
	// Without any network, net plays the linear evaluation and says so.
	k, _ := nnue.Builtin(board.Katro)
	h, _ := nnue.Builtin(board.Hoyito)
	got := run(t, "setoption name EvalType value net\n")
	if len(errorLines(got)) > 0 || (k == nil && !contains(got, "info string katro: no network, the linear evaluation plays")) ||
		(h == nil && !contains(got, "info string hoyito3: no network, the linear evaluation plays")) {
		t.Errorf("EvalType net without a network file:\n%s", strings.Join(got, "\n"))
	}
}

// TestEvalTypeAuto checks the default evaluation, auto: each family
// searches as with EvalType net where it plays its built-in network by
// default (nnue.PlaysByDefault) and as with EvalType linear where it does
// not; EvalFile's network plays its family under auto too, and the info
// lines say which evaluation each family plays.
func TestEvalTypeAuto(t *testing.T) {
	for _, variant := range []string{board.NameKatro, board.NameHoyito3} {
		v, err := board.New(variant)
		if err != nil {
			t.Fatal(err)
		}
		s := newSession(t, Config{})
		search := func(opts ...string) string {
			s.send(opts...)
			s.send("setoption name Clear Hash", "position startpos", "go depth 5")
			_, lines := s.bestmove()
			return nodesOf(lines)
		}
		s.send("setoption name UCI_Variant value " + variant)
		byDefault := search()
		net := search("setoption name EvalType value net")
		linear := search("setoption name EvalType value linear")
		if net == linear {
			t.Fatalf("%s: the network and the linear evaluation search alike (%s nodes)", variant, net)
		}
		want, which := linear, "linear"
		if nnue.PlaysByDefault(v.Family()) {
			want, which = net, "net"
		}
		if byDefault != want {
			t.Errorf("%s by default: %s nodes, with EvalType %s %s", variant, byDefault, which, want)
		}
		if again := search("setoption name EvalType value auto"); again != byDefault {
			t.Errorf("%s with EvalType auto: %s nodes, by default %s", variant, again, byDefault)
		}
	}

	// EvalFile under auto plays its family; the other keeps its default.
	path := writeNet(t, board.Katro)
	s := newSession(t, Config{})
	s.send("setoption name EvalFile value " + path)
	got := s.sync()
	if !contains(got, "info string katro: network "+path) {
		t.Errorf("EvalFile under auto: no line says Katro plays it:\n%s", strings.Join(got, "\n"))
	}
	hoyito := "info string hoyito3: the linear evaluation"
	if nnue.PlaysByDefault(board.Hoyito) {
		hoyito = "info string hoyito3: the built-in network"
	}
	if !contains(got, hoyito) {
		t.Errorf("EvalFile under auto: no line %q:\n%s", hoyito, strings.Join(got, "\n"))
	}
	s.send("setoption name EvalType value linear")
	if got := s.sync(); len(got) != 0 {
		t.Errorf("EvalType linear: %q, want no line", got)
	}
}

// TestLevelPlaysLinear checks that a search at a strength level plays
// with the linear evaluation where a network plays by default, also at
// UCI_LimitStrength's top level, and that the table the network's
// searches filled is emptied when the searches go to a level and back.
func TestLevelPlaysLinear(t *testing.T) {
	s := newSession(t, Config{})
	search := func(opts ...string) string {
		s.send(opts...)
		s.send("position startpos", "go depth 5")
		_, lines := s.bestmove()
		return nodesOf(lines)
	}
	s.send("setoption name UCI_Variant value hoyito3")
	linear := search("setoption name EvalType value linear", "setoption name Clear Hash")
	net := search("setoption name EvalType value auto", "setoption name Clear Hash")
	if !nnue.PlaysByDefault(board.Hoyito) || linear == net {
		t.Fatalf("Hoyito III plays no network by default (%s and %s nodes): the test needs one that does", linear, net)
	}
	top := search("setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 2480")
	if top != linear {
		t.Errorf("UCI_Elo 2480: %s nodes, the linear evaluation's %s", top, linear)
	}
	// Back at full strength the table holds nothing of the level's
	// search: the network's search is the one from an empty table.
	if again := search("setoption name UCI_LimitStrength value false"); again != net {
		t.Errorf("after a search at a level: %s nodes, from an empty table %s", again, net)
	}
}
