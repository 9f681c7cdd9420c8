package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/pflag"

	"github.com/sower-engine/sower/bench/selfplay"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search"
)

// datagenFlags are the flags of sower datagen.
type datagenFlags struct {
	g                  gameFlags
	games, concurrency int
	out, openings      string
	nodes              uint64
	depth, randomPlies int
	hash               int
	seed               uint64
	progressEvery      time.Duration
}

// datagen is sower datagen: self-play games whose positions, with their
// search scores and results, it writes to a data file for sower tune and
// sower train, continuing the file a run before left.
func (c *cli) datagen(args []string) error {
	var f datagenFlags
	fs := c.flags("datagen", "--game G --games N --out FILE [--nodes N | --depth N] [flags]")
	f.add(fs)
	ee := addEngineEvalFlags(fs, "linear")
	onBroker := addDatagenBrokerFlags(fs, c.stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := f.check(fs); err != nil {
		return err
	}
	// Checked before the data file is touched; each of the --concurrency
	// engines has a table of this size.
	if err := c.checkHash(f.hash, func(mib, avail int) error { return search.CheckHashesMemory(mib, f.concurrency, avail) }); err != nil {
		return err
	}
	cfg, err := f.config(ee, onBroker.url != "")
	if err != nil {
		return err
	}
	if err := onBroker.check(fs); err != nil {
		return err
	}
	// Ctrl-C stops the run; the games written whole are kept.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	df, err := openData(f.out, cfg.Variant, c.stderr)
	if err != nil {
		return err
	}
	defer df.close()
	todo := c.gamesToPlay(&f, df)
	if todo == 0 {
		return df.close()
	}
	return c.generate(ctx, cfg, df, todo, &f, onBroker)
}

// add adds the flags of sower datagen's games to fs.
func (f *datagenFlags) add(fs *pflag.FlagSet) {
	f.g.add(fs, false)
	fs.IntVar(&f.games, "games", 100, "games to play in all (a rerun plays those the file lacks)")
	fs.StringVarP(&f.out, "out", "o", "", "data file to write, or to continue if it exists")
	fs.Uint64Var(&f.nodes, "nodes", 5000, "nodes searched per move")
	fs.IntVarP(&f.depth, "depth", "d", 0, "search each move to this depth instead of a node count")
	fs.StringVar(&f.openings, "openings", "", "file of start positions, one a line (rule book notation); game i starts from line i mod their number")
	fs.IntVar(&f.randomPlies, "random-plies", 8, "random plies played from the start (or from the --openings position) before the engine plays")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the random plies")
	fs.IntVar(&f.concurrency, "concurrency", 1, "games to play at once")
	fs.IntVar(&f.hash, "hash", search.DefaultHashMiB, "transposition table of each engine in MiB")
	fs.DurationVar(&f.progressEvery, "progress", 5*time.Second, "time between progress lines on stderr")
}

// check refuses flags that do not go together and values out of range.
func (f *datagenFlags) check(fs *pflag.FlagSet) error {
	switch {
	case fs.Changed("nodes") && fs.Changed("depth"):
		return usagef("give --nodes or --depth, not both")
	case f.out == "":
		return usagef("--out: a data file is required")
	case f.games < 1:
		return usagef("--games %d: want 1 or more", f.games)
	case f.concurrency < 1:
		return usagef("--concurrency %d: want 1 or more", f.concurrency)
	case f.randomPlies < 0:
		return usagef("--random-plies %d: want 0 or more", f.randomPlies)
	case fs.Changed("depth") && (f.depth < 1 || f.depth >= search.MaxPly):
		return usagef("--depth %d: want 1 to %d", f.depth, search.MaxPly-1)
	case f.nodes < 1:
		return usagef("--nodes %d: want more than 0", f.nodes)
	case f.progressEvery <= 0:
		return usagef("--progress %s: want a positive duration", f.progressEvery)
	}
	return nil
}

// config returns the self-play the flags ask for: the game, the limits,
// the openings and the engine with its evaluation (ee's); onBroker says
// that the broker's workers play it, with the linear evaluation.
func (f *datagenFlags) config(ee engineEval, onBroker bool) (selfplay.DatagenConfig, error) {
	lim := search.Limits{Nodes: f.nodes}
	if f.depth > 0 {
		lim = search.Limits{Depth: f.depth}
	}
	v, err := f.g.variant()
	if err != nil {
		return selfplay.DatagenConfig{}, err
	}
	cfg := selfplay.DatagenConfig{Variant: v, Games: f.games, Limits: lim, Engine: selfplay.DefaultEngine(f.hash),
		RandomPlies: f.randomPlies, Seed: f.seed, Concurrency: f.concurrency}
	if cfg.Book, err = f.book(v); err != nil {
		return cfg, err
	}
	if cfg.Engine.Nets, cfg.Engine.NetLazy, err = ee.load(); err != nil {
		return cfg, err
	}
	if *ee.evalType == "net" && netFor(cfg.Engine.Nets, v) == nil {
		// Its games would be the linear evaluation's.
		return cfg, usagef("--eval net: no network evaluates %s; give one with --evalfile", v.Name())
	}
	if netFor(cfg.Engine.Nets, v) != nil && onBroker {
		return cfg, usagef("--eval %s: the broker's workers play with the linear evaluation; play without --broker", *ee.evalType)
	}
	return cfg, nil
}

// book returns the start positions of v the games cycle through: the
// --fen position, the --openings file's, or none (the start).
func (f *datagenFlags) book(v *board.Variant) ([]board.Position, error) {
	var book []board.Position
	if f.g.fen != "" {
		p, err := v.ParsePosition(f.g.fen)
		if err != nil {
			return nil, usagef("--fen: %v", err)
		}
		book = []board.Position{p}
	}
	if f.openings == "" {
		return book, nil
	}
	if f.g.fen != "" {
		return nil, usagef("give --fen or --openings, not both")
	}
	return readOpeningsFile(f.openings, v)
}

// gamesToPlay returns how many of the games df lacks, having said on
// stderr, when df holds games already, what it holds and what is left.
func (c *cli) gamesToPlay(f *datagenFlags, df *dataFile) int {
	todo := 0
	for i := 0; i < f.games; i++ {
		if !df.played[uint32(i)] {
			todo++
		}
	}
	if len(df.played) == 0 {
		return todo
	}
	fmt.Fprintf(c.stderr, "datagen: %s holds %d positions of %d games", f.out, df.records, len(df.played)-df.emptyGames)
	if df.emptyGames > 0 {
		fmt.Fprintf(c.stderr, ", and %d games kept none (%s)", df.emptyGames, emptyListName(f.out))
	}
	fmt.Fprint(c.stderr, "; ")
	if todo == 0 {
		fmt.Fprintf(c.stderr, "all %d games are played\n", f.games)
	} else {
		fmt.Fprintf(c.stderr, "playing the %d others\n", todo)
	}
	return todo
}

// generate plays the todo games of cfg that df lacks, here or on the
// broker, writing each to df as it ends and progress lines on stderr.
func (c *cli) generate(ctx context.Context, cfg selfplay.DatagenConfig, df *dataFile, todo int, f *datagenFlags, onBroker *datagenOnBroker) error {
	cfg.Skip = func(i int) bool { return df.played[uint32(i)] }
	prog := newProgress(c.stderr, todo, f.progressEvery)
	cfg.Each = func(gd selfplay.GameData) error {
		if err := df.add(&gd); err != nil {
			return err
		}
		prog.game(len(gd.Records), gd.Nodes)
		return nil
	}
	err := onBroker.run(ctx, cfg, c.stderr)
	prog.line(true)
	if errors.Is(err, context.Canceled) {
		return interruptedf("after %d of the %d games to play; run the same command to continue %s", prog.games, todo, f.out)
	}
	if err != nil {
		return err
	}
	return df.close()
}

// progress writes datagen's progress lines.
type progress struct {
	w            io.Writer
	total, games int
	positions    int
	nodes        uint64
	start, last  time.Time
	every        time.Duration
}

func newProgress(w io.Writer, total int, every time.Duration) *progress {
	now := time.Now()
	return &progress{w: w, total: total, start: now, last: now, every: every}
}

func (p *progress) game(positions int, nodes uint64) {
	p.games++
	p.positions += positions
	p.nodes += nodes
	p.line(false)
}

// line writes a progress line if one is due, or at once if final.
func (p *progress) line(final bool) {
	now := time.Now()
	if !final && now.Sub(p.last) < p.every {
		return
	}
	p.last = now
	el := now.Sub(p.start).Seconds()
	left := "?"
	if p.games > 0 {
		left = (time.Duration(el/float64(p.games)*float64(p.total-p.games)) * time.Second).Round(time.Second).String()
	}
	rate := 0.0
	if el > 0 {
		rate = float64(p.positions) / el
	}
	fmt.Fprintf(p.w, "games %d/%d  positions %d  %.0f positions/s  %.2f games/s  %.0f knodes/s  elapsed %s  left %s\n",
		p.games, p.total, p.positions, rate, float64(p.games)/max(el, 1e-9), float64(p.nodes)/max(el, 1e-9)/1000,
		(time.Duration(el) * time.Second).Round(time.Second), left)
}
