package timecontrol

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

func TestParseTC(t *testing.T) {
	tests := []struct {
		in        string
		base, inc time.Duration
		str       string
		bad       bool
	}{
		{in: "10+0.1", base: 10 * time.Second, inc: 100 * time.Millisecond, str: "10+0.1"},
		{in: "60", base: time.Minute, str: "60"},
		{in: "1:30+1", base: 90 * time.Second, inc: time.Second, str: "90+1"},
		{in: "0.5+0.05", base: 500 * time.Millisecond, inc: 50 * time.Millisecond, str: "0.5+0.05"},
		{in: " 8+0.08 ", base: 8 * time.Second, inc: 80 * time.Millisecond, str: "8+0.08"},
		{in: "", bad: true},
		{in: "0+1", bad: true},
		{in: "-5+1", bad: true},
		{in: "10+x", bad: true},
		{in: "10+-1", bad: true},
		{in: "ten", bad: true},
		{in: "1:x", bad: true},
		{in: "NaN", bad: true},
		{in: "Inf", bad: true},
		{in: "0.0001", bad: true},
	}
	for _, tc := range tests {
		l, err := ParseTC(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("ParseTC(%q) error %v, want error %v", tc.in, err, tc.bad)
			continue
		}
		if tc.bad {
			continue
		}
		if l.Base != tc.base || l.Inc != tc.inc {
			t.Errorf("ParseTC(%q) = %v+%v, want %v+%v", tc.in, l.Base, l.Inc, tc.base, tc.inc)
		}
		if got := l.TC(); got != tc.str {
			t.Errorf("ParseTC(%q).TC() = %q, want %q", tc.in, got, tc.str)
		}
	}
}

// TestParseTCErrors checks that an error says what is wrong.
func TestParseTCErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0+1", "must be positive"},
		{"1000001", "the base time is over 1000000 seconds"},
		{"16667:0", "the base time is over 1000000 seconds"},
		{"10+1000001", "the increment is over 1000000 seconds"},
		{"10+x", "bad increment"},
		{"ten", "bad base time"},
	}
	for _, tc := range tests {
		if _, err := ParseTC(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseTC(%q): %v, want an error saying %q", tc.in, err, tc.want)
		}
	}
}

func TestParseLimit(t *testing.T) {
	tests := []struct {
		in   string
		want Limit
		str  string
		bad  bool
	}{
		{in: "depth=2", want: Limit{Depth: 2}, str: "depth=2"},
		{in: "tc=10+0.1 depth=2", want: Limit{Base: 10 * time.Second, Inc: 100 * time.Millisecond, Depth: 2}, str: "tc=10+0.1 depth=2"},
		{in: "movetime=100,nodes=5000", want: Limit{MoveTime: 100 * time.Millisecond, Nodes: 5000}, str: "movetime=100 nodes=5000"},
		{in: "", bad: true},
		{in: "depth", bad: true},
		{in: "depth=0", bad: true},
		{in: "depth=-1", bad: true},
		{in: "nodes=0", bad: true},
		{in: "movetime=0", bad: true},
		{in: "tc=abc", bad: true},
		{in: "speed=3", bad: true},
	}
	for _, tc := range tests {
		l, err := ParseLimit(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("ParseLimit(%q) error %v, want error %v", tc.in, err, tc.bad)
			continue
		}
		if tc.bad {
			continue
		}
		if l != tc.want {
			t.Errorf("ParseLimit(%q) = %+v, want %+v", tc.in, l, tc.want)
		}
		if got := l.String(); got != tc.str {
			t.Errorf("ParseLimit(%q).String() = %q, want %q", tc.in, got, tc.str)
		}
	}
	if got := (Limit{}).String(); got != "none" {
		t.Errorf("zero limit: %q, want none", got)
	}
}

func TestNewMove(t *testing.T) {
	ms := time.Millisecond
	tc := Limit{Base: 10 * time.Second, Inc: 100 * ms}
	mt := Limit{MoveTime: 300 * ms}
	dp := Limit{Depth: 4, Nodes: 1000}
	clock := [2]time.Duration{2500 * ms, 7 * time.Second}
	tests := []struct {
		name    string
		lims    [2]Limit
		side    board.Side
		command string
		budget  time.Duration
		wait    time.Duration
		timed   bool
	}{
		{"clock, south", [2]Limit{tc, tc}, board.South, "go wtime 2500 btime 7000 winc 100 binc 100", 2500 * ms, 2550 * ms, true},
		{"clock, north", [2]Limit{tc, tc}, board.North, "go wtime 2500 btime 7000 winc 100 binc 100", 7 * time.Second, 7050 * ms, true},
		{"move time against a clock", [2]Limit{mt, tc}, board.South, "go btime 7000 binc 100 movetime 300", 300 * ms, 350 * ms, true},
		{"depth and nodes: untimed", [2]Limit{dp, dp}, board.North, "go nodes 1000 depth 4", 0, time.Minute, false},
	}
	for _, c := range tests {
		m := NewMove(c.lims, clock, c.side, 50*ms, time.Minute)
		if got := m.Go.Command(); got != c.command || m.Budget != c.budget || m.Go.Wait != c.wait || m.Go.Timed != c.timed {
			t.Errorf("%s: %q budget %v wait %v timed %v; want %q %v %v %v", c.name, got, m.Budget, m.Go.Wait, m.Go.Timed, c.command, c.budget, c.wait, c.timed)
		}
	}
	m := NewMove([2]Limit{mt, mt}, clock, board.South, 50*ms, time.Minute)
	if l := m.Late(350 * ms); l != "" {
		t.Errorf("an answer at the margin: %q, want in time", l)
	}
	if l := m.Late(351 * ms); l != "answered after 351 ms; it had 300 ms (+50 ms margin)" {
		t.Errorf("a late answer: %q", l)
	}
	if got := tc.After(2500*ms, 3*time.Second); got != 100*ms {
		t.Errorf("a clock overrun: %v left, want the increment", got)
	}
	if got := mt.After(2500*ms, 3*time.Second); got != 2500*ms {
		t.Errorf("no clock: %v left, want it unchanged", got)
	}
}

func TestParseTimeControl(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		in   string
		want Limit
		tc   string
		bad  string
	}{
		{in: "40/60+0.5", want: Limit{Base: time.Minute, Inc: 500 * ms, Moves: 40}, tc: "40/60+0.5"},
		{in: "1/2", want: Limit{Base: 2 * time.Second, Moves: 1}, tc: "1/2"},
		{in: " 20/1:30 ", want: Limit{Base: 90 * time.Second, Moves: 20}, tc: "20/90"},
		{in: "10+0.1", want: Limit{Base: 10 * time.Second, Inc: 100 * ms}, tc: "10+0.1"},
		{in: "inf", want: Limit{}, tc: ""},
		{in: "INF", want: Limit{}, tc: ""},
		{in: "0/60", bad: `"0" is not a positive number of moves`},
		{in: "x/60", bad: `"x" is not a positive number of moves`},
		{in: "-4/60", bad: `"-4" is not a positive number of moves`},
		{in: "40/", bad: `time control "40/": time control "": bad base time`},
		{in: "40/0+1", bad: "the base time must be positive"},
		{in: "40/60/2", bad: "bad base time"},
		{in: "infinite", bad: "bad base time"},
	}
	for _, tc := range tests {
		l, err := ParseTimeControl(tc.in)
		if tc.bad != "" {
			if err == nil || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("ParseTimeControl(%q): %v, want an error saying %q", tc.in, err, tc.bad)
			}
			continue
		}
		if err != nil || l != tc.want || l.TC() != tc.tc {
			t.Errorf("ParseTimeControl(%q) = %+v (%q), %v; want %+v (%q)", tc.in, l, l.TC(), err, tc.want, tc.tc)
		}
	}
	// ParseTC reads one period only, as the GUI's clock keeps it.
	for _, s := range []string{"40/60+0.5", "inf"} {
		if _, err := ParseTC(s); err == nil {
			t.Errorf("ParseTC(%q): no error", s)
		}
	}
	l, err := ParseLimit("tc=40/60+0.5 depth=3")
	if err != nil || l != (Limit{Base: time.Minute, Inc: 500 * ms, Moves: 40, Depth: 3}) || l.String() != "tc=40/60+0.5 depth=3" {
		t.Errorf("ParseLimit: %+v %q, %v", l, l.String(), err)
	}
	if l, err := ParseLimit("tc=inf nodes=5"); err != nil || l != (Limit{Nodes: 5}) {
		t.Errorf("ParseLimit(tc=inf nodes=5): %+v, %v", l, err)
	}
}

// TestClocksRefill checks a clock with periods: charged move by move,
// refilled with the base by the move that ends a period and not before,
// and movestogo counting down to 1.
func TestClocksRefill(t *testing.T) {
	ms := time.Millisecond
	period := Limit{Base: time.Second, Inc: 10 * ms, Moves: 3}
	plain := Limit{Base: time.Second}
	c := NewClocks([2]Limit{period, plain})
	if c.Left != [2]time.Duration{time.Second, time.Second} {
		t.Fatalf("start: %v", c.Left)
	}
	steps := []struct {
		toGo int
		left time.Duration // South's clock after the move, which took 100 ms
	}{
		{3, 910 * ms}, {2, 820 * ms}, {1, 730*ms + time.Second}, // the third move ends the period
		{3, 1640 * ms}, {2, 1550 * ms}, {1, 1460*ms + time.Second},
	}
	for i, st := range steps {
		m := c.Move(board.South, 0, time.Minute)
		if m.Go.MovesToGo != st.toGo || c.MovesToGo(board.South) != st.toGo {
			t.Errorf("move %d: movestogo %d, want %d", i+1, m.Go.MovesToGo, st.toGo)
		}
		if want := "movestogo " + strconv.Itoa(st.toGo); !strings.HasSuffix(m.Go.Command(), want) {
			t.Errorf("move %d: %q, want it to end with %q", i+1, m.Go.Command(), want)
		}
		if m.Budget != c.Left[board.South] {
			t.Errorf("move %d: budget %v, want the clock %v", i+1, m.Budget, c.Left[board.South])
		}
		c.Charge(board.South, 100*ms)
		if c.Left[board.South] != st.left {
			t.Errorf("move %d: %v left, want %v", i+1, c.Left[board.South], st.left)
		}
	}
	// North's clock has no periods: no movestogo, no refill.
	for range 4 {
		if m := c.Move(board.North, 0, time.Minute); m.Go.MovesToGo != 0 || strings.Contains(m.Go.Command(), "movestogo") {
			t.Errorf("a clock without periods sends %q", m.Go.Command())
		}
		c.Charge(board.North, 100*ms)
	}
	if c.Left[board.North] != 600*ms || c.Made != [2]int{6, 4} {
		t.Errorf("North: %v left, moves %v", c.Left[board.North], c.Made)
	}
	// An overrun leaves the clock at zero before the refill.
	c = NewClocks([2]Limit{{Base: time.Second, Moves: 1}, plain})
	c.Charge(board.South, 3*time.Second)
	if c.Left[board.South] != time.Second {
		t.Errorf("an overrun at the end of a period: %v left, want the base", c.Left[board.South])
	}
}
