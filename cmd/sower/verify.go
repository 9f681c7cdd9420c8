package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
)

// verifyProgressEvery is the time between progress lines of a long check.
const verifyProgressEvery = 5 * time.Second

// verify checks a proof certificate (docs/proofs.md): exit status 0 when
// the proof holds, 1 when it does not, 2 when the certificate cannot be
// read as one for the position and game given. Several --proof are
// checked as one proof, and --join writes them as one certificate
// (verifyJoined).
func (c *cli) verify(args []string) error {
	var g gameFlags
	var proofs []string
	var join string
	fs := c.flags("verify", `--proof FILE [--proof FILE …] [--join OUT] [--game G] [--fen F] [--moves "…"] [--no-capture-limit N]`)
	g.add(fs, true)
	fs.StringArrayVar(&proofs, "proof", nil, "the certificate to check (v2, or v1 text, plain or gzipped); given several times, the certificates are checked as one proof (where two list a position with different moves, the first given is taken)")
	fs.StringVar(&join, "join", "", "write the proof of the --proof certificates as one certificate to FILE (v1 text when FILE ends in .txt or .txt.gz, else v2): the positions it reaches, in the writer's order; then check FILE. With one --proof it converts")
	if err := parse(fs, args); err != nil {
		return err
	}
	if len(proofs) == 0 {
		return usagef("--proof is required")
	}
	if err := g.fromHeader(fs, proofs); err != nil {
		return err
	}
	game, err := g.build()
	if err != nil {
		return err
	}
	root := game.Position()
	if root.Variant().Family() != board.Katro {
		return usagef("--game %s: proof certificates are for Katro games", root.Variant().Name())
	}
	if join != "" {
		if err := checkOutput("--join", join); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if len(proofs) > 1 || join != "" {
		if err := c.verifyJoined(ctx, game, proofs, join); err != nil || join == "" {
			return err
		}
		proofs = []string{join}
	}
	return c.verifyOne(ctx, game, proofs[0])
}

// verifyOne checks the certificate proof from the game's position.
func (c *cli) verifyOne(ctx context.Context, game *board.Game, proof string) error {
	root := game.Position()
	f, err := os.Open(proof)
	if err != nil {
		return flagError("--proof", err)
	}
	defer f.Close()
	st, err := cert.Verify(ctx, f, root, cert.Options{History: game.History(), Progress: verifyProgress(c.stderr, "verify")})
	var fe *cert.FormatError
	switch {
	case errors.Is(err, context.Canceled):
		return interruptedf("while checking %s: the proof was not checked to the end", proof)
	case errors.As(err, &fe):
		return usagef("--proof %s: %v", proof, err)
	case err != nil:
		fmt.Fprintf(c.stdout, "proof refused: %v\n", err)
		return errors.New("the proof does not hold")
	}
	fmt.Fprintf(c.stdout, "proof holds: %s wins %s from %s; %s\n", st.Winner, root.Variant().Name(), root.String(), verifySummary(st))
	return nil
}

// verifySummary words the statistics of a proof that holds.
func verifySummary(st cert.Stats) string {
	s := fmt.Sprintf("%d positions listed, %d reached (%d with %s to move, %d with %s)",
		st.Listed, st.WinnerReached+st.LoserReached, st.WinnerReached, st.Winner, st.LoserReached, st.Winner.Other())
	if st.Duplicates > 0 {
		s += fmt.Sprintf(", %d duplicate lines", st.Duplicates)
	}
	return s + fmt.Sprintf(", %d unused, longest line %s, longest capture-free run %s, %d ms",
		st.Unused, plies(st.Longest), plies(max(st.LongestRun, 0)), st.Elapsed.Milliseconds())
}

// plies words a number of plies.
func plies(n int) string {
	if n == 1 {
		return "1 ply"
	}
	return fmt.Sprintf("%d plies", n)
}

// verifyProgress returns a callback that writes a progress line to w every
// few seconds, after the command's name (cmd) as every progress line.
func verifyProgress(w io.Writer, cmd string) func(cert.Progress) {
	last := time.Duration(0)
	return func(p cert.Progress) {
		if p.Elapsed-last < verifyProgressEvery {
			return
		}
		last = p.Elapsed
		if p.Phase == "reading" {
			fmt.Fprintf(w, "%s: reading: %d lines, %s\n", cmd, p.Lines, p.Elapsed.Round(time.Second))
			return
		}
		fmt.Fprintf(w, "%s: %s: %d positions of the winner and %d of the loser reached, line of %d plies, %s\n",
			cmd, p.Phase, p.Winner, p.Loser, p.Line, p.Elapsed.Round(time.Second))
	}
}

// fromHeader fills in what verify was not told from the certificate's
// header: the game unless --game is given, and, for one certificate
// without --fen or --moves, its root (at clock 0). A --fen without a
// clock, as a certificate's root is written, is read at clock 0.
func (g *gameFlags) fromHeader(fs *pflag.FlagSet, proofs []string) error {
	if !fs.Changed("game") || (len(proofs) == 1 && !fs.Changed("fen") && !fs.Changed("moves")) {
		f, err := os.Open(proofs[0])
		if err != nil {
			return flagError("--proof", err)
		}
		h, err := cert.ReadHeader(f)
		f.Close()
		if err != nil {
			return usagef("--proof %s: %v", proofs[0], err)
		}
		if !fs.Changed("game") && h.Game != "" {
			g.game = h.Game
		}
		if len(proofs) == 1 && !fs.Changed("fen") && !fs.Changed("moves") && h.Root != "" && (h.Game == "" || h.Game == g.game) {
			g.fen = h.Root
		}
	}
	if f := strings.Fields(g.fen); len(f) == 2 {
		g.fen += " 0"
	}
	return nil
}
