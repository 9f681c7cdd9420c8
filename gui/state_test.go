package gui

import (
	"encoding/json"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// TestSouthEval turns scores from the mover's view to South's, by hand.
func TestSouthEval(t *testing.T) {
	info := func(line string) client.Info {
		var in client.Info
		in.Parse(line)
		return in
	}
	tests := []struct {
		line  string
		mover board.Side
		want  string // the evalMsg as JSON, "null" for none
	}{
		{"info depth 5 score cp 35 wdl 520 300 180", board.South, `{"cp":35,"wdl":[520,300,180]}`},
		{"info depth 5 score cp 35 wdl 520 300 180", board.North, `{"cp":-35,"wdl":[180,300,520]}`},
		{"info depth 5 score cp -120 lowerbound", board.South, `{"cp":-120,"bound":"lower"}`},
		{"info depth 5 score cp -120 lowerbound", board.North, `{"cp":120,"bound":"upper"}`},
		{"info depth 5 score cp 40 upperbound", board.North, `{"cp":-40,"bound":"lower"}`},
		{"info depth 9 score mate 3", board.North, `{"mate":-3}`},
		{"info depth 9 score mate -2", board.North, `{"mate":2}`},
		{"info depth 0 score mate 0", board.South, `{"mate":-1,"lost":true}`},
		{"info depth 0 score mate 0", board.North, `{"mate":1,"lost":true}`},
		{"info depth 4 nodes 5", board.South, `null`},
	}
	for _, c := range tests {
		b, _ := json.Marshal(southEval(info(c.line), c.mover))
		if string(b) != c.want {
			t.Errorf("%q, %v to move: %s, want %s", c.line, c.mover, b, c.want)
		}
	}
}

// TestLimitForm: the page's form reads back the limit it was shown.
func TestLimitForm(t *testing.T) {
	for _, c := range []struct{ kind, value, want string }{
		{"movetime", "250", "movetime=250"},
		{"movetime", "", "movetime=1000"},
		{"depth", " 7 ", "depth=7"},
		{"tc", "1:30+1", "tc=90+1"},
		{"tc", "", "tc=60+1"},
	} {
		l, err := parseLimit(c.kind, c.value)
		if err != nil || l.String() != c.want {
			t.Errorf("parseLimit(%q, %q) = %v, %v; want %s", c.kind, c.value, l, err, c.want)
			continue
		}
		f := limitForm(l)
		back, err := parseLimit(f.Kind, f.Value)
		if err != nil || back != l {
			t.Errorf("%s: the form shows %+v, which reads back as %v, %v", c.want, f, back, err)
		}
	}
	for _, c := range [][2]string{{"movetime", "0"}, {"movetime", "-5"}, {"depth", "x"}, {"tc", "0+1"}, {"nodes", "5"}} {
		if l, err := parseLimit(c[0], c[1]); err == nil {
			t.Errorf("parseLimit(%q, %q) = %v, want an error", c[0], c[1], l)
		}
	}
}
