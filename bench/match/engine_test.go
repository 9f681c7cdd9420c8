package match

import (
	"reflect"
	"testing"
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
		{in: "Hash=64", want: Option{Name: "Hash", Value: "64"}, cmd: "setoption name Hash value 64"},
		{in: "Move Overhead = 20", want: Option{Name: "Move Overhead", Value: "20"}, cmd: "setoption name Move Overhead value 20"},
		{in: "Clear Hash=", want: Option{Name: "Clear Hash", Value: ""}, cmd: "setoption name Clear Hash"},
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
		if c := got.Command(); c != tc.cmd {
			t.Errorf("command %q, want %q", c, tc.cmd)
		}
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
