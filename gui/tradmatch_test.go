package gui

import (
	"strings"
	"testing"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client/clienttest"
)

// TestTraditionalMatch plays a 4-game traditional Hoyito III match
// between two engines and checks its record against the rule book (2.6):
// colours alternate, games 1 and 2 give the last seeds to the capturer,
// from game 3 on to the winner of the previous game (a draw leaves the
// setting), and every game's final seeds are what its moves and its
// LastFour give.
func TestTraditionalMatch(t *testing.T) {
	fake := clienttest.BuildFake(t)
	addr, _ := startServer(t, Engine{Name: "a", Command: []string{fake}}, Engine{Name: "b", Command: []string{fake}})
	p := open(t, addr)
	for _, bad := range []map[string]any{
		{"type": "new", "game": board.NameKatro, "south": "a", "north": "b", "match": 4},
		{"type": "new", "game": board.NameHoyito3, "south": "a", "north": "b", "match": 3},
		{"type": "new", "game": board.NameHoyito3, "south": "a", "north": "b", "match": 4, "moves": "a1"},
	} {
		p.msg = ""
		p.send(bad)
		p.await("the refusal", func(p *page) bool { return strings.HasPrefix(p.msg, "match") })
	}
	p.send(map[string]any{"type": "new", "game": board.NameHoyito3, "south": "a", "north": "b", "match": 4, "limitKind": "movetime", "limitValue": "20"})
	p.await("the end of the match", func(p *page) bool {
		m := p.last.Match
		return m != nil && m.Game == 4 && len(m.Results) == 4 && p.last.Turn == "over"
	})
	if m := p.last.Match; m.Next || m.Score[0]+m.Score[1] != 4 || m.Players != [2]string{"a", "b"} {
		t.Errorf("the match's end: %+v, want no next game, 4 points shared between a and b", m)
	}
	text := p.export("jsonl")
	recs, err := record.ReadRecords([]byte(text))
	if err != nil || len(recs) != 4 {
		t.Fatalf("the match's record: %d games, %v:\n%s", len(recs), err, text)
	}
	holder := "" // the player the last four go to from game 3 on; "" the capturer
	for i, rec := range recs {
		k := i + 1
		wantSouth, wantNorth := "a", "b"
		if k%2 == 0 {
			wantSouth, wantNorth = "b", "a"
		}
		want := "capturer"
		switch {
		case k >= 3 && holder == rec.South:
			want = "south"
		case k >= 3 && holder == rec.North:
			want = "north"
		}
		if rec.Game != k || rec.South != wantSouth || rec.North != wantNorth || rec.Options["LastFour"] != want {
			t.Errorf("game %d: game %d, %s (South) v %s, LastFour %q; want %s v %s, LastFour %s", k, rec.Game, rec.South, rec.North, rec.Options["LastFour"], wantSouth, wantNorth, want)
		}
		g, err := rec.Replay()
		if err != nil {
			t.Fatalf("game %d: %v", k, err)
		}
		st := g.Status()
		if !st.Over() || rec.Seeds == nil || *rec.Seeds != st.Seeds || rec.Winner != st.Result.String() {
			t.Errorf("game %d: recorded %v seeds, winner %s; its moves under LastFour %s give %v, %s", k, rec.Seeds, rec.Winner, rec.Options["LastFour"], st.Seeds, st.Result)
		}
		if k >= 2 && rec.Winner != "draw" {
			holder = map[string]string{"south": rec.South, "north": rec.North}[rec.Winner]
		}
		t.Logf("game %d: %s v %s, LastFour %s: %s %v (%s)", k, rec.South, rec.North, rec.Options["LastFour"], rec.Result, st.Seeds, rec.Reason)
	}
}
