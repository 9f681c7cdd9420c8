package record

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// TestReadRecords writes games as JSON lines and as PGN-like text and
// reads them back.
func TestReadRecords(t *testing.T) {
	rules := board.DefaultRules()
	rules.CaptureSide, rules.LastFour, rules.NoCaptureLimit = board.CaptureOpponent, board.LastFourNorth, 50
	hoy, err := board.NewWithRules(board.NameHoyito3, rules)
	if err != nil {
		t.Fatal(err)
	}
	katro := variant(t, board.NameKatro4x4)
	tests := []struct {
		name  string
		v     *board.Variant
		moves string
		over  bool
	}{
		{"hoyito3 extra turn", hoy, "a1 c2 a2 b1", false},
		{"katro unfinished", katro, "a1 a4 c1", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := board.NewGame(tc.v.Start())
			ms, err := tc.v.ParseMoves(tc.moves)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.PlayAll(ms); err != nil {
				t.Fatal(err)
			}
			replies := make([]client.Reply, len(ms))
			for i := range replies {
				if i%2 == 1 {
					replies[i] = client.Reply{Elapsed: time.Duration(i*10+5) * time.Millisecond,
						Info: client.Info{Depth: i, HasDepth: true, CP: -35 * i, HasScore: true}}
				}
			}
			replies[len(replies)-1].Info = client.Info{Depth: 9, HasDepth: true, Mate: -3, IsMate: true, HasScore: true}
			rec := RecordGame(g, "me", "sower", "none", "movetime=50", replies)
			if rec.Result != "*" || rec.Variant != tc.v.Name() || len(rec.Moves) != len(ms) {
				t.Fatalf("record %+v", rec)
			}
			js, err := json.Marshal(rec)
			if err != nil {
				t.Fatal(err)
			}
			for _, text := range []string{string(js) + "\n", rec.PGN()} {
				got, err := ReadRecords([]byte(text))
				if err != nil {
					t.Fatalf("ReadRecords(%q): %v", text, err)
				}
				if len(got) != 1 {
					t.Fatalf("%d records from %q", len(got), text)
				}
				r := got[0]
				if !reflect.DeepEqual(r.Moves, rec.Moves) || !reflect.DeepEqual(r.Options, rec.Options) || r.Start != rec.Start || r.Result != "*" {
					t.Errorf("read back from %q:\n%+v\nwant\n%+v", text, r, *rec)
				}
				g2, err := r.Replay()
				if err != nil {
					t.Fatal(err)
				}
				if g2.Position().String() != g.Position().String() {
					t.Errorf("replay ends at %s, want %s", g2.Position().String(), g.Position().String())
				}
			}
		})
	}
	for _, bad := range []string{"", "{not json", "1. a1 a4", `[Variant "nosuch"]` + "\n\n1. a1 *", `[Event "x"` + "\n"} {
		recs, err := ReadRecords([]byte(bad))
		if err == nil {
			if _, err = recs[0].Replay(); err == nil {
				t.Errorf("ReadRecords(%q) and Replay accept it", bad)
			}
		}
	}
	if !strings.Contains(RecordGame(board.NewGame(katro.Start()), "a", "b", "none", "none", nil).PGN(), `[Result "*"]`) {
		t.Error("an unfinished game's PGN has no * result")
	}
}

// TestReadForfeits reads the loser of a game lost by forfeit back from
// PGN, as sower match writes it and as cutechess does.
func TestReadForfeits(t *testing.T) {
	katro := variant(t, board.NameKatro4x4)
	g := board.NewGame(katro.Start())
	ms, _ := katro.ParseMoves("a1")
	if err := g.PlayAll(ms); err != nil {
		t.Fatal(err)
	}
	forfeit := RecordGame(g, "A", "B", "tc=1+0", "tc=1+0", nil)
	forfeit.Result, forfeit.Winner = "1-0", "south"
	forfeit.Termination, forfeit.Loser, forfeit.Reason = TimeForfeit, "north", "no bestmove within 990 ms (+50 ms margin)"
	resigned := RecordGame(g, "human", "B", "none", "tc=1+0", nil)
	resigned.Result, resigned.Winner = "0-1", "north"
	resigned.Termination, resigned.Loser, resigned.Reason = Resignation, "south", "south resigned"
	tags := "[Event \"x\"]\n[Variant \"katro-4x4\"]\n[Termination %q]\n[Result %q]\n\n1. a1 {0.010s} %s %s\n"
	tests := []struct {
		name, text          string
		term                Termination
		loser, reason, want string
	}{
		{"sower match", forfeit.PGN(), TimeForfeit, "north", forfeit.Reason, "1-0"},
		{"resignation", resigned.PGN(), Resignation, "south", "south resigned", "0-1"},
		{"cutechess, time", fmt.Sprintf(tags, "time forfeit", "1-0", "{North loses on time}", "1-0"), TimeForfeit, "north", "North loses on time", "1-0"},
		{"cutechess, no comment", fmt.Sprintf(tags, "time forfeit", "0-1", "", "0-1"), TimeForfeit, "south", "", "0-1"},
		{"illegal move", fmt.Sprintf(tags, "illegal move", "0-1", `{South forfeits: illegal move: played "zz"}`, "0-1"), IllegalMove, "south", `played "zz"`, "0-1"},
		{"adjudication", fmt.Sprintf(tags, "adjudication", "1-0", "{South wins by adjudication}", "1-0"), "adjudication", "", "South wins by adjudication", "1-0"},
		{"unterminated", fmt.Sprintf(tags, "unterminated", "*", "", "*"), Unterminated, "", "", "*"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs, err := ReadRecords([]byte(tc.text))
			if err != nil {
				t.Fatalf("ReadRecords: %v\n%s", err, tc.text)
			}
			r := recs[0]
			if r.Termination != tc.term || r.Loser != tc.loser || r.Reason != tc.reason || r.Result != tc.want || len(r.Moves) != 1 {
				t.Errorf("termination %q, loser %q, reason %q, result %q, %d moves; want %q, %q, %q, %q, 1 move\n%s",
					r.Termination, r.Loser, r.Reason, r.Result, len(r.Moves), tc.term, tc.loser, tc.reason, tc.want, tc.text)
			}
		})
	}
}

// TestReadMateComments: a mate in a move comment is read as written now
// ("#3", "#-3") and as cutechess, and Sower before, wrote it ("+M3",
// "-M3").
func TestReadMateComments(t *testing.T) {
	for _, c := range []struct {
		comment string
		mate    int
	}{{"#3/12 0.5s", 3}, {"#-3/9 1.0s", -3}, {"+M3/12 0.5s", 3}, {"-M3/9 1.0s", -3}} {
		var m MoveRecord
		m.readComment(c.comment)
		if m.Mate == nil || *m.Mate != c.mate || m.Depth == nil {
			t.Errorf("%q: mate %v depth %v, want %d", c.comment, m.Mate, m.Depth, c.mate)
		}
	}
}

// TestReadPGNPlayers reads the players from the Seven Tag Roster's White
// and Black (South and North), and from the South and North tags of
// records written before it; an unknown date reads as none.
func TestReadPGNPlayers(t *testing.T) {
	rec := GameRecord{
		Game: 1, Variant: "katro-4x4", Start: "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 0",
		South: "A", North: "B", SouthLimit: "none", NorthLimit: "none",
		Moves:  []MoveRecord{{Move: "a1", Side: "S"}},
		Result: "*",
	}
	text := rec.PGN()
	want := "[Event \"sower match\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n"
	if !strings.HasPrefix(text, want) {
		t.Errorf("PGN starts\n%s\nwant the Seven Tag Roster\n%s", text, want)
	}
	old := strings.NewReplacer(`[White "A"]`, `[South "A"]`, `[Black "B"]`, `[North "B"]`).Replace(text)
	for _, text := range []string{text, old} {
		recs, err := ReadRecords([]byte(text))
		if err != nil {
			t.Fatalf("ReadRecords: %v\n%s", err, text)
		}
		if r := recs[0]; r.South != "A" || r.North != "B" || r.Date != "" {
			t.Errorf("read South %q, North %q, Date %q from\n%s", r.South, r.North, r.Date, text)
		}
	}
}

// TestPGNPass writes a Hoyito III pass as "Z0", the null move chess PGN
// readers take as a move, never as "pass", which they skip or reject; the
// reader takes "Z0", and "--", back as the pass.
func TestPGNPass(t *testing.T) {
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	start, err := v.ParsePosition("4,4,4,4,4,4/0,0,0,0,0,0 S 0 24 0") // South's row is empty
	if err != nil {
		t.Fatal(err)
	}
	g := board.NewGame(start)
	if err := g.Play(board.Pass); err != nil {
		t.Fatal(err)
	}
	p := g.Position()
	if err := g.Play(p.LegalMoves()[0]); err != nil {
		t.Fatal(err)
	}
	text := RecordGame(g, "a", "b", "none", "none", nil).PGN()
	if !strings.Contains(text, "\n1. Z0 {") || strings.Contains(text, "pass") {
		t.Fatalf("the pass is not written Z0:\n%s", text)
	}
	for _, form := range []string{"Z0", "--"} {
		recs, err := ReadRecords([]byte(strings.Replace(text, "1. Z0 {", "1. "+form+" {", 1)))
		if err != nil {
			t.Fatalf("%s: %v", form, err)
		}
		if len(recs) != 1 || len(recs[0].Moves) != 2 || recs[0].Moves[0].Move != "pass" {
			t.Fatalf("%s read back as %+v", form, recs)
		}
		back, err := recs[0].Replay()
		if err != nil || back.Ply() != 2 || back.Moves()[0] != board.Pass {
			t.Errorf("%s: replayed %v, %v", form, back.Moves(), err)
		}
	}
}

// TestPGNPassInVariation checks that a pass in a side line is written
// "Z0" inside its variation too, and read back as a pass.
func TestPGNPassInVariation(t *testing.T) {
	g := GameRecord{Variant: board.NameHoyito3, Result: "*", Moves: []MoveRecord{
		{Move: "a1", Lines: [][]string{{"b1", "pass", "c2"}}},
		{Move: "pass"},
	}}
	text := g.PGN()
	if !strings.Contains(text, "(b1 Z0 c2)") || !strings.Contains(text, ") Z0 {") || strings.Contains(text, "pass") {
		t.Fatalf("the passes are not written Z0:\n%s", text)
	}
	recs, err := ReadRecords([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || len(recs[0].Moves) != 2 || recs[0].Moves[1].Move != "pass" ||
		len(recs[0].Moves[0].Lines) != 1 || strings.Join(recs[0].Moves[0].Lines[0], " ") != "b1 pass c2" {
		t.Fatalf("read back as %+v", recs)
	}
}
