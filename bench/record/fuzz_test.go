package record

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// plainMove is a move as the rule book writes it, which PGN keeps as is.
var plainMove = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

// FuzzReadRecords reads arbitrary text as game records: an error or
// records, never a panic; and a record that replays writes PGN that
// reads back to the same moves and the same side lines.
func FuzzReadRecords(f *testing.F) {
	f.Add([]byte(`{"game":1,"variant":"katro-4x4","options":{"NoCaptureLimit":"200"},"start":"2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 0","moves":[{"move":"a1","side":"S","ms":0}]}`))
	f.Add([]byte("[Variant \"hoyito3\"]\n[FEN \"4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 0\"]\n\n1. a1 {+0.35/12 0.520s} c2 a2 {-M3/9 0.1s} 2. b1 {} *\n"))
	f.Add([]byte("[Variant \"hoyito3\"]\n[FEN \"4,4,4,4,4,4/0,0,0,0,0,0 S 0 24 0\"]\n\n1. Z0 {0.000s} a2 {0.000s} -- *\n"))
	f.Add([]byte("[Variant \"katro\"]\n1. a1 {unterminated"))
	f.Add([]byte("[Event"))
	f.Add([]byte("[Variant \"katro-4x4\"]\n\n1. a1 (b1 d4 (c4) a1) (c1) 1... a4 *\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := ReadRecords(data)
		if err != nil {
			return
		}
		for _, r := range recs {
			g, err := r.Replay()
			if err != nil {
				continue
			}
			out := RecordGame(g, "a", "b", "none", "none", nil)
			for i := range out.Moves {
				out.Moves[i].Lines = plainLines(r.Moves[i].Lines)
			}
			back, err := ReadRecords([]byte(out.PGN()))
			if err != nil || len(back) != 1 || len(back[0].Moves) != len(g.Moves()) {
				t.Fatalf("PGN of a replayed record does not read back: %v", err)
			}
			for i, m := range back[0].Moves {
				if want := lineSet(out.Moves[i].Lines); !slices.Equal(lineSet(m.Lines), want) {
					t.Fatalf("ply %d's side lines %q read back as %q", i+1, out.Moves[i].Lines, m.Lines)
				}
			}
		}
	})
}

// plainLines keeps the side lines whose moves are all plain, as the GUI
// writes them.
func plainLines(lines [][]string) [][]string {
	var out [][]string
	for _, l := range lines {
		if len(l) > 0 && !slices.ContainsFunc(l, func(m string) bool { return !plainMove.MatchString(m) }) {
			out = append(out, l)
		}
	}
	return out
}

// lineSet is the distinct lines, sorted, each as one string.
func lineSet(lines [][]string) []string {
	var out []string
	for _, l := range lines {
		out = append(out, strings.Join(l, " "))
	}
	slices.Sort(out)
	return slices.Compact(out)
}
