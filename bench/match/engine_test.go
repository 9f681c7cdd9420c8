package match

import (
	"reflect"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		bad  bool
	}{
		{in: "sower", want: []string{"sower"}},
		{in: "  ./eng  -a   b ", want: []string{"./eng", "-a", "b"}},
		{in: `eng 'a b' "c d"`, want: []string{"eng", "a b", "c d"}},
		{in: `eng "say \"hi\"" x\ y`, want: []string{"eng", `say "hi"`, "x y"}},
		{in: `eng ''`, want: []string{"eng", ""}},
		{in: `a'b'c`, want: []string{"abc"}},
		{in: "", want: nil},
		{in: `eng 'open`, bad: true},
		{in: `eng "open`, bad: true},
		{in: `eng \`, bad: true},
	}
	for _, tc := range tests {
		got, err := SplitCommand(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("SplitCommand(%q) error %v, want error %v", tc.in, err, tc.bad)
			continue
		}
		if !tc.bad && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("SplitCommand(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseEngine(t *testing.T) {
	tests := []struct {
		in   string
		want EngineSpec
		bad  bool
	}{
		{in: "builtin:random", want: EngineSpec{Name: "random", Builtin: "random"}},
		{in: "builtin:greedy", want: EngineSpec{Name: "greedy", Builtin: "greedy"}},
		{in: "/usr/local/bin/sower --x", want: EngineSpec{Name: "sower", Command: []string{"/usr/local/bin/sower", "--x"}}},
		{in: "builtin:minimax", bad: true},
		{in: "   ", bad: true},
		{in: "'unterminated", bad: true},
	}
	for _, tc := range tests {
		got, err := ParseEngine(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("ParseEngine(%q) error %v, want error %v", tc.in, err, tc.bad)
			continue
		}
		if !tc.bad && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseEngine(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestParseOption(t *testing.T) {
	tests := []struct {
		in   string
		want Option
		cmd  string
		bad  bool
	}{
		{in: "Hash=64", want: Option{"Hash", "64"}, cmd: "setoption name Hash value 64"},
		{in: "Move Overhead = 20", want: Option{"Move Overhead", "20"}, cmd: "setoption name Move Overhead value 20"},
		{in: "Clear Hash=", want: Option{"Clear Hash", ""}, cmd: "setoption name Clear Hash"},
		{in: "Hash", bad: true},
		{in: "=5", bad: true},
	}
	for _, tc := range tests {
		got, err := ParseOption(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("ParseOption(%q) error %v, want error %v", tc.in, err, tc.bad)
			continue
		}
		if tc.bad {
			continue
		}
		if got != tc.want {
			t.Errorf("ParseOption(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
		if c := got.command(); c != tc.cmd {
			t.Errorf("command %q, want %q", c, tc.cmd)
		}
	}
}

func TestParseInfo(t *testing.T) {
	tests := []struct {
		lines []string
		want  engineEval
	}{
		{[]string{"info depth 12 seldepth 15 score cp 34 nodes 81234 nps 2712345 time 30 hashfull 12 pv a1 f6 c1"},
			engineEval{depth: 12, hasDepth: true, cp: 34, hasScore: true}},
		{[]string{"info depth 3 score cp 10", "info depth 5 score mate -2 upperbound nodes 9"},
			engineEval{depth: 5, hasDepth: true, mate: -2, isMate: true, hasScore: true, bound: "upperbound"}},
		{[]string{"info depth 4 score cp 50 lowerbound", "info string depth 9 score cp 1"},
			engineEval{depth: 4, hasDepth: true, cp: 50, hasScore: true, bound: "lowerbound"}},
		{[]string{"info depth x score cp y", "info nodes 5"}, engineEval{}},
		{[]string{"info depth 2 pv depth 7"}, engineEval{depth: 2, hasDepth: true}},
	}
	for _, tc := range tests {
		var e engineEval
		for _, l := range tc.lines {
			e.parseInfo(l)
		}
		if e != tc.want {
			t.Errorf("%q: got %+v, want %+v", tc.lines, e, tc.want)
		}
	}
}

func TestGoCommand(t *testing.T) {
	tests := []struct {
		req  goRequest
		want string
	}{
		{goRequest{clock: [2]time.Duration{10 * time.Second, 9500 * time.Millisecond}, inc: [2]time.Duration{100 * time.Millisecond, 100 * time.Millisecond}, hasClock: [2]bool{true, true}},
			"go wtime 10000 btime 9500 winc 100 binc 100"},
		{goRequest{clock: [2]time.Duration{1: 3 * time.Second}, hasClock: [2]bool{1: true}}, "go btime 3000 binc 0"},
		{goRequest{limit: Limit{MoveTime: 250 * time.Millisecond}}, "go movetime 250"},
		{goRequest{limit: Limit{Nodes: 5000, Depth: 3}}, "go nodes 5000 depth 3"},
		{goRequest{limit: Limit{Depth: 2}, clock: [2]time.Duration{0: time.Second}, hasClock: [2]bool{0: true}}, "go wtime 1000 winc 0 depth 2"},
	}
	for _, tc := range tests {
		if got := tc.req.command(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

func TestPositionCommand(t *testing.T) {
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	g := board.NewGame(v.Start())
	if got := positionCommand(g); got != "position startpos" {
		t.Errorf("got %q", got)
	}
	// a1 c2 a2: North's c2 captures and North moves again (rule book 6).
	ms, _ := v.ParseMoves("a1 c2 a2")
	if err := g.PlayAll(ms); err != nil {
		t.Fatal(err)
	}
	if got, want := positionCommand(g), "position startpos moves a1 c2 a2"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	g2 := board.NewGame(g.Position())
	if got, want := positionCommand(g2), "position fen "+g.Position().String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestGameSeed(t *testing.T) {
	seen := map[uint64]bool{}
	for seed := uint64(0); seed < 3; seed++ {
		for i := 0; i < 50; i++ {
			for slot := 0; slot < 2; slot++ {
				s := gameSeed(seed, i, slot)
				if seen[s] {
					t.Fatalf("gameSeed(%d, %d, %d) repeats", seed, i, slot)
				}
				seen[s] = true
			}
		}
	}
}
