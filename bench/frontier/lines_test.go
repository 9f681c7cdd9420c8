package frontier

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// Lines written and read back are the same games; a line that does not
// end the game, a bad move, a wrong field count and a name used twice are
// refused, naming the line.
func TestLinesRoundTrip(t *testing.T) {
	lines := smallLinesSeed(t, board.NameKatro4x4, 4, 7)
	var buf bytes.Buffer
	if err := WriteLines(&buf, "a comment\nof two lines", lines); err != nil {
		t.Fatal(err)
	}
	v, _ := board.New(board.NameKatro4x4)
	got, err := ReadLines(bytes.NewReader(buf.Bytes()), v)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(lines) {
		t.Fatalf("%d lines read back, want %d", len(got), len(lines))
	}
	for i := range got {
		if got[i].Name != lines[i].Name || got[i].Start.String() != lines[i].Start.String() || board.FormatMoves(got[i].Moves) != board.FormatMoves(lines[i].Moves) {
			t.Errorf("line %d read back as %v, want %v", i, got[i], lines[i])
		}
	}
	text := strings.Split(strings.TrimSpace(buf.String()), "\n")
	first := text[2] // after the comment
	f := strings.Split(first, "\t")
	ms := strings.Fields(f[2])
	for _, tc := range []struct{ name, text, want string }{
		{"short", f[0] + "\t" + f[1] + "\t" + strings.Join(ms[:len(ms)-1], " "), "does not end"},
		{"bad move", f[0] + "\t" + f[1] + "\tz9", "moves"},
		{"fields", f[0] + "\t" + f[1], "2 tab-separated fields"},
		{"twice", first + "\n" + first, "used twice"},
	} {
		_, err := ReadLines(strings.NewReader("# c\n"+tc.text+"\n"), v)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "line ") {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
