package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
)

// verifyJoined reads the certificates proofs as one (cert.Pieces) and
// walks their proof from the game's position, as a certificate's writer
// does: into the file join when it is not empty, else nowhere. The walk
// refuses, naming the position, what Verify would refuse. The written file
// is then checked by verify itself, so that its verdict is the checker's.
func (c *cli) verifyJoined(ctx context.Context, game *board.Game, proofs []string, join string) error {
	root := game.Position()
	pieces, err := cert.NewPieces(root.Variant())
	if err != nil {
		return usagef("--game %s: %v", root.Variant().Name(), err)
	}
	for _, proof := range proofs {
		if err := readPiece(ctx, pieces, proof); err != nil {
			return err
		}
	}
	winner := pieces.Winner(&root)
	opts := cert.Options{History: game.History(), Progress: verifyProgress(c.stderr, "verify")}
	var st cert.Stats
	if join != "" {
		st, err = cert.WriteFile(ctx, join, root, winner, pieces.Oracle(), opts)
	} else {
		st, err = cert.Write(ctx, io.Discard, root, winner, pieces.Oracle(), opts)
	}
	switch {
	case errors.Is(err, context.Canceled):
		return interruptedf("while joining %d certificates: the proof was not walked to the end", len(proofs))
	case err != nil:
		fmt.Fprintf(c.stdout, "proof refused: %v\n", err)
		return errors.New("the proof does not hold")
	}
	joined := fmt.Sprintf("%d certificates, %d position lines, %d overridden by an earlier certificate", len(proofs), pieces.Lines, pieces.Overridden)
	if join == "" {
		fmt.Fprintf(c.stdout, "proof holds: %s wins %s from %s; %s; %s\n", st.Winner, root.Variant().Name(), root.String(), joined, verifySummary(st))
		return nil
	}
	fmt.Fprintf(c.stdout, "joined %s into %s: %d positions of %s listed, %d of %s reached\n", joined, join, st.Listed, st.Winner, st.LoserReached, st.Winner.Other())
	return nil
}

// readPiece adds the certificate proof to pieces.
func readPiece(ctx context.Context, pieces *cert.Pieces, proof string) error {
	f, err := os.Open(proof)
	if err != nil {
		return flagError("--proof", err)
	}
	defer f.Close()
	switch err := pieces.Read(ctx, f); {
	case errors.Is(err, context.Canceled):
		return interruptedf("while reading %s", proof)
	case err != nil:
		return usagef("--proof %s: %v", proof, err)
	}
	return nil
}
