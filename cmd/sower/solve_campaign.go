package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search"
	"github.com/sower-engine/sower/search/dfpn"
	"github.com/sower-engine/sower/search/dfpn/campaign"
)

// Defaults of a campaign (solve --proof without a table flag).
const (
	defaultCampaignHash  = 11 << 10 // MiB, when the machine has it: with the rest of the process, within 12 GiB
	campaignHeadroom     = 896      // MiB of memory limit above the table (campaignMemoryLimit)
	campaignProgressEach = 10 * time.Second
	maxOpenShown         = 4 // open pieces named in a progress line
)

// usesCampaign reports whether solve proves by a campaign: --method dfpn
// with --proof and none of the options that steer the table by hand.
func (o *solveFlags) usesCampaign() bool {
	return o.method == methodDfpn && o.proof != "" && !o.each && o.split == "" && o.save == "" && o.resume == ""
}

// campaignDefaults sets a campaign's table and threads when they were not
// given: the machine's threads, and a table of defaultCampaignHash MiB or
// half the memory available, whichever is smaller.
func (o *solveFlags) campaignDefaults() {
	if !o.fs.Changed("threads") {
		o.threads = min(runtime.GOMAXPROCS(0), dfpn.MaxThreads)
		o.dfpn.Threads = o.threads
	}
	if !o.fs.Changed("hash") {
		o.hash = defaultCampaignHash
		if avail, ok := search.AvailableMiB(); ok {
			o.hash = max(defaultDfpnHash, min(o.hash, avail/2))
		}
		o.dfpn.HashMiB = o.hash
	}
	if o.work == "" {
		o.work = o.proof + ".work"
	}
}

// campaignConfig returns the campaign's configuration that the flags
// give (its winner and progress aside). --cut-plies 0 or less is the
// Config's -1, never cut (its 0 is its default).
func (o *solveFlags) campaignConfig() campaign.Config {
	cfg := campaign.Config{Dir: o.work, Solver: o.dfpn, Step: o.step, SaveEvery: time.Duration(o.saveEvery) * time.Millisecond, CutPlies: o.cutPlies}
	if o.cutPlies <= 0 {
		cfg.CutPlies = -1
	}
	return cfg
}

// solveCampaign proves the game's position by a campaign
// (search/dfpn/campaign): unattended, in pieces, resumable from --work.
func (c *cli) solveCampaign(game *board.Game, o solveFlags) error {
	o.campaignDefaults()
	p := game.Position()
	cfg := o.campaignConfig()
	cfg.Solver.Every = campaignProgressEach
	if o.fs.Changed("first") {
		cfg.Winner = o.firstAt(&p)
	} else {
		cfg.ChooseWinner = true
	}
	cfg.Progress = c.campaignProgress()
	limit := ""
	cfg.MemoryLimit, limit = campaignMemoryLimit(o.hash)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Fprintf(c.stdout, "solving %s (%s to move) by a proof campaign, table %d MiB, %d threads, %s, work in %s\n", p.String(), p.Side(), o.hash, o.threads, limit, o.work)
	res, err := campaign.Run(ctx, game, o.proof, cfg)
	effort := fmt.Sprintf("%d nodes, %d ms", res.Nodes, res.Elapsed.Milliseconds())
	switch {
	case errors.Is(err, context.Canceled):
		return interruptedf("while proving: the campaign's table and state are saved in %s, and the same command goes on", o.work)
	case errors.Is(err, campaign.ErrRefuted):
		fmt.Fprintf(c.stdout, "not solved: %v\n", err)
		return fmt.Errorf("%v (ask the other side's win with --first, in another --work directory)", err)
	case err != nil:
		return err
	}
	what := "a win"
	if res.Winner != p.Side() {
		what = "a loss"
	}
	fmt.Fprintf(c.stdout, "solved: %s for the side to move (%s wins in at most %d plies), %s\n", what, res.Winner, res.Plies, effort)
	fmt.Fprintf(c.stdout, "proof written to %s: %d positions of %s listed, %d of %s reached, longest line %s\n",
		o.proof, res.Proof.Listed, res.Winner, res.Proof.LoserReached, res.Winner.Other(), plies(res.Proof.Longest))
	return nil
}

// campaignMemoryLimit returns a campaign's memory limit for a table of
// hash MiB (campaign.Config.MemoryLimit: the table and campaignHeadroom
// MiB, which holds the rest of the process and the writing of a piece of
// 10 million positions of the winner), or 0 when GOMEMLIMIT sets one, and
// says which. Without it, the certificates written beside a large table
// stay in memory until the runtime collects, at twice the table.
func campaignMemoryLimit(hash int) (int64, string) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0, "memory limit from GOMEMLIMIT"
	}
	limit := int64(hash+campaignHeadroom) << 20
	return limit, fmt.Sprintf("memory limit %.2f GiB", float64(limit)/(1<<30))
}

// campaignProgress returns the campaign's progress report: a line on
// stderr every campaignProgressEach at most.
func (c *cli) campaignProgress() func(campaign.Report) {
	var last time.Time
	return func(r campaign.Report) {
		if time.Since(last) < campaignProgressEach {
			return
		}
		last = time.Now()
		proven := 0
		var open []string
		for _, p := range r.Pieces {
			if p.Proven {
				proven++
			} else {
				open = append(open, p.Name())
			}
		}
		where := ""
		if r.Working != "" {
			where = ", working on " + r.Working
			if r.Step > 0 {
				where += fmt.Sprintf(" (a step of %d nodes)", r.Step)
			}
			if r.Asking != "" {
				where += ", asking " + r.Asking + " on its own"
			}
			if len(r.Search.Line) > 0 {
				where += fmt.Sprintf(" (pn %s dn %s, line %s)", pnString(r.Search.PN), pnString(r.Search.DN), board.FormatMoves(r.Search.Line))
			}
		}
		list := ""
		if len(r.Pieces) > 0 {
			list = fmt.Sprintf("; %d of %d pieces proven", proven, len(r.Pieces))
			if len(open) > 0 {
				list += ", open: " + strings.Join(open[:min(len(open), maxOpenShown)], ", ")
				if len(open) > maxOpenShown {
					list += fmt.Sprintf(" and %d more", len(open)-maxOpenShown)
				}
			}
		}
		fmt.Fprintf(c.stderr, "solve: %s wins? %d nodes, %.0f nodes/s, %s%s%s\n",
			r.Search.Attacker, r.Nodes, r.NPS, r.Elapsed.Round(time.Second), where, list)
	}
}
