package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/sower-engine/sower/bench/broker"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol"
)

// proofOnBroker holds the flags of "sower solve --split FILE --broker URL".
type proofOnBroker struct {
	*brokerFlags
	id      string
	ackWait int
	tasks   int
	pieces  string
	trust   bool
}

// addProofBrokerFlags adds the flags of a proof over the broker; log
// gets the connection's events.
func addProofBrokerFlags(fs *pflag.FlagSet, log io.Writer) *proofOnBroker {
	p := &proofOnBroker{brokerFlags: addBrokerFlags(fs, "--split: search the tree's leaves on the workers of this broker", log)}
	fs.StringVar(&p.id, "run-id", "", "--broker: the proof's name on the broker (default: derived from the game, the position and the side)")
	fs.IntVar(&p.ackWait, "ack-wait", int(broker.DefaultAckWait/time.Millisecond), "--broker: milliseconds a leaf's task may go without a sign of life from its worker before another worker gets it")
	fs.IntVar(&p.tasks, "tasks", broker.DefaultProofTasks, "--broker: leaves out to the workers at once")
	fs.StringVar(&p.pieces, "pieces", "", "--broker: directory that keeps the certificate pieces of the leaves proven (default: the --split file's name with .pieces)")
	fs.BoolVar(&p.trust, "trust-disproofs", false, "--broker: enter a leaf's disproof as one worker reports it, without waiting for another worker's")
	return p
}

// on reports whether the proof's leaves go to a broker.
func (p *proofOnBroker) on() bool { return p != nil && p.url != "" }

// check refuses what a proof over the broker cannot do.
func (p *proofOnBroker) check(o *solveFlags) error {
	fs := o.fs
	if p == nil {
		return nil
	}
	if p.url == "" {
		for _, name := range []string{"run-id", "ack-wait", "tasks", "pieces", "trust-disproofs", "broker-creds", "broker-ca", "broker-cert", "broker-key"} {
			if fs.Changed(name) {
				return usagef("--%s needs --broker", name)
			}
		}
		return nil
	}
	switch {
	case o.split == "":
		return usagef("--broker: give --split FILE, the proof's tree, which the coordinator keeps")
	case fs.Changed("split-steps"), fs.Changed("save"), fs.Changed("resume"), fs.Changed("threads"):
		return usagef("--broker: not with --split-steps, --save, --resume or --threads (the workers search the leaves, one table each)")
	case p.ackWait <= 0:
		return usagef("--ack-wait %d: want a positive number of milliseconds", p.ackWait)
	case p.tasks < 1:
		return usagef("--tasks %d: want at least 1", p.tasks)
	case p.id != "":
		if err := broker.CheckID(p.id); err != nil {
			return usagef("--run-id: %v", err)
		}
	}
	return nil
}

// solveOnBroker proves the tree's side's win with the tree's leaves
// searched by the broker's workers (broker.Prove); the tree file is
// written after every result, so that the same command goes on from it.
func (c *cli) solveOnBroker(game *board.Game, run *splitRun, o solveFlags) error {
	p := o.brk
	build, err := broker.ThisBuild(protocol.Version)
	if err != nil {
		return err
	}
	cl, err := p.dial("sower solve")
	if err != nil {
		return err
	}
	defer cl.Close()
	tr := run.tree
	pos := game.Position()
	id := p.id
	if id == "" {
		id = broker.RunID(game, tr.Attacker())
	}
	resumed := " (a new tree)"
	if run.read {
		pn, dn := tr.Root()
		resumed = fmt.Sprintf(" (read back: %d positions, root pn %s dn %s, %d nodes searched before)", tr.Size(), pnString(pn), pnString(dn), tr.Searched())
	}
	fmt.Fprintf(c.stdout, "split tree %s: proving %s's win at %s on the workers of %s as proof %s, leaves of %d nodes, tables of %d MiB%s; workers must run %s\n",
		o.split, tr.Attacker(), pos.String(), cl.URL(), id, tr.LeafNodes(), o.hash, resumed, build)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := cl.Context(ctx)
	defer cancel()
	start := time.Now()
	before := tr.Searched()
	err = broker.Prove(ctx, cl, broker.ProofJob{Tree: tr, File: o.split, Game: game, Pieces: p.pieces, Proof: o.proof, ID: id,
		HashMiB: o.hash, Tasks: p.tasks, AckWait: time.Duration(p.ackWait) * time.Millisecond, Progress: c.stderr, Build: build,
		TrustDisproofs: p.trust})
	err = connectionLost(ctx, err)
	pn, dn := tr.Root()
	effort := fmt.Sprintf("%d nodes this run, %d ms; the tree has %d positions, %d nodes in all", tr.Searched()-before, time.Since(start).Milliseconds(), tr.Size(), tr.Searched())
	switch {
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(c.stdout, "interrupted: %s\n", effort)
		return interruptedf("the tree (root pn %s dn %s) is in %s; run again to go on", pnString(pn), pnString(dn), o.split)
	case errors.Is(err, broker.ErrSettings):
		return usageError{err}
	case err != nil:
		return err
	case pn == 0:
		fmt.Fprintf(c.stdout, "solved: %s wins (the proof found wins in at most %d plies), %s\n", tr.Attacker(), tr.Plies(), effort)
	case tr.OnPath():
		fmt.Fprintf(c.stdout, "disproven: %s does not win along the tree's lines (a disproof rests on the game's history or the depth bound), %s\n", tr.Attacker(), effort)
	default:
		fmt.Fprintf(c.stdout, "disproven: %s does not win (a loss or a draw for %s), %s\n", tr.Attacker(), tr.Attacker(), effort)
	}
	if o.proof != "" && pn != 0 {
		fmt.Fprintf(c.stderr, "sower: --proof: no certificate: %s's win is not proven\n", tr.Attacker())
	}
	return nil
}
