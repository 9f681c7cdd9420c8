package frontier

import (
	"context"
	"fmt"

	"github.com/sower-engine/sower/bench/selfplay"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search"
)

// GenerateConfig describes self-play lines: the games of sower datagen
// with the same settings.
type GenerateConfig struct {
	Variant     *board.Variant
	Games       int    // games numbered 0 … Games-1, named g0, g1, …
	Nodes       uint64 // nodes searched per move
	RandomPlies int    // random plies from the start before the engines play
	Seed        uint64 // seed of the random plies
	HashMiB     int    // each engine's table
}

// Generate plays cfg's games one at a time and returns them as lines, in
// the order of their numbers; the same settings give the same lines. A
// game that repeats an earlier one move for move (the same opening, and
// the engines play alike) is left out: it would measure nothing new.
func Generate(ctx context.Context, cfg GenerateConfig) ([]Line, error) {
	if cfg.Nodes == 0 {
		return nil, fmt.Errorf("frontier: self-play lines need a node count per move")
	}
	var lines []Line
	seen := map[string]bool{}
	dc := selfplay.DatagenConfig{
		Variant: cfg.Variant, Games: cfg.Games, Limits: search.Limits{Nodes: cfg.Nodes},
		Engine: selfplay.DefaultEngine(max(cfg.HashMiB, 1)), RandomPlies: cfg.RandomPlies, Seed: cfg.Seed,
		Concurrency: 1,
		Each: func(gd selfplay.GameData) error {
			game := gd.Start.String() + "\t" + board.FormatMoves(gd.Moves)
			if !seen[game] {
				seen[game] = true
				lines = append(lines, Line{Name: fmt.Sprintf("g%d", gd.Game), Start: gd.Start, Moves: gd.Moves})
			}
			return nil
		},
	}
	if err := selfplay.Datagen(ctx, dc); err != nil {
		return nil, err
	}
	return lines, nil
}
