package board

import "testing"

// TestEnding checks Ending on hand-made positions of both families, with
// the rule book's result and margin: a Katro player without a move loses
// even at the limit, a Hoyito III game at the limit or on a third
// occurrence gives each player their row, and Repetition off ignores the
// occurrences.
func TestEnding(t *testing.T) {
	off := DefaultRules()
	off.Repetition = RepetitionOff
	for _, c := range []struct {
		name, game, fen string
		rules           Rules
		repeated        bool
		moves           MovesKnown
		want            Status
		margin          int // for the side to move
	}{
		{"katro goes on", NameKatro4x4, "0,0,0,1/0,0,0,0/0,0,0,0/0,0,30,1 S 0", DefaultRules(), false, MovesUnknown, Status{}, 0},
		{"katro no move known", NameKatro4x4, "0,0,0,1/0,0,0,0/0,0,0,0/0,0,30,1 S 0", DefaultRules(), false, NoMoves,
			Status{Result: NorthWins, Reason: ReasonNoMove}, -1},
		{"katro repetition", NameKatro4x4, "0,0,0,1/0,0,0,0/0,0,0,0/0,0,30,1 S 0", DefaultRules(), true, MovesUnknown,
			Status{Result: Draw, Reason: ReasonRepeat}, 0},
		{"katro limit", NameKatro4x4, "0,0,0,1/0,0,0,0/0,0,0,0/0,0,30,1 S 200", DefaultRules(), false, SomeMoves,
			Status{Result: Draw, Reason: ReasonLimit}, 0},
		{"hoyito goes on", NameHoyito3, "0,0,1,2,0,1/1,0,2,0,1,0 N 40 0 0", DefaultRules(), false, MovesUnknown, Status{}, 0},
		{"hoyito limit", NameHoyito3, "0,0,1,2,0,1/1,0,2,0,1,0 N 28 12 200", DefaultRules(), false, MovesUnknown,
			Status{Result: SouthWins, Reason: ReasonLimit, Seeds: [2]int{28 + 4, 12 + 4}}, -16},
		{"hoyito repetition", NameHoyito3, "0,0,1,2,0,1/1,0,2,0,1,0 N 24 16 3", DefaultRules(), true, MovesUnknown,
			Status{Result: SouthWins, Reason: ReasonRepeat, Seeds: [2]int{24 + 4, 16 + 4}}, -8},
		{"hoyito repetition off", NameHoyito3, "0,0,1,2,0,1/1,0,2,0,1,0 N 24 16 3", off, true, MovesUnknown, Status{}, 0},
		{"hoyito finished", NameHoyito3, "0,0,0,0,0,0/0,0,0,0,0,0 S 20 28 0", DefaultRules(), false, MovesUnknown,
			Status{Result: NorthWins, Reason: ReasonFinished, Seeds: [2]int{20, 28}}, -8},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := NewWithRules(c.game, c.rules)
			if err != nil {
				t.Fatal(err)
			}
			p, err := v.ParsePosition(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			got := p.Ending(c.repeated, c.moves)
			if got != c.want || got.Margin(p.Side()) != c.margin || got.Margin(p.Side().Other()) != -c.margin {
				t.Errorf("Ending %+v margin %d, want %+v margin %d", got, got.Margin(p.Side()), c.want, c.margin)
			}
			if n := testing.AllocsPerRun(100, func() { got = p.Ending(c.repeated, c.moves) }); n != 0 {
				t.Errorf("%v allocations", n)
			}
		})
	}
}
