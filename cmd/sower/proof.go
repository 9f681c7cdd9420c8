package main

import (
	"context"
	"fmt"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// writeProof writes the certificate of winner's proven win.
func (c *cli) writeProof(ctx context.Context, s *dfpn.Solver, game *board.Game, winner board.Side, path string) error {
	return fmt.Errorf("--proof: not yet")
}
