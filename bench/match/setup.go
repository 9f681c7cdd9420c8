package match

import (
	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
)

// gameSetup is what a game of the match is played with, decided before
// its first move: the game (LastFour as the match decides it for this
// game), the start, the slot that plays each side and each side's limit.
type gameSetup struct {
	variant *board.Variant
	start   board.Position
	slotOf  [2]int               // by side: 0 for engine1, 1 for engine2
	lims    [2]timecontrol.Limit // by side
}

// setup returns the setup of game idx (0-based) from open with LastFour lf.
func (r *runner) setup(idx int, open board.Position, lf board.LastFour) gameSetup {
	su := gameSetup{variant: r.cfg.Variant, start: open}
	if rules := su.variant.Rules(); rules.LastFour != lf {
		rules.LastFour = lf
		var err error
		if su.variant, err = su.variant.WithRules(rules); err != nil {
			panic(err) // the rules came from a valid variant
		}
		if su.start, err = su.variant.ParsePosition(open.String()); err != nil {
			panic(err) // the same position in the same game
		}
	}
	su.slotOf[slotSide(idx, 1)] = 1
	for s := range su.lims {
		su.lims[s] = r.limit(su.slotOf[s])
	}
	return su
}

// record returns the record of game idx before its first move: the
// game, its rule options, the start, the players, their sides and limits.
func (su *gameSetup) record(idx int, cfg *Config) *record.GameRecord {
	rec := &record.GameRecord{
		Game: idx + 1, Variant: su.variant.Name(), Options: map[string]string{}, Start: su.start.String(),
		South: cfg.Engines[su.slotOf[board.South]].Name, North: cfg.Engines[su.slotOf[board.North]].Name,
		Engine1:    "south",
		SouthLimit: su.lims[board.South].String(), NorthLimit: su.lims[board.North].String(),
		Moves: []record.MoveRecord{},
	}
	if su.slotOf[board.North] == 0 {
		rec.Engine1 = "north"
	}
	for _, o := range record.GameOptions(su.variant)[1:] {
		rec.Options[o.Name] = o.Value
	}
	return rec
}
