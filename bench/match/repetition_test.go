package match

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client/clienttest"
)

// TestRepetitionMatch plays a game that cycles without a capture (both
// fake engines play the first legal move) under both settings of the
// Repetition option: the arbiter ends it by repetition after 25 plies
// under threefold, and under off lets it run to the no-capture limit. The
// records and PGN tags carry the option, a record (and its PGN) replays
// under it, and the engines get it (after the no-capture limit when it is
// off).
func TestRepetitionMatch(t *testing.T) {
	t.Parallel()
	bin := clienttest.BuildFake(t)
	const fen = "1,1,1,3,0,2/0,0,0,0,0,0 S 20 20 0"
	const limit = 60
	for _, c := range []struct {
		rep    board.Repetition
		reason string
		plies  int
		sent   []string // the rule options' setoption lines, in order
	}{
		{board.RepetitionThreefold, "repetition", 25, []string{"Repetition value threefold", "NoCaptureLimit value 60"}},
		{board.RepetitionOff, "no-capture limit", limit, []string{"NoCaptureLimit value 60", "Repetition value off"}},
	} {
		t.Run(c.rep.String(), func(t *testing.T) {
			r := board.DefaultRules()
			r.Repetition, r.NoCaptureLimit = c.rep, limit
			v, err := board.NewWithRules(board.NameHoyito3, r)
			if err != nil {
				t.Fatal(err)
			}
			open, err := v.ParsePosition(fen)
			if err != nil {
				t.Fatal(err)
			}
			trace := filepath.Join(t.TempDir(), "trace")
			cfg := Config{
				Variant: v, Games: 2, Openings: []board.Position{open},
				Engines: [2]EngineSpec{fake(bin, "a", timecontrol.Limit{Depth: 1}, "-trace", trace), fake(bin, "b", timecontrol.Limit{Depth: 1})},
			}
			_, recs, _ := run(t, cfg) // replays every record under its options
			for _, rec := range recs {
				if got := rec.Options["Repetition"]; got != c.rep.String() {
					t.Errorf("game %d: Repetition %q recorded, want %q", rec.Game, got, c.rep)
				}
				if rec.Termination != record.Normal || rec.Reason != c.reason || len(rec.Moves) != c.plies {
					t.Errorf("game %d: %s (%s) after %d plies, want %s after %d", rec.Game, rec.Termination, rec.Reason, len(rec.Moves), c.reason, c.plies)
				}
				if tag := `[Repetition "` + c.rep.String() + `"]`; !strings.Contains(rec.PGN(), tag) {
					t.Errorf("game %d: no %s in the PGN:\n%s", rec.Game, tag, rec.PGN())
				}
				// The PGN reads back with the option, and replays under it.
				back, err := record.ReadRecords([]byte(rec.PGN()))
				if err != nil || len(back) != 1 {
					t.Fatalf("game %d: reading the PGN: %d records, %v", rec.Game, len(back), err)
				}
				if got := back[0].Options["Repetition"]; got != c.rep.String() {
					t.Errorf("game %d: Repetition %q read from the PGN", rec.Game, got)
				}
				g, err := back[0].Replay()
				if err != nil || g.Status().Reason.String() != c.reason {
					t.Errorf("game %d: the PGN replays to %+v, %v; want %s", rec.Game, g.Status(), err, c.reason)
				}
			}
			b, err := os.ReadFile(trace)
			if err != nil {
				t.Fatal(err)
			}
			var sent []string
			for _, l := range strings.Split(string(b), "\n") {
				if o, ok := strings.CutPrefix(l, "setoption name "); ok && (strings.HasPrefix(o, "Repetition") || strings.HasPrefix(o, "NoCaptureLimit")) {
					sent = append(sent, o)
				}
			}
			if !slices.Equal(sent, c.sent) {
				t.Errorf("sent %q, want %q", sent, c.sent)
			}
		})
	}
}

// TestReplayRepetition: a record without the Repetition option (an older
// record) replays under threefold, one with off under off, and one with a
// value that is neither is refused.
func TestReplayRepetition(t *testing.T) {
	const fen = "1,1,1,3,0,2/0,0,0,0,0,0 S 20 20 0"
	for _, c := range []struct {
		opts map[string]string
		over bool   // the replay ends by repetition
		err  string // the replay's error, if any
	}{
		{map[string]string{"NoCaptureLimit": "200"}, true, ""},
		{map[string]string{"Repetition": "threefold"}, true, ""},
		{map[string]string{"Repetition": "off", "NoCaptureLimit": "200"}, false, ""},
		{map[string]string{"Repetition": "twice"}, false, `options: unknown Repetition "twice"`},
		{map[string]string{"Repetition": "off", "NoCaptureLimit": "0"}, false, "Repetition off"},
	} {
		rec := record.GameRecord{Game: 1, Variant: board.NameHoyito3, Options: c.opts, Start: fen}
		v := variant(t, board.NameHoyito3)
		p, err := v.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		g := board.NewGame(p)
		for range 25 { // the third occurrence
			pos := g.Position()
			if err := g.Play(pos.LegalMoves()[0]); err != nil {
				t.Fatal(err)
			}
		}
		for _, m := range g.Moves() {
			rec.Moves = append(rec.Moves, record.MoveRecord{Move: m.String()})
		}
		got, err := rec.Replay()
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: error %v, want one with %q", c.opts, err, c.err)
			}
		case err != nil:
			t.Errorf("%v: %v", c.opts, err)
		case (got.Status().Reason == board.ReasonRepeat) != c.over:
			t.Errorf("%v: replay status %+v, want a repetition: %v", c.opts, got.Status(), c.over)
		}
	}
}
