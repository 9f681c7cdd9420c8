package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
	"github.com/sower-engine/sower/search/dfpn"
)

// writeProof writes the certificate of winner's proven win from the
// game's position to path, reading the winner's moves from the solver's
// table (and proving again any position the table has lost).
func (c *cli) writeProof(ctx context.Context, s *dfpn.Solver, game *board.Game, winner board.Side, path string) error {
	oracle := func(p *board.Position) (board.Move, bool) {
		m, _, ok := s.WinningMove(ctx, p)
		return m, ok
	}
	return c.writeCertificate(ctx, game, winner, oracle, path)
}

// writeCertificate writes the certificate of winner's win from the
// game's position to path, the winner's moves given by oracle.
func (c *cli) writeCertificate(ctx context.Context, game *board.Game, winner board.Side, oracle cert.Oracle, path string) error {
	st, err := cert.WriteFile(ctx, path, game.Position(), winner, oracle, cert.Options{History: game.History(), Progress: verifyProgress(c.stderr, "solve")})
	if errors.Is(err, context.Canceled) {
		return interruptedf("while writing %s: no certificate written", path)
	}
	if err != nil {
		return fmt.Errorf("--proof %s: %w", path, err)
	}
	fmt.Fprintf(c.stdout, "proof written to %s: %d positions of %s listed, %d of %s reached, longest line %s\n",
		path, st.Listed, winner, st.LoserReached, winner.Other(), plies(st.Longest))
	return nil
}
