package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// solveDfpn proves a Katro position with proof-number search: the side to
// move's win, then the opponent's; progress on stderr every few seconds.
func (c *cli) solveDfpn(game *board.Game, o solveFlags) error {
	if o.usesCampaign() {
		return c.solveCampaign(game, o)
	}
	p := game.Position()
	if o.each {
		if err := checkEach(game); err != nil {
			return err
		}
	}
	var run *splitRun
	var err error
	if o.split != "" {
		if run, err = c.openSplit(game, o); err != nil {
			return err
		}
		if o.brk.on() {
			return c.solveOnBroker(game, run, o)
		}
	}
	cfg := o.dfpn
	cfg.Every = 5 * time.Second
	s, err := dfpn.New(cfg)
	if err != nil {
		return err
	}
	if o.resume != "" {
		if err := c.resumeTable(s, o.resume, p.Variant()); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	threads := ""
	if o.threads > 1 {
		threads = fmt.Sprintf(", %d threads", o.threads)
	}
	fmt.Fprintf(c.stdout, "solving %s (%s to move) by proof-number search, table %d MiB%s\n", p.String(), p.Side(), o.hash, threads)
	if o.each {
		return c.solveEach(ctx, s, game, o)
	}
	if run != nil {
		return c.solveSplit(ctx, s, game, run, o)
	}
	res, err := s.SolveFirst(ctx, p, game.History(), o.firstAt(&p), func(pr dfpn.Progress) { c.dfpnProgress("", pr) })
	effort := fmt.Sprintf("%d nodes, %d ms", res.Nodes, res.Time.Milliseconds())
	if o.save != "" && (err == nil || errors.Is(err, context.Canceled)) {
		if err := c.saveTable(s, o.save); err != nil {
			return err
		}
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintf(c.stdout, "interrupted: not solved, %s\n", effort)
		if o.save != "" {
			return interruptedf("after %d nodes: the table is saved to %s (--resume %s goes on)", res.Nodes, o.save, o.save)
		}
		return interruptedf("after %d nodes: nothing proven", res.Nodes)
	}
	if err != nil {
		return err
	}
	switch res.Outcome {
	case dfpn.Win, dfpn.Loss:
		fmt.Fprintf(c.stdout, "pv %s\n", board.FormatMoves(s.Line(p, res.Winner)))
		what := "a win"
		if res.Outcome == dfpn.Loss {
			what = "a loss"
		}
		fmt.Fprintf(c.stdout, "solved: %s for the side to move (%s wins in at most %d plies), %s\n", what, res.Winner, res.Plies, effort)
		if o.proof != "" {
			return c.writeProof(ctx, s, game, res.Winner, o.proof)
		}
	case dfpn.Draw:
		fmt.Fprintf(c.stdout, "solved: a draw (neither side can force a win), %s\n", effort)
		if o.proof != "" {
			fmt.Fprintf(c.stderr, "sower: --proof: no certificate for a draw (certificates prove wins)\n")
		}
	default:
		fmt.Fprintf(c.stdout, "not solved: the disproofs rest on the game's history or the depth bound, %s\n", effort)
	}
	return nil
}

// dfpnProgress writes a proof search's progress report as a line on
// stderr, after prefix (the move whose position is searched, for --each).
func (c *cli) dfpnProgress(prefix string, pr dfpn.Progress) {
	searching := ""
	if pr.Move != board.NoMove {
		searching = fmt.Sprintf(", searching %s (pn %s dn %s)", pr.Move, pnString(pr.MovePN), pnString(pr.MoveDN))
	}
	if pr.Ply > 1 {
		more := ""
		if pr.Ply > len(pr.Line) {
			more = " …"
		}
		searching += fmt.Sprintf(" at ply %d of %s%s", pr.Ply, board.FormatMoves(pr.Line), more)
	}
	fmt.Fprintf(c.stderr, "solve: %s%s wins? %d nodes, %.0f nodes/s, root pn %s dn %s%s, table %.1f%% full, %s\n",
		prefix, pr.Attacker, pr.Nodes, pr.NPS(), pnString(pr.PN), pnString(pr.DN), searching, 100*pr.Fill, pr.Time.Round(time.Second))
}

// pnString writes a proof or disproof number: "inf" for a final one.
func pnString(n uint32) string {
	if n >= dfpn.Infinity {
		return "inf"
	}
	return fmt.Sprint(n)
}
