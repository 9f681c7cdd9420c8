package timecontrol

import (
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
