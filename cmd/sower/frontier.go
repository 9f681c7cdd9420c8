package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"github.com/sower-engine/sower/bench/broker"
	"github.com/sower-engine/sower/bench/frontier"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol"
	"github.com/sower-engine/sower/search"
	"github.com/sower-engine/sower/search/dfpn"
	"github.com/sower-engine/sower/search/dfpn/split"
)

// frontierFlags are frontier's options.
type frontierFlags struct {
	fs         *pflag.FlagSet
	lines, out string
	// The self-play lines made when the lines file does not exist.
	games       int
	seed        uint64
	playNodes   uint64
	randomPlies int
	// The measurement.
	time     time.Duration
	nodes    uint64
	hash     int
	threads  int
	step     int
	from     int
	after    string
	starts   map[string]int // --after's, by line
	fitFrom  int
	estimate []int
	// On a broker's workers (--broker).
	brk       *brokerFlags
	leafNodes uint64
	tasks     int
	ackWait   int // milliseconds
	trust     bool
}

// add adds the flags.
func (o *frontierFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&o.lines, "lines", "", "file of game lines to walk back (name, tab, start, tab, moves to the end; one a line); made by self-play when it does not exist (required)")
	fs.StringVar(&o.out, "out", "", "results file, one JSON object a position, appended as they are measured; a rerun skips what it holds (required)")
	fs.IntVar(&o.games, "games", 6, "self-play lines to make when --lines does not exist")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the self-play lines' random plies")
	fs.Uint64Var(&o.playNodes, "play-nodes", 2000, "nodes the engines search per move in the self-play lines")
	fs.IntVar(&o.randomPlies, "random-plies", 8, "random plies from the start of each self-play line")
	fs.DurationVar(&o.time, "time", time.Minute, "time limit of each position's proof (0: none)")
	fs.Uint64Var(&o.nodes, "nodes", 0, "node limit of each side's question in a position (0: none)")
	fs.IntVar(&o.hash, "hash", defaultDfpnHash, "the proof's table in MiB, emptied before each position")
	fs.IntVar(&o.threads, "threads", 1, "threads searching the one table")
	fs.IntVar(&o.step, "step", 1, "plies between the positions tried; after a failure the ones between are tried")
	fs.IntVar(&o.from, "from", 1, "plies before the end where each line's walk begins; the positions nearer the end are taken as proven (by a shorter limit, say) and not measured")
	fs.StringVar(&o.after, "after", "", "results file of a shorter limit: each line it holds begins the ply after its farthest position proven there (the others at --from)")
	fs.IntVar(&o.fitFrom, "fit-from", 1, "fit log(nodes) over the proven positions at least this many plies before the end")
	fs.IntSliceVar(&o.estimate, "estimate", []int{50, 72}, "plies before the end to extrapolate the fit to")
	fs.Uint64Var(&o.leafNodes, "split-nodes", split.DefaultLeafNodes, "--broker: nodes a leaf of a position's proof tree is searched before it is split")
	fs.IntVar(&o.tasks, "tasks", broker.DefaultProofTasks, "--broker: leaves out to the workers at once")
	fs.BoolVar(&o.trust, "trust-disproofs", false, "--broker: enter a leaf's disproof as one worker reports it, without waiting for another worker's")
	fs.IntVar(&o.ackWait, "ack-wait", int(broker.DefaultAckWait/time.Millisecond), "--broker: milliseconds a leaf's task may go without a sign of life from its worker before another worker gets it")
}

// check refuses options that cannot work, before any work.
func (o *frontierFlags) check(c *cli, v *board.Variant) error {
	switch {
	case v.Family() != board.Katro:
		return usagef("--game %s: the frontier is measured by proof-number search, Katro only", v.Name())
	case o.lines == "" || o.out == "":
		return usagef("--lines and --out are required")
	case o.time < 0:
		return usagef("--time %s: want 0 or more", o.time)
	case o.time == 0 && o.nodes == 0:
		return usagef("--time 0 and --nodes 0: give a limit, or a line's first hard position never ends")
	case o.threads < 1 || o.threads > 256:
		return usagef("--threads %d: want 1 to 256", o.threads)
	case o.step < 1:
		return usagef("--step %d: want 1 or more", o.step)
	case o.from < 1:
		return usagef("--from %d: want 1 or more", o.from)
	case o.games < 1:
		return usagef("--games %d: want 1 or more", o.games)
	case o.randomPlies < 0:
		return usagef("--random-plies %d: want 0 or more", o.randomPlies)
	}
	if err := o.checkBroker(); err != nil {
		return err
	}
	if err := o.readAfter(); err != nil {
		return err
	}
	if err := checkOutput("--out", o.out); err != nil {
		return err
	}
	return c.checkHash(o.hash, search.CheckHashMemory)
}

// readAfter reads --after's results file: where each of its lines
// begins.
func (o *frontierFlags) readAfter() error {
	if o.after == "" {
		return nil
	}
	f, err := os.Open(o.after)
	if err != nil {
		return flagError("--after", err)
	}
	defer f.Close()
	recs, err := frontier.ReadRecords(f)
	if err != nil {
		return usagef("--after %s: %v", o.after, err)
	}
	o.starts = frontier.After(recs)
	return nil
}

// checkBroker refuses what a measurement on a broker's workers cannot
// do, and the broker's options without --broker.
func (o *frontierFlags) checkBroker() error {
	fs := o.fs
	if o.brk.url == "" {
		for _, name := range []string{"split-nodes", "tasks", "ack-wait", "trust-disproofs", "broker-creds", "broker-ca", "broker-cert", "broker-key"} {
			if fs.Changed(name) {
				return usagef("--%s needs --broker", name)
			}
		}
		return nil
	}
	switch {
	case fs.Changed("threads"), fs.Changed("nodes"):
		return usagef("--broker: not with --threads or --nodes (each worker searches a leaf on a table of its own, within --split-nodes)")
	case o.leafNodes < 1:
		return usagef("--split-nodes %d: want at least 1", o.leafNodes)
	case o.tasks < 1:
		return usagef("--tasks %d: want at least 1", o.tasks)
	case o.ackWait <= 0:
		return usagef("--ack-wait %d: want a positive number of milliseconds", o.ackWait)
	}
	return nil
}

// config is the measurement's configuration; with --broker, settled on
// the workers of the broker that cl is connected to.
func (o *frontierFlags) config(cl *broker.Client, build broker.Build, progress io.Writer) frontier.Config {
	cfg := frontier.Config{HashMiB: o.hash, Threads: o.threads, Time: o.time, Nodes: o.nodes, Step: o.step, From: o.from, FromLines: o.starts, Load: loadAverage}
	if cl == nil {
		return cfg
	}
	so := broker.SettleOptions{Dir: filepath.Dir(o.out), LeafNodes: o.leafNodes, HashMiB: o.hash, Tasks: o.tasks,
		AckWait: time.Duration(o.ackWait) * time.Millisecond, Progress: progress, Build: build, TrustDisproofs: o.trust}
	cfg.Settle = func(ctx context.Context, g *board.Game, first board.Side) (dfpn.Result, error) {
		return broker.Settle(ctx, cl, g, first, so)
	}
	cfg.Via = fmt.Sprintf("broker, leaves of %d nodes", o.leafNodes)
	if o.trust {
		cfg.Via += ", disproofs trusted"
	}
	return cfg
}

// loadAverage returns the machine's load average of the last minute, or 0
// where the system does not say.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var l float64
	fmt.Sscan(string(b), &l)
	return l
}

func (c *cli) frontier(args []string) error {
	var g gameFlags
	var o frontierFlags
	fs := c.flags("frontier", `--lines FILE --out FILE [--game G] [--time D] [--nodes N] [--step N] [--from N] [--after FILE] [--hash MB] [--threads N] [--games N --seed S --play-nodes N --random-plies N] [--broker URL --split-nodes N --tasks N --ack-wait MS]`)
	g.addGame(fs, board.NameKatro, "game: katro, katro-6x3, katro-4x6 or katro-4x4")
	g.addHoyitoRules(fs)
	fs.MarkHidden("capture-side")
	fs.MarkHidden("last-four")
	fs.MarkHidden("repetition")
	fs.IntVar(&g.limit, "no-capture-limit", board.DefaultNoCaptureLimit, "plies without a capture that end the game (0 = off)")
	o.add(fs)
	o.fs = fs
	o.brk = addBrokerFlags(fs, "settle each position on the workers of this broker, each question a proof of its own as sower solve --broker makes", c.stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	v, err := g.variant()
	if err != nil {
		return err
	}
	if err := o.check(c, v); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	lines, err := c.frontierLines(ctx, v, &o)
	if err != nil {
		return err
	}
	var cl *broker.Client
	var build broker.Build
	where := "each position from an empty " + fmt.Sprint(o.hash) + " MiB table"
	if o.brk.url != "" {
		if build, err = broker.ThisBuild(protocol.Version); err != nil {
			return err
		}
		if cl, err = o.brk.dial("sower frontier"); err != nil {
			return err
		}
		defer cl.Close()
		var cancel context.CancelFunc
		ctx, cancel = cl.Context(ctx)
		defer cancel()
		where = fmt.Sprintf("each position on the workers of %s (tables of %d MiB, leaves of %d nodes; workers must run %s)", cl.URL(), o.hash, o.leafNodes, build)
	}
	cfg := o.config(cl, build, c.stderr)
	res, err := frontier.OpenResults(o.out, cfg)
	if err != nil {
		return err
	}
	defer res.Close()
	w, err := frontier.NewWalker(cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "%d lines of %s; %s, limits %s; results in %s (%d already)\n",
		len(lines), v.Name(), where, frontierLimits(&o), o.out, len(res.Records()))
	writeFrontierHeader(c.stdout)
	for i := range lines {
		l := &lines[i]
		_, err := w.Walk(ctx, l, res.Done(l.Name), func(r frontier.Record) error {
			writeFrontierRow(c.stdout, &r)
			return res.Append(r)
		})
		err = connectionLost(ctx, err)
		if errors.Is(err, context.Canceled) {
			return interruptedf("in line %s: the positions measured are in %s; the same command goes on", l.Name, o.out)
		}
		if err != nil {
			return err
		}
	}
	sum := frontier.Summarize(res.Records(), o.fitFrom)
	writeFrontierSummary(c.stdout, &sum, o.estimate)
	return nil
}

// frontierLines reads --lines, or makes the self-play lines and writes
// them there when the file does not exist.
func (c *cli) frontierLines(ctx context.Context, v *board.Variant, o *frontierFlags) ([]frontier.Line, error) {
	f, err := os.Open(o.lines)
	if err == nil {
		defer f.Close()
		lines, err := frontier.ReadLines(f, v)
		if err != nil {
			return nil, fmt.Errorf("--lines %s: %w", o.lines, err)
		}
		return lines, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, flagError("--lines", err)
	}
	if err := checkOutput("--lines", o.lines); err != nil {
		return nil, err
	}
	fmt.Fprintf(c.stderr, "frontier: playing %d self-play lines for %s\n", o.games, o.lines)
	lines, err := frontier.Generate(ctx, frontier.GenerateConfig{
		Variant: v, Games: o.games, Nodes: o.playNodes, RandomPlies: o.randomPlies, Seed: o.seed, HashMiB: 16,
	})
	if errors.Is(err, context.Canceled) {
		return nil, interruptedf("while playing the self-play lines: %s not written", o.lines)
	}
	if err != nil {
		return nil, err
	}
	comment := fmt.Sprintf("%s self-play lines: %d games, %d nodes a move, %d random plies, seed %d (sower datagen's games)\nname, tab, start, tab, the moves to the end", v.Name(), o.games, o.playNodes, o.randomPlies, o.seed)
	tmp := o.lines + ".tmp"
	out, err := os.Create(tmp)
	if err != nil {
		return nil, err
	}
	if err := frontier.WriteLines(out, comment, lines); err != nil {
		out.Close()
		return nil, err
	}
	if err := out.Close(); err != nil {
		return nil, err
	}
	return lines, os.Rename(tmp, o.lines)
}

// frontierLimits words the limits of each position.
func frontierLimits(o *frontierFlags) string {
	switch {
	case o.time > 0 && o.nodes > 0:
		return fmt.Sprintf("%s and %d nodes a question", o.time, o.nodes)
	case o.time > 0:
		return o.time.String()
	}
	return fmt.Sprintf("%d nodes a question", o.nodes)
}

// writeFrontierHeader writes the heading of the records' table.
func writeFrontierHeader(w io.Writer) {
	fmt.Fprintf(w, "%-8s %6s %5s  %-7s %-6s %6s %14s %10s %6s %5s\n", "line", "before", "ply", "result", "winner", "plies", "nodes", "seconds", "fill%", "load")
}

// writeFrontierRow writes a record as a row of the table.
func writeFrontierRow(w io.Writer, r *frontier.Record) {
	result, winner, plies := "open", "-", "-"
	if r.Proven {
		result = r.Outcome
		if r.Winner != "" {
			winner, plies = r.Winner, fmt.Sprint(r.Plies)
		}
	}
	fmt.Fprintf(w, "%-8s %6d %5d  %-7s %-6s %6s %14d %10.2f %6.1f %5.1f\n", r.Line, r.Before, r.Ply, result, winner, plies, r.Nodes, float64(r.MS)/1000, 100*r.Fill, r.Load)
}

// writeFrontierSummary writes the lines' frontier, the fit and its extrapolation.
func writeFrontierSummary(w io.Writer, s *frontier.Summary, estimate []int) {
	fmt.Fprintf(w, "\n%-8s %8s %9s %14s %10s %6s\n", "line", "measured", "farthest", "nodes", "seconds", "open")
	for _, l := range s.Lines {
		open := "-"
		if l.Open > 0 {
			open = fmt.Sprint(l.Open)
		}
		fmt.Fprintf(w, "%-8s %8d %9d %14d %10.2f %6s\n", l.Line, l.Measured, l.Farthest, l.FarthestNodes, float64(l.FarthestMS)/1000, open)
	}
	fmt.Fprintf(w, "median farthest proven: %.1f plies before the end\n", s.Median)
	if s.Fit.Points < 2 {
		fmt.Fprintf(w, "fit: too few proven positions\n")
		return
	}
	fmt.Fprintf(w, "fit over %d proven positions %d or more plies before the end: log(nodes) = %.3f + %.4f·before (R² %.2f): ×%.3f nodes a ply back\n",
		s.Fit.Points, s.FitFrom, s.Fit.Intercept, s.Fit.Slope, s.Fit.R2, s.Fit.Factor())
	fmt.Fprintf(w, "within each line (a level of its own): log(nodes) = %.3f + %.4f·before (R² %.2f within): ×%.3f nodes a ply back\n",
		s.Within.Intercept, s.Within.Slope, s.Within.R2, s.Within.Factor())
	if s.BytesPerNode == 0 {
		fmt.Fprintf(w, "measured: %.0f nodes/s; the table's use per node is not (no proof of a million nodes on a table of this process under half full)\n", s.NPS)
	} else {
		fmt.Fprintf(w, "measured: %.0f nodes/s, %.1f bytes of table per node\n", s.NPS, s.BytesPerNode)
	}
	hours := "machine-hours"
	if s.Via != "" {
		hours = "hours at the rate measured (" + s.Via + ")"
	}
	for _, b := range estimate {
		e, in := s.Estimate(s.Fit, b), s.Estimate(s.Within, b)
		if s.BytesPerNode == 0 {
			fmt.Fprintf(w, "extrapolated, %d plies before the end: %.3g nodes, %.3g %s (within the lines: %.3g nodes, %.3g hours)\n",
				b, e.Nodes, e.Hours, hours, in.Nodes, in.Hours)
			continue
		}
		fmt.Fprintf(w, "extrapolated, %d plies before the end: %.3g nodes, %.3g machine-hours, %.3g GiB of table (within the lines: %.3g nodes, %.3g machine-hours, %.3g GiB)\n",
			b, e.Nodes, e.Hours, e.GiB, in.Nodes, in.Hours, in.GiB)
	}
}
