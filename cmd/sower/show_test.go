package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestShowOverByLimit checks that a position read with a clock at or past
// the no-capture limit, legal notation for a game already over (rule book
// 1.7: a clock read from notation counts toward the limit), is shown as
// over by that limit, clearly, in text and JSON, and that a clock below
// the limit is not.
func TestShowOverByLimit(t *testing.T) {
	for _, c := range []struct {
		args []string
		note string // "" for none
	}{
		{[]string{"--game", "hoyito3", "--fen", "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 999"},
			"the game is over before any move: the clock 999 is at or past the no-capture limit of 200 plies, so each player took the seeds left in their own row (final totals 24-24)"},
		{[]string{"--game", "katro-4x4", "--fen", "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 200"},
			"the game is over before any move: the clock 200 is at or past the no-capture limit of 200 plies"},
		{[]string{"--game", "katro-4x4", "--fen", "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 30", "--no-capture-limit", "30"},
			"the game is over before any move: the clock 30 is at or past the no-capture limit of 30 plies"},
		{[]string{"--game", "katro-4x4", "--fen", "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 199"}, ""},
		{[]string{"--game", "katro-4x4", "--fen", "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 999", "--no-capture-limit", "0"}, ""},
	} {
		stdout, stderr, st := runCLI(append([]string{"show"}, c.args...)...)
		if st != exitOK {
			t.Fatalf("%v: status %d, stderr %s", c.args, st, stderr)
		}
		if got := strings.Contains(stdout, "Note: "+c.note+"\n"); c.note != "" && !got {
			t.Errorf("%v: no note %q in\n%s", c.args, c.note, stdout)
		}
		if c.note == "" && strings.Contains(stdout, "Note:") {
			t.Errorf("%v: a note for an ongoing game:\n%s", c.args, stdout)
		}
		if c.note != "" && !strings.Contains(stdout, "Status: draw (no-capture limit") {
			t.Errorf("%v: not a draw by the limit:\n%s", c.args, stdout)
		}
		stdout, _, _ = runCLI(append([]string{"show", "--json"}, c.args...)...)
		var got showJSON
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatal(err)
		}
		if got.Note != c.note || (c.note != "" && (got.Status != "draw" || got.Reason != "no-capture limit" || len(got.Legal) != 0)) {
			t.Errorf("%v --json: %+v, want note %q", c.args, got, c.note)
		}
	}
}
