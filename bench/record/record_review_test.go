package record

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// TestReviewRoundTrip writes a record whose plies carry reviews of every
// kind (a Katro mate for either side, a proven result, an estimate with a
// better move and its line, a finished game's last ply with no score) as
// JSON and as PGN, and reads the reviews back unchanged, next to the
// engine's own scores and times.
func TestReviewRoundTrip(t *testing.T) {
	v := variant(t, board.NameKatro4x4)
	g := board.NewGame(v.Start())
	ms, err := v.ParseMoves("a1 a4 c1 c4")
	if err != nil {
		t.Fatal(err)
	}
	if err := g.PlayAll(ms); err != nil {
		t.Fatal(err)
	}
	replies := make([]client.Reply, len(ms))
	replies[1].Info = client.Info{Depth: 7, HasDepth: true, CP: -35, HasScore: true}
	rec := RecordGame(g, "me", "sower", "none", "depth=7", replies)
	ip := func(x int) *int { return &x }
	reviews := []*MoveReview{
		{Mark: "best", CP: ip(35), Depth: 12},
		{Mark: "blunder", Loss: 0.873, Mate: ip(3), Proven: true, Depth: 9, Best: "b4", Line: []string{"b4", "a1", "d4"}},
		{Mark: "inaccuracy", Loss: 0.061, CP: ip(-1250), Depth: 11, Best: "b1", Line: []string{"b1"}},
		{Mark: "good", Loss: 0.004, Mate: ip(-2), Proven: true, Depth: 4},
	}
	for i, r := range reviews {
		rec.Moves[i].Review = r
	}
	js, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{string(js) + "\n", rec.PGN()} {
		got, err := ReadRecords([]byte(text))
		if err != nil || len(got) != 1 {
			t.Fatalf("ReadRecords: %d records, %v, from\n%s", len(got), err, text)
		}
		if !reflect.DeepEqual(got[0].Moves, rec.Moves) {
			for i := range rec.Moves {
				t.Errorf("ply %d read back as %+v (review %+v), want %+v (review %+v)\nfrom %s",
					i+1, got[0].Moves[i], got[0].Moves[i].Review, rec.Moves[i], rec.Moves[i].Review, text)
			}
		}
	}
}

// TestReadCommands checks the PGN comment commands that carry a review:
// other commands (a clock) are skipped and the text is left, NAGs before
// a comment are skipped, and a comment without [%review] has no review.
func TestReadCommands(t *testing.T) {
	rest, r := readCommands("+0.35/12 0.520s [%clk 0:01:00] [%eval -1.20] [%review mistake 0.14] [%best b1 c4 a1]")
	if strings.TrimSpace(rest) != "+0.35/12 0.520s" || r == nil || r.Mark != "mistake" || r.Loss != 0.14 || *r.CP != -120 ||
		r.Best != "b1" || !reflect.DeepEqual(r.Line, []string{"b1", "c4", "a1"}) {
		t.Errorf("rest %q, review %+v", rest, r)
	}
	if rest, r := readCommands("[%eval 0.17] 1.000s"); r != nil || rest != " 1.000s" {
		t.Errorf("a comment without [%%review]: rest %q, review %+v", rest, r)
	}
	recs, err := ReadRecords([]byte("[Variant \"katro-4x4\"]\n\n1. a1 $4 {0.100s [%eval #-3] [%review blunder 0.5]} a4 *\n"))
	if err != nil || len(recs) != 1 || len(recs[0].Moves) != 2 || recs[0].Moves[0].Review == nil ||
		*recs[0].Moves[0].Review.Mate != -3 || recs[0].Moves[0].MS != 100 {
		t.Fatalf("a move with a NAG: %+v, %v", recs, err)
	}
}

// TestSideLinesRoundTrip writes side lines on moves, with and without a
// review, and reads them back from JSON and PGN.
func TestSideLinesRoundTrip(t *testing.T) {
	v := variant(t, board.NameKatro4x4)
	g := board.NewGame(v.Start())
	ms, _ := v.ParseMoves("a1 a4 c1")
	if err := g.PlayAll(ms); err != nil {
		t.Fatal(err)
	}
	rec := RecordGame(g, "me", "you", "none", "none", nil)
	// Two lines from ply 1, one with two lines branching from it (one
	// of them twice), and a line from ply 3.
	rec.Moves[0].Lines = [][]string{{"b1", "d4", "a1"}, {"b1", "c4"}, {"b1", "d4", "b2", "a4"}, {"b1", "d4", "b2", "b4"}, {"c1"}}
	rec.Moves[2].Review = &MoveReview{Mark: "mistake", Loss: 0.12, Best: "b1", Line: []string{"b1"}}
	rec.Moves[2].Lines = [][]string{{"b1", "b4", "d1"}}
	js, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	pgn := rec.PGN()
	if want := "a1 {0.000s} (b1 d4 (c4) a1 (b2 a4 (b4))) (c1) 1... a4"; !strings.Contains(pgn, want) {
		t.Errorf("PGN:\n%s\nwant the side lines as variations, %q", pgn, want)
	}
	for _, text := range []string{string(js) + "\n", pgn} {
		got, err := ReadRecords([]byte(text))
		if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0].Moves, rec.Moves) {
			t.Errorf("side lines read back as %+v (%v), want %+v\nfrom %s", got, err, rec.Moves, text)
		}
	}
}
