package record

import (
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

func variant(t *testing.T, name string) *board.Variant {
	t.Helper()
	v, err := board.New(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestPGN(t *testing.T) {
	d, cp, mate := 12, 35, -3
	mv := func(m, side string, ms int64) MoveRecord { return MoveRecord{Move: m, Side: side, MS: ms} }
	scored := mv("b1", "S", 1520)
	scored.Depth, scored.CP = &d, &cp
	mated := mv("e2", "N", 7)
	mated.Depth, mated.Mate = &d, &mate
	tests := []struct {
		name string
		rec  GameRecord
		want string
	}{
		{
			name: "hoyito3 extra turns",
			rec: GameRecord{
				Game: 3, Variant: "hoyito3", Date: "2025-01-02",
				Options: map[string]string{"CaptureSide": "any", "LastFour": "south", "NoCaptureLimit": "200"},
				Start:   "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 0", South: "A", North: "B",
				SouthLimit: "tc=10+0.1", NorthLimit: "depth=2",
				// South a1; North c2, a2 (an extra turn); South b1, c1; North e2.
				Moves:  []MoveRecord{mv("a1", "S", 0), mv("c2", "N", 0), mv("a2", "N", 0), scored, mv("c1", "S", 0), mated},
				Result: "1-0", Winner: "south", Termination: Normal, Reason: "last four", Seeds: &[2]int{28, 20},
			},
			want: `[Event "sower match"]
[Date "2025.01.02"]
[Round "3"]
[South "A"]
[North "B"]
[Result "1-0"]
[Variant "hoyito3"]
[FEN "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 0"]
[CaptureSide "any"]
[LastFour "south"]
[NoCaptureLimit "200"]
[SouthTimeControl "10+0.1"]
[NorthTimeControl "depth=2"]
[Termination "normal"]
[PlyCount "6"]

1. a1 {0.000s} c2 {0.000s} a2 {0.000s} 2. b1 {+0.35/12 1.520s} c1 {0.000s} 2...
e2 {#-3/12 0.007s} {last four, 28-20} 1-0

`,
		},
		{
			name: "katro from North, forfeit",
			rec: GameRecord{
				Game: 2, Variant: "katro-4x4", Date: "2025-01-02",
				Options: map[string]string{"NoCaptureLimit": "200"},
				Start:   "2,3,1,4/6,3,1,0/3,0,0,0/1,4,1,3 N 0", South: "A", North: "B",
				SouthLimit: "none", NorthLimit: "none",
				Moves:  []MoveRecord{mv("d4", "N", 1), mv("b1", "S", 2), mv("a4", "N", 3)},
				Result: "0-1", Winner: "north", Termination: IllegalMove, Loser: "south", Reason: `played "zz": bad`,
			},
			want: `[Event "sower match"]
[Date "2025.01.02"]
[Round "2"]
[South "A"]
[North "B"]
[Result "0-1"]
[Variant "katro-4x4"]
[FEN "2,3,1,4/6,3,1,0/3,0,0,0/1,4,1,3 N 0"]
[NoCaptureLimit "200"]
[TimeControl "-"]
[Termination "illegal move"]
[PlyCount "3"]

1... d4 {0.001s} 2. b1 {0.002s} a4 {0.003s}
{South forfeits: illegal move: played "zz": bad} 0-1

`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.rec.PGN(); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

func TestWrap(t *testing.T) {
	got := wrap(strings.Fields("aa bb cc dd "+strings.Repeat("x", 12)+" e"), 8)
	want := "aa bb cc\ndd\nxxxxxxxxxxxx\ne"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestPGNCommentText writes engines' text that would end or break a
// comment and reads the record back.
func TestPGNCommentText(t *testing.T) {
	tests := []struct{ reason, want string }{
		{`played "x}y": not a hole`, `played "x)y": not a hole`},
		{"}} {a} {", ")) {a) {"},
		{"two\nlines\r\tand a tab", "two lines  and a tab"},
		{"a\n[Round \"9\"]", "a [Round \"9\"]"},
	}
	for _, tc := range tests {
		t.Run(tc.reason, func(t *testing.T) {
			rec := GameRecord{
				Game: 1, Variant: "katro-4x4", Start: "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 0",
				South: "A", North: "B", SouthLimit: "none", NorthLimit: "none",
				Moves:  []MoveRecord{{Move: "a1", Side: "S"}},
				Result: "1-0", Winner: "south", Termination: IllegalMove, Loser: "north", Reason: tc.reason,
			}
			text := rec.PGN()
			recs, err := ReadRecords([]byte(text))
			if err != nil {
				t.Fatalf("ReadRecords: %v\n%s", err, text)
			}
			if r := recs[0]; r.Reason != tc.want || r.Result != "1-0" || len(r.Moves) != 1 {
				t.Errorf("read back: reason %q, result %q, %d moves; want %q, 1-0, 1 move\n%s", r.Reason, r.Result, len(r.Moves), tc.want, text)
			}
		})
	}
}

// TestCheckResult checks what a finished game's record must hold, an
// adjudicated game's included.
func TestCheckResult(t *testing.T) {
	ok := func() GameRecord {
		return GameRecord{Game: 3, Engine1: "south", Result: "1-0", Winner: "south", Termination: Normal}
	}
	tests := []struct {
		name string
		edit func(*GameRecord)
		want string // "" for none
	}{
		{"normal", func(*GameRecord) {}, ""},
		{"adjudicated win", func(g *GameRecord) { g.Termination = Adjudication }, ""},
		{"adjudicated draw", func(g *GameRecord) { g.Termination, g.Result, g.Winner = Adjudication, "1/2-1/2", "draw" }, ""},
		{"adjudicated with a loser", func(g *GameRecord) { g.Termination, g.Loser = Adjudication, "north" }, "game 3: ended by adjudication, yet north is named the loser"},
		{"normal with a loser", func(g *GameRecord) { g.Loser = "north" }, "game 3: ended by the rules, yet north is named the loser"},
		{"forfeit", func(g *GameRecord) { g.Termination, g.Loser = TimeForfeit, "north" }, ""},
		{"forfeit without a loser", func(g *GameRecord) { g.Termination = Crash }, "a crash with loser"},
		{"result and winner", func(g *GameRecord) { g.Winner = "north" }, `result "1-0" with winner "north"`},
		{"unknown termination", func(g *GameRecord) { g.Termination = "resigned" }, `termination "resigned"`},
	}
	for _, tc := range tests {
		g := ok()
		tc.edit(&g)
		err := g.CheckResult()
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
