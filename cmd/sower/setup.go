package main

import (
	"github.com/spf13/pflag"

	"github.com/sower-engine/sower/board"
)

// gameFlags are the flags that choose a game, its rules and a position.
type gameFlags struct {
	game, fen, moves      string
	captureSide, lastFour string
	repetition            string
	limit                 int
	fs                    *pflag.FlagSet // the flags' set, to tell which were given
}

// add adds the flags of the game (default katro), its rules and a position
// (--moves too if withMoves).
func (g *gameFlags) add(fs *pflag.FlagSet, withMoves bool) {
	g.addWith(fs, board.NameKatro, "game: katro, katro-6x3, katro-4x6, katro-4x4 or hoyito3", withMoves)
}

// addWith is add with --game's default and help.
func (g *gameFlags) addWith(fs *pflag.FlagSet, def, help string, withMoves bool) {
	g.addGame(fs, def, help)
	fs.StringVar(&g.fen, "fen", "", "start from this position (rule book notation) instead of the start position")
	if withMoves {
		fs.StringVar(&g.moves, "moves", "", `moves to play first, separated by spaces ("a1 f6 c1")`)
	}
	g.addHoyitoRules(fs)
	fs.IntVar(&g.limit, "no-capture-limit", board.DefaultNoCaptureLimit, "plies without a capture that end the game (0 = off)")
}

// addGame adds --game with its default and help.
func (g *gameFlags) addGame(fs *pflag.FlagSet, def, help string) {
	g.fs = fs
	fs.StringVarP(&g.game, "game", "g", def, help)
}

// addHoyitoRules adds the Hoyito III rule options; the no-capture limit is
// added by add, or by the command itself (tables build).
func (g *gameFlags) addHoyitoRules(fs *pflag.FlagSet) {
	g.limit = board.DefaultNoCaptureLimit
	fs.StringVar(&g.captureSide, "capture-side", "any", "Hoyito III CaptureSide: any or opponent")
	fs.StringVar(&g.lastFour, "last-four", "capturer", "Hoyito III LastFour: capturer, south or north")
	fs.StringVar(&g.repetition, "repetition", "threefold", "Hoyito III Repetition: threefold or off (off needs a no-capture limit)")
}

// variant builds the chosen variant with its rule options.
func (g *gameFlags) variant() (*board.Variant, error) {
	var r board.Rules
	var err error
	if r.CaptureSide, err = board.ParseCaptureSide(g.captureSide); err != nil {
		return nil, flagError("--capture-side", err)
	}
	if r.LastFour, err = board.ParseLastFour(g.lastFour); err != nil {
		return nil, flagError("--last-four", err)
	}
	if err := checkNoCaptureLimit(g.limit); err != nil {
		return nil, err
	}
	if r.Repetition, err = board.ParseRepetition(g.repetition); err != nil {
		return nil, usagef("--repetition: %v", err)
	}
	r.NoCaptureLimit = g.limit
	if err := repetitionLimit(r); err != nil {
		return nil, err
	}
	v, err := board.NewWithRules(g.game, r)
	if err != nil {
		return nil, flagError("--game", err)
	}
	if err := hoyitoOnly(g.fs, v); err != nil {
		return nil, err
	}
	return v, nil
}

// hoyitoOnly refuses the Hoyito III rule options given for a Katro game,
// which has no such rules.
func hoyitoOnly(fs *pflag.FlagSet, v *board.Variant) error {
	if fs == nil || v.Family() == board.Hoyito {
		return nil
	}
	for _, name := range []string{"capture-side", "last-four", "repetition"} {
		if fs.Changed(name) {
			return usagef("--%s: a Hoyito III option; %s is a Katro game", name, v.Name())
		}
	}
	return nil
}

// checkNoCaptureLimit refuses a --no-capture-limit below 0 or above
// board.MaxNoCaptureLimit, the largest every interface accepts.
func checkNoCaptureLimit(n int) error {
	if n < 0 || n > board.MaxNoCaptureLimit {
		return usagef("--no-capture-limit %d: want 0 (off) to %d plies", n, board.MaxNoCaptureLimit)
	}
	return nil
}

// repetitionLimit refuses --repetition off with --no-capture-limit 0,
// where nothing would end a game without captures.
func repetitionLimit(r board.Rules) error {
	if r.Repetition == board.RepetitionOff && r.NoCaptureLimit == 0 {
		return usagef("--repetition off with --no-capture-limit 0: nothing would end a game without captures; give a limit or --repetition threefold")
	}
	return nil
}

// position returns the start or --fen position as it is written: a
// Hoyito III position at the no-capture limit keeps its seeds, which a
// game (build) would award to the players as the game's end.
func (g *gameFlags) position() (board.Position, error) {
	v, err := g.variant()
	if err != nil {
		return board.Position{}, err
	}
	if g.fen == "" {
		return v.Start(), nil
	}
	p, err := v.ParsePosition(g.fen)
	if err != nil {
		return board.Position{}, usagef("--fen: %v", err)
	}
	return p, nil
}

// build returns the game: the start or --fen position, with --moves played.
func (g *gameFlags) build() (*board.Game, error) {
	p, err := g.position()
	if err != nil {
		return nil, err
	}
	v := p.Variant()
	game := board.NewGame(p)
	ms, err := v.ParseMoves(g.moves)
	if err != nil {
		return nil, usagef("--moves: %v", err)
	}
	if err := game.PlayAll(ms); err != nil {
		return nil, usagef("--moves: %v", err)
	}
	return game, nil
}
