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
