package record

import (
	"reflect"
	"strings"
	"testing"
)

// TestReadVariations reads side lines written as PGN variations by hand,
// as chess programs write them (move numbers, glyphs and comments in
// them, nested variations), and refuses unbalanced ones by name.
func TestReadVariations(t *testing.T) {
	const head = "[Variant \"katro-4x4\"]\n\n"
	got, err := ReadRecords([]byte(head + "1. a1 {+0.10/3 0.100s} (1. b1 $2 {a try} 1... d4 (1... c4) 2. a1) (1. c1) 1... a4 {0.200s} 2. c1 (2. d1 b4 (c4 {x} (d4)) a1) *\n"))
	if err != nil || len(got) != 1 {
		t.Fatalf("variations: %v", err)
	}
	ms := got[0].Moves
	want := [][][]string{
		{{"b1", "d4", "a1"}, {"b1", "c4"}, {"c1"}},
		nil,
		{{"d1", "b4", "a1"}, {"d1", "c4"}, {"d1", "d4"}},
	}
	if len(ms) != 3 || ms[0].Move != "a1" || ms[1].Move != "a4" || ms[2].Move != "c1" || ms[0].MS != 100 || ms[1].MS != 200 {
		t.Fatalf("main line %+v", ms)
	}
	for i := range ms {
		if !reflect.DeepEqual(ms[i].Lines, want[i]) {
			t.Errorf("ply %d's lines %q, want %q", i+1, ms[i].Lines, want[i])
		}
	}
	// An empty variation is dropped, and the comment after a variation
	// is not the move's.
	got, err = ReadRecords([]byte(head + "1. a1 {0.100s} () a4 *\n"))
	if err != nil || got[0].Moves[0].Lines != nil || len(got[0].Moves) != 2 {
		t.Errorf("an empty variation: %+v, %v", got, err)
	}
	for _, c := range []struct{ text, err string }{
		{"(a1) a1 *", "a variation before any move"},
		{"1. a1 (() b1) *", "a variation before any move"},
		{"1. a1 (b1 *", "unterminated variation"},
		{"1. a1 b1) *", "closes no variation"},
	} {
		if _, err := ReadRecords([]byte(head + c.text + "\n")); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: %v, want %q", c.text, err, c.err)
		}
	}
}
