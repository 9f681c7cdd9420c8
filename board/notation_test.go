package board

import (
	"strings"
	"testing"
)

// Rows of the start positions, for building bad positions from good ones.
const (
	katroStart   = "2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0"
	hoyito3Start = "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 0"
)

func variantFor(t *testing.T, name string) *Variant {
	t.Helper()
	v, err := New(name)
	if err != nil {
		t.Fatalf("New(%q): %v", name, err)
	}
	return v
}

// TestParsePositionErrors checks that every invalid position of rule book
// section 3 is rejected, and that the message says what is wrong. Rows are
// listed from the top, so the first listed hole of a 6x6 Katro board is a6
// and the fourth listed row is row 3.
func TestParsePositionErrors(t *testing.T) {
	cases := []struct {
		game string
		pos  string
		want []string // substrings of the error
	}{
		// Katro has three fields (<rows> <side> <clock>); two or four is wrong.
		{NameKatro, "2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S",
			[]string{"position has 2 fields, want 3"}},
		{NameKatro, katroStart + " 0", []string{"position has 4 fields, want 3"}},
		{NameKatro, "", []string{"position has 0 fields, want 3"}},
		// Hoyito III has five fields; the Katro layout is three.
		{NameHoyito3, "4,4,4,4,4,4/4,4,4,4,4,4 S 0", []string{"position has 3 fields, want 5"}},
		// Five rows on a six-row board.
		{NameKatro, "2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0",
			[]string{"board has 5 rows, want 6"}},
		// Three rows on Hoyito's two.
		{NameHoyito3, "4,4,4,4,4,4/4,4,4,4,4,4/0,0,0,0,0,0 S 0 0 0", []string{"board has 3 rows, want 2"}},
		// The fourth listed row is row 3; it has five holes.
		{NameKatro, "2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0",
			[]string{"row 3 has 5 holes, want 6"}},
		// The first listed row is row 4 on katro-4x4; seven holes there.
		{NameKatro4x4, "2,2,2,2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 0", []string{"row 4 has 7 holes, want 4"}},
		// One hole of the start holds 0 instead of 2: 70 seeds of 72.
		{NameKatro, "2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,0,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0",
			[]string{"seeds add up to 70, want 72"}},
		// 74 seeds: one hole holds 4.
		{NameKatro, "4,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0",
			[]string{"seeds add up to 74, want 72"}},
		// Counts must be non-negative decimal integers; the message names
		// the hole (a6 is the first listed, b6 the second).
		{NameKatro, "x,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0",
			[]string{"a6", `"x" is not a non-negative integer`}},
		{NameKatro, "2,-1,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0",
			[]string{"b6", `"-1" is not a non-negative integer`}},
		{NameKatro, "+2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0",
			[]string{"a6", `"+2" is not a non-negative integer`}},
		{NameKatro, "2,,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0",
			[]string{"b6", "empty count"}},
		{NameKatro, "2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2.5 S 0",
			[]string{"f1", `"2.5" is not a non-negative integer`}},
		// A hole cannot hold more than the game's 72 seeds.
		{NameKatro, "73,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0",
			[]string{"a6", "73 is too large (at most 72)"}},
		{NameKatro, "99999999999999999999999,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0",
			[]string{"a6", "is too large (at most 72)"}},
		{NameHoyito3, "49,4,4,4,4,4/4,4,4,4,4,4 S 0 0 0", []string{"a2", "49 is too large (at most 48)"}},
		// The side is S or N.
		{NameKatro, strings.Replace(katroStart, " S ", " X ", 1), []string{`side "X": want S or N`}},
		{NameKatro, strings.Replace(katroStart, " S ", " South ", 1), []string{`side "South": want S or N`}},
		// The clock is a non-negative integer.
		{NameKatro, strings.Replace(katroStart, " S 0", " S -1", 1), []string{"clock", `"-1" is not a non-negative integer`}},
		{NameKatro, strings.Replace(katroStart, " S 0", " S x", 1), []string{"clock", `"x" is not a non-negative integer`}},
		{NameHoyito3, "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0 1.5", []string{"clock", `"1.5" is not a non-negative integer`}},
		// Capture totals are counts too.
		{NameHoyito3, "4,4,4,4,4,4/4,4,4,4,4,4 S x 0 0", []string{"South's captures", `"x" is not a non-negative integer`}},
		{NameHoyito3, "4,4,4,4,4,4/4,4,4,4,4,4 S 0 -4 0", []string{"North's captures", `"-4" is not a non-negative integer`}},
		{NameHoyito3, "4,4,4,4,4,4/4,4,4,4,4,4 S 49 0 0", []string{"South's captures", "49 is too large (at most 48)"}},
		// Hoyito: board plus captures must be 48: 44 + 0 + 0.
		{NameHoyito3, "4,4,4,4,4,4/4,4,4,4,4,0 S 0 0 0",
			[]string{"seeds add up to 44 (board 44, captured 0 and 0), want 48"}},
		// Hoyito: 44 + 4 + 4 = 52.
		{NameHoyito3, "4,4,4,4,4,4/4,4,4,4,4,0 S 4 4 0", []string{"seeds add up to 52", "want 48"}},
		// Hoyito: a game in progress holds more than 4 seeds: 4 + 20 + 24
		// and 1 + 23 + 24 add up to 48 but the board holds 1-4 seeds.
		{NameHoyito3, "0,0,0,0,0,0/4,0,0,0,0,0 S 20 24 0",
			[]string{"board holds 4 seeds", "more than 4"}},
		{NameHoyito3, "0,0,0,0,0,0/0,0,2,0,1,0 N 21 24 0",
			[]string{"board holds 3 seeds", "more than 4"}},
		{NameHoyito3, "1,0,0,0,0,0/0,0,0,0,0,0 N 24 23 0",
			[]string{"board holds 1 seed:", "more than 4"}},
		// Hoyito: while seeds are on the board captures are multiples of 4
		// (46 + 2 + 0 and 46 + 0 + 2 add up to 48).
		{NameHoyito3, "4,4,4,4,4,4/4,4,4,4,4,2 S 2 0 0", []string{"South's captures 2 are not a multiple of 4"}},
		{NameHoyito3, "4,4,4,4,4,4/4,4,4,4,4,2 N 0 2 0", []string{"North's captures 2 are not a multiple of 4"}},
		// An empty Hoyito board whose totals do not add up to 48.
		{NameHoyito3, "0,0,0,0,0,0/0,0,0,0,0,0 N 21 26 13", []string{"seeds add up to 47"}},
		// Katro: North, not to move, has no seeds (all 32 are South's).
		{NameKatro4x4, "0,0,0,0/0,0,0,0/8,8,0,0/8,0,0,8 S 0",
			[]string{"North, not to move, has no seeds"}},
		// Katro 6x6: South, not to move, has no seeds.
		{NameKatro, "2,2,2,2,2,2/4,4,4,4,4,4/6,6,6,6,6,6/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0 N 0",
			[]string{"South, not to move, has no seeds"}},
	}
	for _, tc := range cases {
		v := variantFor(t, tc.game)
		_, err := v.ParsePosition(tc.pos)
		if err == nil {
			t.Errorf("%s %q: no error, want %q", tc.game, tc.pos, tc.want)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s %q:\n error %q\n does not contain %q", tc.game, tc.pos, err, w)
			}
		}
	}
}

// TestParsePositionExactMessages pins the whole message of a few errors.
func TestParsePositionExactMessages(t *testing.T) {
	cases := []struct{ game, pos, want string }{
		{NameKatro, "2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0",
			"row 3 has 5 holes, want 6"},
		{NameKatro, "2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,0,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0",
			"seeds add up to 70, want 72"},
		{NameKatro, "2,2 S", "position has 2 fields, want 3: <rows> <side> <clock>"},
		{NameHoyito3, "4,4,4,4,4,4/4,4,4,4,4,4 S 0",
			"position has 3 fields, want 5: <rows> <side> <south-captured> <north-captured> <clock>"},
		{NameKatro4x4, "2,2,2,2/2,2,2,2/2,2,2,2 S 0", "board has 3 rows, want 4"},
	}
	for _, tc := range cases {
		v := variantFor(t, tc.game)
		_, err := v.ParsePosition(tc.pos)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s %q: error %v, want %q", tc.game, tc.pos, err, tc.want)
		}
	}
}

// TestParsePositionValid checks positions the rule book accepts, with the
// status they stand for.
func TestParsePositionValid(t *testing.T) {
	cases := []struct {
		game   string
		pos    string
		canon  string // String() of the parsed position
		status Status // Status(nil)
	}{
		// Lower-case side and extra white space (spaces and tabs) between
		// fields are accepted (section 3); the canonical form has single
		// spaces and an upper-case side.
		{NameKatro, "  " + strings.Replace(katroStart, " S 0", " \t s   0\t", 1), katroStart, Status{}},
		{NameKatro4x4, "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2\tn\t7", "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 N 7", Status{}},
		{NameHoyito3, "4,4,4,4,4,4/4,4,4,4,4,4   s  0 \t 0   0 ", hoyito3Start, Status{}},
		// Leading zeros are still decimal counts.
		{NameKatro4x4, "02,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 00", "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 0", Status{}},
		// An empty Hoyito board is a finished game: its totals need only
		// add up to 48 (21 + 27), not be multiples of 4. North has more.
		{NameHoyito3, "0,0,0,0,0,0/0,0,0,0,0,0 N 21 27 13", "0,0,0,0,0,0/0,0,0,0,0,0 N 21 27 13",
			Status{Result: NorthWins, Reason: ReasonFinished, Seeds: [2]int{21, 27}}},
		// Equal totals: a draw.
		{NameHoyito3, "0,0,0,0,0,0/0,0,0,0,0,0 S 24 24 0", "0,0,0,0,0,0/0,0,0,0,0,0 S 24 24 0",
			Status{Result: Draw, Reason: ReasonFinished, Seeds: [2]int{24, 24}}},
		// More than 4 on the board with captures that are multiples of 4:
		// 8 + 20 + 20.
		{NameHoyito3, "1,2,3,0,0,2/0,0,0,0,0,0 S 20 20 0", "1,2,3,0,0,2/0,0,0,0,0,0 S 20 20 0", Status{}},
		// Katro: the side to move may have no seeds; it has no legal move
		// and has lost (rule 1.7): North to move, all 32 seeds South's.
		{NameKatro4x4, "0,0,0,0/0,0,0,0/8,8,0,0/8,0,0,8 N 3", "0,0,0,0/0,0,0,0/8,8,0,0/8,0,0,8 N 3",
			Status{Result: SouthWins, Reason: ReasonNoMove}},
		{NameKatro, "2,2,2,2,2,2/4,4,4,4,4,4/6,6,6,6,6,6/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0 S 0",
			"2,2,2,2,2,2/4,4,4,4,4,4/6,6,6,6,6,6/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0 S 0",
			Status{Result: NorthWins, Reason: ReasonNoMove}},
	}
	for _, tc := range cases {
		v := variantFor(t, tc.game)
		p, err := v.ParsePosition(tc.pos)
		if err != nil {
			t.Errorf("%s %q: %v", tc.game, tc.pos, err)
			continue
		}
		if err := p.Check(); err != nil {
			t.Errorf("%s %q: Check: %v", tc.game, tc.pos, err)
		}
		if got := p.String(); got != tc.canon {
			t.Errorf("%s %q: String %q, want %q", tc.game, tc.pos, got, tc.canon)
		}
		if got := p.Status(nil); got != tc.status {
			t.Errorf("%s %q: Status %+v, want %+v", tc.game, tc.pos, got, tc.status)
		}
		if p.AfterPass() {
			t.Errorf("%s %q: a parsed position is not after a pass", tc.game, tc.pos)
		}
	}
}

// TestParsePositionFinishedHoyito: a finished game read from notation has
// no moves, and CheckMove says the game is over.
func TestParsePositionFinishedHoyito(t *testing.T) {
	v := variantFor(t, NameHoyito3)
	p, err := v.ParsePosition("0,0,0,0,0,0/0,0,0,0,0,0 N 21 27 13")
	if err != nil {
		t.Fatal(err)
	}
	if ms := p.LegalMoves(); len(ms) != 0 {
		t.Errorf("legal moves %v in a finished game", ms)
	}
	if p.HasLegalMove() {
		t.Error("HasLegalMove in a finished game")
	}
	for _, m := range []Move{Pass, HoleMove(1, 0)} {
		if err := p.CheckMove(m); err == nil || !strings.Contains(err.Error(), "the game is over") {
			t.Errorf("CheckMove(%s) = %v, want the game is over", m, err)
		}
	}
	if got := NewGame(p).Status(); got.Reason != ReasonFinished || got.Result != NorthWins {
		t.Errorf("game status %+v", got)
	}
}

// TestStringRoundTrip: String writes the notation that ParsePosition reads
// back to the same position, for every game.
func TestStringRoundTrip(t *testing.T) {
	cases := []struct{ game, pos string }{
		{NameKatro, katroStart},
		{NameKatro6x3, "2,2,2/2,2,2/2,2,2/2,2,2/2,2,2/2,2,2 S 0"},
		{NameKatro4x6, "2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0"},
		{NameKatro4x4, "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 0"},
		{NameHoyito3, hoyito3Start},
		// The worked examples of section 6.
		{NameKatro, "0,3,3,1,4,1/3,3,0,3,3,0/3,3,1,0,3,3/3,3,0,0,3,3/0,3,3,1,4,4/1,0,0,0,5,2 N 1"},
		{NameKatro4x4, "2,3,1,4/6,3,1,0/3,0,0,0/1,4,1,3 S 0"},
		{NameHoyito3, "8,1,1,1,7,7/0,8,2,7,2,0 N 0 4 0"},
		// Large counts and clocks.
		{NameKatro6x3, "0,0,0/0,0,1/0,0,0/0,0,0/0,0,0/35,0,0 N 199"},
		{NameKatro4x6, "0,0,0,0,0,1/0,0,0,0,0,0/0,0,0,0,0,0/47,0,0,0,0,0 S 2147483647"},
		{NameKatro, "72,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0 S 12"},
		{NameHoyito3, "0,0,0,0,0,0/0,0,0,0,0,0 S 48 0 5"},
		{NameHoyito3, "0,0,3,0,0,0/0,0,0,0,5,0 N 16 24 40"},
	}
	for _, tc := range cases {
		v := variantFor(t, tc.game)
		p, err := v.ParsePosition(tc.pos)
		if err != nil {
			t.Errorf("%s %q: %v", tc.game, tc.pos, err)
			continue
		}
		if err := p.Check(); err != nil {
			t.Errorf("%s %q: Check: %v", tc.game, tc.pos, err)
		}
		s := p.String()
		if s != tc.pos {
			t.Errorf("%s: String %q, want %q", tc.game, s, tc.pos)
		}
		q, err := v.ParsePosition(s)
		if err != nil {
			t.Errorf("%s %q: reparse: %v", tc.game, s, err)
			continue
		}
		if q.String() != s || q.Key() != p.Key() || q.Clock() != p.Clock() || q.Side() != p.Side() ||
			q.Captured(South) != p.Captured(South) || q.Captured(North) != p.Captured(North) {
			t.Errorf("%s %q: round trip gives %q", tc.game, s, q.String())
		}
	}
	// Start() writes the start position of section 3/5 for every game.
	starts := map[string]string{
		NameKatro:    katroStart,
		NameKatro6x3: "2,2,2/2,2,2/2,2,2/2,2,2/2,2,2/2,2,2 S 0",
		NameKatro4x6: "2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2/2,2,2,2,2,2 S 0",
		NameKatro4x4: "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 0",
		NameHoyito3:  hoyito3Start,
	}
	for _, name := range Names() {
		v := variantFor(t, name)
		p := v.Start()
		if got := p.String(); got != starts[name] {
			t.Errorf("%s start %q, want %q", name, got, starts[name])
		}
		q, err := v.ParsePosition(starts[name])
		if err != nil || q.Key() != p.Key() {
			t.Errorf("%s: parsed start differs from Start(): %v", name, err)
		}
	}
}

// TestParseMove covers section 4: hole names in either case, "pass" and
// "0000", and errors for holes off the board and for garbage.
func TestParseMove(t *testing.T) {
	cases := []struct {
		game string
		in   string
		want Move
		err  string // substring of the error, "" if valid
	}{
		{NameKatro, "c1", HoleMove(0, 2), ""},
		{NameKatro, "a1", HoleMove(0, 0), ""},
		{NameKatro, "f6", HoleMove(5, 5), ""},
		{NameKatro, "C1", HoleMove(0, 2), ""},
		{NameKatro, "F6", HoleMove(5, 5), ""},
		{NameKatro4x4, "d4", HoleMove(3, 3), ""},
		{NameKatro6x3, "c6", HoleMove(5, 2), ""},
		{NameHoyito3, "f2", HoleMove(1, 5), ""},
		{NameHoyito3, "pass", Pass, ""},
		{NameHoyito3, "PASS", Pass, ""},
		{NameHoyito3, "Pass", Pass, ""},
		{NameHoyito3, "0000", Pass, ""},
		// Pass is syntax; whether it is legal is CheckMove's business.
		{NameKatro, "pass", Pass, ""},
		// Off the board: column g of a six-column board, row 7 of six rows.
		{NameKatro, "g1", NoMove, "g1 is not on the board"},
		{NameKatro, "a7", NoMove, "a7 is not on the board"},
		{NameKatro, "G1", NoMove, "g1 is not on the board"},
		{NameKatro, "a0", NoMove, "a0 is not on the board"},
		{NameKatro, "a10", NoMove, "a10 is not on the board"},
		{NameKatro4x4, "e1", NoMove, "e1 is not on the board: katro-4x4 has columns a-d and rows 1-4"},
		{NameKatro4x4, "a5", NoMove, "a5 is not on the board"},
		{NameKatro6x3, "d1", NoMove, "d1 is not on the board"},
		{NameHoyito3, "a3", NoMove, "a3 is not on the board: hoyito3 has columns a-f and rows 1-2"},
		// Garbage.
		{NameKatro, "", NoMove, "is not a move"},
		{NameKatro, "c", NoMove, `"c" is not a move`},
		{NameKatro, "1c", NoMove, `"1c" is not a move`},
		{NameKatro, "c1x", NoMove, `"c1x" is not a move`},
		{NameKatro, "cc", NoMove, `"cc" is not a move`},
		{NameKatro, "c-1", NoMove, `"c-1" is not a move`},
		{NameKatro, "c1000", NoMove, `"c1000" is not a move`},
		{NameKatro, "passs", NoMove, `"passs" is not a move`},
		{NameKatro, "000", NoMove, `"000" is not a move`},
		{NameKatro, " c1", NoMove, "is not a move"},
	}
	for _, tc := range cases {
		v := variantFor(t, tc.game)
		m, err := v.ParseMove(tc.in)
		if tc.err == "" {
			if err != nil || m != tc.want {
				t.Errorf("%s ParseMove(%q) = %v, %v; want %v", tc.game, tc.in, m, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s ParseMove(%q) = %v, %v; want error containing %q", tc.game, tc.in, m, err, tc.err)
		}
	}
	// Every hole's name reads back to itself.
	for _, name := range Names() {
		v := variantFor(t, name)
		for _, h := range v.Holes() {
			if m, err := v.ParseMove(h.String()); err != nil || m != h {
				t.Errorf("%s: ParseMove(%q) = %v, %v", name, h, m, err)
			}
		}
	}
}

// TestParseMoves: a space-separated list; an error names the move's
// 1-based index.
func TestParseMoves(t *testing.T) {
	v := variantFor(t, NameKatro)
	ms, err := v.ParseMoves("  a1 F6\tc1   b6 ")
	if err != nil {
		t.Fatal(err)
	}
	if got := FormatMoves(ms); got != "a1 f6 c1 b6" {
		t.Errorf("ParseMoves = %q", got)
	}
	if ms, err := v.ParseMoves(""); err != nil || len(ms) != 0 {
		t.Errorf("ParseMoves(\"\") = %v, %v", ms, err)
	}
	h := variantFor(t, NameHoyito3)
	if ms, err := h.ParseMoves("a1 c2 pass 0000"); err != nil || FormatMoves(ms) != "a1 c2 pass pass" {
		t.Errorf("hoyito ParseMoves = %v, %v", ms, err)
	}
	for _, tc := range []struct{ in, want string }{
		{"a1 zz c1", `move 2: "zz" is not a move`},
		{"a1 f6 a7", "move 3: a7 is not on the board"},
		{"g1", "move 1: g1 is not on the board"},
	} {
		_, err := v.ParseMoves(tc.in)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ParseMoves(%q) error %v, want prefix %q", tc.in, err, tc.want)
		}
	}
}

// TestCheckMoveMessages: CheckMove says why a move is not legal.
func TestCheckMoveMessages(t *testing.T) {
	cases := []struct {
		game string
		pos  string
		move Move
		want string // substring; "" for a legal move
	}{
		// After the worked example's a1 f6 South to move has a1=1, b1=0:
		// b1 is in the back row (row 1) but empty.
		{NameKatro, "0,3,3,1,4,1/3,3,0,3,3,0/3,3,1,0,3,3/3,3,0,0,3,3/0,3,3,0,3,3/1,0,1,4,4,1 S 0",
			HoleMove(0, 1), "b1 is empty"},
		{NameKatro, "0,3,3,1,4,1/3,3,0,3,3,0/3,3,1,0,3,3/3,3,0,0,3,3/0,3,3,0,3,3/1,0,1,4,4,1 S 0",
			HoleMove(0, 0), ""},
		// d4 is North's hole.
		{NameKatro, katroStart, HoleMove(3, 3), "d4 is not in South's back row"},
		// c2 is South's, but row 1 holds seeds so the back row is row 1.
		{NameKatro, katroStart, HoleMove(1, 2), "c2 is not in South's back row"},
		// North's back row is row 6; a5 is in its middle row.
		{NameKatro, "2,2,2,2,2,2/2,2,2,2,2,2/2,2,0,2,2,2/3,3,0,3,3,3/0,3,3,0,3,3/1,0,1,4,4,1 N 0",
			HoleMove(4, 0), "a5 is not in North's back row"},
		// When South's row 1 is empty the back row is row 2: a1 is
		// not in it (and empty), c2 is; c2's 4 seeds go b2 a2 a1 b1 and
		// end in the empty b1.
		{NameKatro4x4, "2,2,2,2/2,2,2,2/4,4,4,4/0,0,0,0 S 0", HoleMove(0, 0), "a1 is not in South's back row (row 2)"},
		{NameKatro4x4, "2,2,2,2/2,2,2,2/4,4,4,4/0,0,0,0 S 0", HoleMove(1, 2), ""},
		{NameKatro4x4, "0,0,0,3/1,0,0,0/0,0,0,1/26,0,0,1 S 0", HoleMove(2, 3), "d3 is not in South's back row (row 1)"},
		// Hoyito: d2 is North's row.
		{NameHoyito3, hoyito3Start, HoleMove(1, 3), "d2 is not in South's row"},
		{NameHoyito3, "4,4,4,4,4,4/4,4,4,4,4,4 N 0 0 0", HoleMove(0, 0), "a1 is not in North's row"},
		{NameHoyito3, "6,6,1,0,6,6/2,7,1,6,1,6 N 0 0 1", HoleMove(1, 3), "d2 is empty"},
		// Passing.
		{NameKatro, katroStart, Pass, "passing is not allowed in Katro"},
		{NameKatro4x4, "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 0", Pass, "pass: passing is not allowed in Katro"},
		{NameHoyito3, hoyito3Start, Pass, "pass: South has a legal move"},
		{NameHoyito3, "1,2,3,0,0,2/0,0,0,0,0,0 S 20 20 0", Pass, ""},
		// No move, and a move off the board.
		{NameKatro, katroStart, NoMove, "no move given"},
		{NameKatro4x4, "2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S 0", HoleMove(0, 5), "f1 is not on the katro-4x4 board"},
		{NameHoyito3, hoyito3Start, HoleMove(2, 0), "a3 is not on the hoyito3 board"},
		// A Katro side to move without seeds: the game is over.
		{NameKatro4x4, "0,0,0,0/0,0,0,0/8,8,0,0/8,0,0,8 N 0", HoleMove(3, 0), "the game is over, North has no legal move"},
	}
	for _, tc := range cases {
		v := variantFor(t, tc.game)
		p, err := v.ParsePosition(tc.pos)
		if err != nil {
			t.Errorf("%s %q: %v", tc.game, tc.pos, err)
			continue
		}
		err = p.CheckMove(tc.move)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %q CheckMove(%s) = %v, want nil", tc.game, tc.pos, tc.move, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s %q CheckMove(%s) = %v, want %q", tc.game, tc.pos, tc.move, err, tc.want)
		}
		// After agrees with CheckMove and leaves p alone.
		before := p.String()
		q, aerr := p.After(tc.move)
		if (aerr == nil) != (err == nil) {
			t.Errorf("%s %q After(%s) error %v, CheckMove %v", tc.game, tc.pos, tc.move, aerr, err)
		}
		if p.String() != before {
			t.Errorf("After changed its receiver")
		}
		if aerr == nil {
			if err := q.Check(); err != nil {
				t.Errorf("%s %q after %s: Check: %v", tc.game, tc.pos, tc.move, err)
			}
		}
	}
}

// TestMoveString covers the printed forms of moves.
func TestMoveString(t *testing.T) {
	for _, tc := range []struct {
		m    Move
		want string
	}{
		{HoleMove(0, 0), "a1"}, {HoleMove(5, 5), "f6"}, {HoleMove(1, 3), "d2"},
		{Pass, "pass"}, {NoMove, "(none)"},
	} {
		if got := tc.m.String(); got != tc.want {
			t.Errorf("%d.String() = %q, want %q", tc.m, got, tc.want)
		}
	}
	if got := FormatMoves([]Move{HoleMove(0, 0), Pass, HoleMove(1, 2)}); got != "a1 pass c2" {
		t.Errorf("FormatMoves = %q", got)
	}
}
