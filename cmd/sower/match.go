package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/sower-engine/sower/bench/match"
	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/book"
)

// matchFlags are the flags of sower match.
type matchFlags struct {
	engine, name, limit   [2]string
	options               [2][]string
	enginesFile           string
	chosen, each          []string
	gauntlet, roundRobin  bool
	proven                bool
	adjNodes              uint64
	adjEvery              int
	tablesDir             string
	anchor                string
	tc                    string
	movetime, depth       int
	nodes                 uint64
	margin, timeout       int
	game                  string
	captureSide, lastFour string
	repetition            string
	noCaptureLimit        int
	openings, order       string
	repeat                bool
	randomPlies           int
	seed                  uint64
	games, concurrency    int
	traditional, ponder   bool
	sprt, resign, draw    string
	report                int
	out, pgn, log         string
	resume, appendOut     bool
	playedOut             string
}

// keyedFlags are the flags whose value is key=value words, and their
// keys; written unquoted after the flag, the words are gathered into its
// value.
func keyedFlags() map[string][]string {
	return map[string][]string{
		"sprt":   {"elo0=", "elo1=", "alpha=", "beta=", "model="},
		"resign": {"movecount=", "score="},
		"draw":   {"ply=", "movecount=", "score="},
	}
}

// joinSPRT lets "--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05" be written
// without quotes: the key=value words that follow --sprt become its
// value; so do those that follow --resign and --draw.
func joinSPRT(args []string) []string {
	flags := keyedFlags()
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		name, val, inline := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		keys, keyed := flags[name]
		if !keyed || !strings.HasPrefix(a, "--") {
			out = append(out, a)
			continue
		}
		isKey := func(s string) bool {
			return slices.ContainsFunc(keys, func(k string) bool { return strings.HasPrefix(s, k) })
		}
		parts := []string{}
		if inline {
			parts = append(parts, val)
		} else if i+1 < len(args) {
			i++
			parts = append(parts, args[i])
		}
		for i+1 < len(args) && isKey(args[i+1]) {
			i++
			parts = append(parts, args[i])
		}
		out = append(out, "--"+name+"="+strings.Join(parts, " "))
	}
	return out
}

// match is sower match: a match of two engines, or a tournament, played
// as the flags ask, here or on a broker's workers.
func (c *cli) match(args []string) error {
	var f matchFlags
	fs := c.flags("match", `(--engine1 CMD --engine2 CMD | --engines FILE [--engine name=NAME]… [--gauntlet | --round-robin]) [--tc 10+0.1 | --movetime MS | --nodes N | --depth N] [--games N] [flags]`)
	f.add(fs)
	onBroker := addMatchBrokerFlags(fs, c.stderr)
	if err := parse(fs, joinSPRT(args)); err != nil {
		return err
	}
	p, err := f.plan(fs)
	if err != nil {
		return err
	}
	po, err := f.check(fs, p, onBroker)
	if err != nil {
		return err
	}
	if f.resume {
		if err := c.resumeMatch(&f, p, onBroker.url != ""); err != nil {
			return err
		}
	}
	outputs := f.outputs(p.conf())
	if err := checkOutputs(outputs); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	closeJudges, err := c.judges(ctx, &f, p)
	if err != nil {
		return err
	}
	defer closeJudges()
	if onBroker.url == "" {
		if err := p.checkEngines(ctx); err != nil {
			return err
		}
	}
	var files []*os.File
	defer func() { closeFiles(files) }()
	if files, err = openOutputs(outputs); err != nil {
		return err
	}
	if played, err := c.playMatch(ctx, &f, p, onBroker); err != nil {
		return f.stopped(err, played, onBroker.url != "")
	}
	err = closeFiles(files)
	files = nil
	if err != nil {
		return err
	}
	if po != nil {
		return po.check(f.out, c.stdout)
	}
	return nil
}

// add adds the flags of sower match to fs.
func (f *matchFlags) add(fs *pflag.FlagSet) {
	f.addEngines(fs)
	f.addLimits(fs)
	f.addGames(fs)
	f.addAdjudication(fs)
	f.addOutputs(fs)
}

// addEngines adds the flags that choose the engines, their names and
// options, and the tournament they play.
func (f *matchFlags) addEngines(fs *pflag.FlagSet) {
	for i := range 2 {
		n := i + 1
		fs.StringVar(&f.engine[i], fmt.Sprintf("engine%d", n), "", fmt.Sprintf(`engine %d: a command line ("./sower", "engine --flag") or builtin:random, builtin:greedy`, n))
		fs.StringVar(&f.name[i], fmt.Sprintf("name%d", n), "", fmt.Sprintf("engine %d's name in reports and records (default: the program's or builtin's name)", n))
		fs.StringArrayVar(&f.options[i], fmt.Sprintf("option%d", n), nil, fmt.Sprintf("engine %d option Name=Value, sent with setoption (repeatable)", n))
		fs.StringVar(&f.limit[i], fmt.Sprintf("limit%d", n), "", fmt.Sprintf(`engine %d's own limit instead of the shared one: "tc=10+0.1", "movetime=MS", "nodes=N", "depth=N" (combinable)`, n))
	}
	fs.StringVar(&f.enginesFile, "engines", "", `JSON file of engines: a list of {"name", "cmd", "dir", "options": {…}, "limit"} (see docs/cli.md)`)
	fs.StringArrayVar(&f.chosen, "engine", nil, "name=NAME: play the engines file's engine NAME (repeatable; in order, engine1 first; none: every engine of the file)")
	fs.StringArrayVar(&f.each, "option", nil, "option Name=Value for every engine, unless the engine sets its own (repeatable)")
	fs.BoolVar(&f.gauntlet, "gauntlet", false, "a tournament: the first engine against each of the others, --games games a pairing")
	fs.BoolVar(&f.roundRobin, "round-robin", false, "a tournament: every engine against every other, --games games a pairing")
	fs.StringVar(&f.anchor, "anchor", "", "the engine whose rating a tournament holds at 0 (default: the mean of the ratings at 0)")
}

// addLimits adds the flags of the limit every engine shares and of the
// time an engine may take beyond it.
func (f *matchFlags) addLimits(fs *pflag.FlagSet) {
	fs.StringVar(&f.tc, "tc", "", "time control for every engine: seconds+increment (10+0.1), moves/seconds+increment (40/60+0.5: refilled every 40 moves) or inf")
	fs.IntVar(&f.movetime, "movetime", 0, "milliseconds per move for both engines")
	fs.Uint64Var(&f.nodes, "nodes", 0, "nodes per move for both engines")
	fs.IntVarP(&f.depth, "depth", "d", 0, "depth per move for both engines")
	fs.IntVar(&f.margin, "timemargin", int(match.DefaultTimeMargin/time.Millisecond), "milliseconds an engine may overrun its clock or move time before it loses on time (delays of a busy machine included)")
	fs.IntVar(&f.timeout, "timeout", int(match.DefaultTimeout/time.Millisecond), "milliseconds to wait for an answer no clock limits (handshake, readyok, node and depth searches)")
}

// addGames adds the flags of the games: the game and its rules, the
// openings, how many games and how they are played, and the sequential
// test.
func (f *matchFlags) addGames(fs *pflag.FlagSet) {
	fs.StringVarP(&f.game, "game", "g", board.NameKatro, "game: "+strings.Join(board.Names(), ", "))
	fs.StringVar(&f.captureSide, "capture-side", "any", "Hoyito III CaptureSide: any or opponent")
	fs.StringVar(&f.lastFour, "last-four", "capturer", "Hoyito III LastFour: capturer, south or north")
	fs.StringVar(&f.repetition, "repetition", "threefold", "Hoyito III Repetition: threefold or off (off needs a no-capture limit)")
	fs.IntVar(&f.noCaptureLimit, "no-capture-limit", board.DefaultNoCaptureLimit, "plies without a capture that end the game (0 = off)")
	fs.StringVar(&f.openings, "openings", "", "file of start positions, one a line (rule book notation; # comments)")
	fs.StringVar(&f.order, "openings-order", "sequential", "the order --openings are played in: sequential or random (shuffled with --seed)")
	fs.BoolVar(&f.repeat, "repeat", true, "play each opening twice, colours swapped (--repeat=false: every game from an opening of its own)")
	fs.IntVar(&f.randomPlies, "random-plies", 0, "make each pair's opening by this many random plies from the start")
	fs.Uint64Var(&f.seed, "seed", 1, "seed for random openings and built-in players")
	fs.IntVar(&f.games, "games", 2, "games to play (openings are played in pairs, colours swapped); in a tournament, games of each pairing")
	fs.IntVar(&f.concurrency, "concurrency", 1, "game pairs to play at once, each with its own engine processes (the two games of a pair one after the other)")
	fs.BoolVar(&f.traditional, "traditional-match", false, "Hoyito III: play the games in sequence with the traditional LastFour rule")
	fs.BoolVar(&f.ponder, "ponder", false, "let engines with a Ponder option think on the opponent's time (go ponder, ponderhit); --option2 Ponder=false keeps one from it")
	fs.StringVar(&f.sprt, "sprt", "", `sequential test on game pairs: "elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized|logistic]"`)
}

// addAdjudication adds the flags that end a game before its rules do: on
// the engines' scores, by proof, or by the endgame tables.
func (f *matchFlags) addAdjudication(fs *pflag.FlagSet) {
	fs.StringVar(&f.resign, "resign", "", `adjudicate a game won when both engines agree: "movecount=K score=CP" (the loser's score at -CP or below, the winner's at CP or above, K moves each in a row)`)
	fs.StringVar(&f.draw, "draw", "", `adjudicate a draw: "ply=P movecount=K score=CP" (both engines' scores within CP of zero, K moves each in a row after the first P plies)`)
	fs.BoolVar(&f.proven, "adjudicate-proven", false, "end a Katro game as soon as its result is proven: by the proof book (katro-4x6) after every move, or by a bounded df-pn search")
	fs.Uint64Var(&f.adjNodes, "adjudicate-nodes", defaultAdjudicateNodes, "--adjudicate-proven: df-pn nodes for each side's win (0: the proof book alone)")
	fs.IntVar(&f.adjEvery, "adjudicate-every", defaultAdjudicateEvery, "--adjudicate-proven: search with df-pn at the game's first ply and every this many plies after it")
	fs.StringVar(&f.tablesDir, "tables", "", "end a hoyito3 game as soon as its position is in the endgame tables of this directory, with their exact result under the game's rules")
}

// addOutputs adds the flags of the reports, the records, the log and the
// comparison with the games played out.
func (f *matchFlags) addOutputs(fs *pflag.FlagSet) {
	fs.IntVar(&f.report, "report", 0, "write the report every N games as well as at the end")
	fs.StringVar(&f.out, "out", "", "write one JSON object per game to this file (a file that holds games already needs --resume or --append)")
	fs.BoolVar(&f.resume, "resume", false, "continue the match whose games --out holds: they are counted, not played again (the same command and --resume; a game recorded with other settings is an error)")
	fs.BoolVar(&f.appendOut, "append", false, "add this match's games to those --out holds already (another match's)")
	fs.StringVar(&f.pgn, "pgn", "", "append the games as PGN-like text to this file")
	fs.StringVar(&f.playedOut, "played-out", "", "after the match, compare its games (--out) with the same match played out without adjudication in this file: an adjudicated game must be the start of its game played out, with its result, any other the same game; exit status 1 on a difference")
	fs.StringVar(&f.log, "log", "", "append every line sent to and read from the engines to this file")
}

// matchPlan is what sower match plays: a match of two engines (cfg), or
// a tournament (tn, not nil), which holds a copy of cfg of its own.
type matchPlan struct {
	cfg match.Config
	tn  *match.Tournament
}

// conf returns the configuration that gets the outputs, the judges and
// the games played before: the match's or the tournament's.
func (p *matchPlan) conf() *match.Config {
	if p.tn != nil {
		return &p.tn.Config
	}
	return &p.cfg
}

// plan checks the flags and returns the match or tournament they ask
// for; every error is a usage error.
func (f *matchFlags) plan(fs *pflag.FlagSet) (*matchPlan, error) {
	cfg, engines, err := f.config(fs.Changed("last-four"), fs.Changed("sprt"))
	if err == nil {
		err = f.adjudication(&cfg, fs.Changed("resign"), fs.Changed("draw"))
	}
	if err != nil {
		return nil, err
	}
	if err := hoyitoOnly(fs, cfg.Variant); err != nil {
		return nil, err
	}
	tn, err := f.tournament(cfg, engines)
	if err != nil {
		return nil, err
	}
	p := &matchPlan{cfg: cfg, tn: tn}
	if tn == nil {
		p.cfg.Engines = [2]match.EngineSpec(engines)
	}
	return p, nil
}

// check refuses, before any work, what p cannot do with the flags given:
// the --out file, the proof and table adjudications on a broker, the
// broker's flags (connecting to the broker); it returns the games
// --played-out holds, if given.
func (f *matchFlags) check(fs *pflag.FlagSet, p *matchPlan, onBroker *matchOnBroker) (*playedOut, error) {
	broker := onBroker.url != ""
	if err := f.outCheck(broker); err != nil {
		return nil, err
	}
	po, err := f.readPlayedOut()
	if err != nil {
		return nil, err
	}
	if f.proven && broker {
		return nil, usagef("--adjudicate-proven with --broker: the workers do not adjudicate by proof")
	}
	if err := f.proofFlags(fs.Changed("adjudicate-nodes"), fs.Changed("adjudicate-every")); err != nil {
		return nil, err
	}
	if f.tablesDir != "" && broker {
		return nil, usagef("--tables with --broker: the workers do not read the endgame tables")
	}
	if err := onBroker.check(fs, &p.cfg, p.tn); err != nil {
		return nil, err
	}
	return po, nil
}

// resumeMatch gives p the games --out holds (--resume), once they are
// known to be p's, and makes the file end with a whole line.
func (c *cli) resumeMatch(f *matchFlags, p *matchPlan, onBroker bool) error {
	if err := f.resumeCheck(onBroker); err != nil {
		return err
	}
	pf, err := readPlayed(f.out)
	if err != nil {
		return err
	}
	p.conf().Played = pf.games
	check := p.cfg.CheckPlayed
	if p.tn != nil {
		check = p.tn.CheckPlayed
	}
	if err := check(); err != nil {
		return usagef("--out %s: %v", f.out, err)
	}
	return pf.mend(c.stderr)
}

// matchOutput is a file a flag names for the match to write: its flag,
// its path ("" when not given) and the writer of the configuration that
// gets it.
type matchOutput struct {
	flag, path string
	w          *io.Writer
}

// outputs returns the files of --out, --pgn and --log, with conf's
// writers of them.
func (f *matchFlags) outputs(conf *match.Config) []matchOutput {
	return []matchOutput{{"--out", f.out, &conf.JSON}, {"--pgn", f.pgn, &conf.PGN}, {"--log", f.log, &conf.Log}}
}

// checkOutputs refuses, before any work, an output that cannot be
// written.
func checkOutputs(outputs []matchOutput) error {
	for _, o := range outputs {
		if o.path != "" {
			if err := checkOutput(o.flag, o.path); err != nil {
				return err
			}
		}
	}
	return nil
}

// openOutputs opens the outputs given, to append to, as their writers;
// it returns the files opened, those before an error too.
func openOutputs(outputs []matchOutput) ([]*os.File, error) {
	var files []*os.File
	for _, o := range outputs {
		if o.path == "" {
			continue
		}
		fl, err := os.OpenFile(o.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return files, flagError(o.flag, err)
		}
		files = append(files, fl)
		*o.w = fl
	}
	return files, nil
}

// closeFiles closes files and returns the first error.
func closeFiles(files []*os.File) error {
	var first error
	for _, fl := range files {
		if err := fl.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// judges sets the judges of proven results p's games ask after every
// move, as --adjudicate-proven and --tables say; the function returned
// closes the tables.
func (c *cli) judges(ctx context.Context, f *matchFlags, p *matchPlan) (closeTables func(), err error) {
	conf := p.conf()
	if f.proven {
		if err := c.adjudicateProven(ctx, conf, p.cfg.Variant, f.adjNodes, f.adjEvery); err != nil {
			return nil, err
		}
	}
	if f.tablesDir == "" {
		return func() {}, nil
	}
	j, err := openTableJudge(f.tablesDir, p.cfg.Variant, p.cfg.Traditional)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(c.stderr, "Adjudicating by the endgame tables of %s: positions of 8 to %d seeds\n", f.tablesDir, j.top())
	conf.Proven = j.judge
	return j.close, nil
}

// checkEngines starts every engine of p once, so that a bad command or
// option fails before any game (match.Config.Check).
func (p *matchPlan) checkEngines(ctx context.Context) error {
	check := p.cfg.Check
	if p.tn != nil {
		check = p.tn.Check
	}
	if err := check(ctx); err != nil {
		return usageError{err}
	}
	return nil
}

// playMatch plays p, here or on the broker, with the report on stdout
// and the progress, after a line that describes p, on stderr; it returns
// the number of games played.
func (c *cli) playMatch(ctx context.Context, f *matchFlags, p *matchPlan, onBroker *matchOnBroker) (int, error) {
	onBroker.out, onBroker.pgn = f.out, f.pgn
	conf := p.conf()
	conf.Report, conf.Progress = c.stdout, c.stderr
	where := fmt.Sprintf("concurrency %d", max(conf.Concurrency, 1))
	if onBroker.url != "" {
		where = "on the broker's workers"
	}
	fmt.Fprintln(c.stderr, p.heading(where))
	if p.tn != nil {
		st, err := onBroker.runTournament(ctx, *p.tn)
		return st.Games, err
	}
	sum, err := onBroker.run(ctx, p.cfg)
	return sum.Score.Games(), err
}

// heading describes p in a line: its engines, game, games and limits,
// and where it is played.
func (p *matchPlan) heading(where string) string {
	cfg, tn := &p.cfg, p.tn
	if tn == nil {
		return fmt.Sprintf("Match %s vs %s: %s, %d games, %s, %s",
			cfg.Engines[0].Name, cfg.Engines[1].Name, cfg.Variant.Name(), cfg.Games, limitsText(cfg.Engines[:]), where)
	}
	names := make([]string, len(tn.Engines))
	for i, e := range tn.Engines {
		names[i] = e.Name
	}
	return fmt.Sprintf("Tournament (%s) of %s: %s, %d pairings of %d games, %d games, %s, %s",
		tn.Format, strings.Join(names, ", "), cfg.Variant.Name(), len(tn.Format.Pairings(len(names))), cfg.Games, tn.Games(),
		limitsText(tn.Engines), where)
}

// stopped returns the error of a match that ended with err after played
// games: an interruption says how many were played and, when the same
// command with --resume would play the rest, so.
func (f *matchFlags) stopped(err error, played int, onBroker bool) error {
	if !errors.Is(err, context.Canceled) {
		return err
	}
	if f.out != "" && f.pgn == "" && !onBroker && !f.appendOut {
		return interruptedf("after %d games; the same command with --resume plays the rest", played)
	}
	return interruptedf("after %d games", played)
}

// judgeFunc is what Config.Proven asks after every move: the result of
// the position reached after the positions whose keys are history, when
// it is proven, and why.
type judgeFunc func(p board.Position, history []uint64) (board.Result, string, bool)

// adjudicateProven sets what --adjudicate-proven asks after every move
// of conf's games: the result the proof book of v's game proves
// (katro-4x6), or else, at the game's first ply and every every plies
// after it, the win a df-pn search within nodes nodes proves (nodes 0:
// the book alone), with a solver for each game worker.
func (c *cli) adjudicateProven(ctx context.Context, conf *match.Config, v *board.Variant, nodes uint64, every int) error {
	if v.Family() != board.Katro {
		return usagef("--adjudicate-proven: the proofs are of Katro games, not %s (whose endgame tables adjudicate with --tables)", v.Name())
	}
	var byBook judgeFunc
	if len(book.Files(c.proofs, v.Name())) > 0 {
		var err error
		if byBook, err = c.bookJudge(ctx, v); err != nil {
			return err
		}
	} else if nodes == 0 {
		return usagef("--adjudicate-proven with --adjudicate-nodes 0: no proof book for %s (there is one for %s), and no df-pn search", v.Name(), strings.Join(book.Games(c.proofs), ", "))
	}
	if nodes == 0 {
		conf.Proven = byBook
		return nil
	}
	fmt.Fprintf(c.stderr, "Adjudicating by df-pn: %d nodes for each side's win, at ply 1 and every %d plies after it\n", nodes, every)
	conf.NewProven = func() func(board.Position, []uint64) (board.Result, string, bool) {
		d := newDfpnJudge(nodes, every)
		if byBook == nil {
			return d.judge
		}
		return func(p board.Position, history []uint64) (board.Result, string, bool) {
			if res, why, ok := byBook(p, history); ok {
				return res, why, ok
			}
			return d.judge(p, history)
		}
	}
	return nil
}

// bookJudge loads the proof book of v's game and returns the result it
// proves of a position.
func (c *cli) bookJudge(ctx context.Context, v *board.Variant) (judgeFunc, error) {
	lib := &book.Library{FS: c.proofs}
	defer lib.Close()
	if c.proofs == nil {
		lib.CacheDir = book.DefaultCacheDir()
	}
	fmt.Fprintf(c.stderr, "Loading the proof book of %s (from its cache, or the certificates the first time: half a minute)\n", v.Name())
	b, err := lib.Wait(ctx, v.Name())
	if err != nil {
		return nil, fmt.Errorf("proof book: %w", err)
	}
	if w := lib.Warning(v.Name()); w != nil {
		fmt.Fprintf(c.stderr, "proof book: %v\n", w)
	}
	return func(p board.Position, _ []uint64) (board.Result, string, bool) {
		_, plies, win, ok := b.Probe(&p)
		if !ok {
			return board.None, "", false
		}
		winner := p.Side()
		if !win {
			winner = winner.Other()
		}
		res := board.SouthWins
		if winner == board.North {
			res = board.NorthWins
		}
		return res, fmt.Sprintf("proof adjudication: the proof book has %s winning within %d plies", winner, plies), true
	}, nil
}

// proofFlags refuses --adjudicate-nodes and --adjudicate-every without
// --adjudicate-proven, and a schedule below one ply.
func (f *matchFlags) proofFlags(nodesSet, everySet bool) error {
	switch {
	case (nodesSet || everySet) && !f.proven:
		return usagef("--adjudicate-nodes and --adjudicate-every set --adjudicate-proven's df-pn search: add --adjudicate-proven")
	case f.adjEvery < 1:
		return usagef("--adjudicate-every %d: want 1 or more plies", f.adjEvery)
	}
	return nil
}

// adjudication reads --resign and --draw into cfg.
func (f *matchFlags) adjudication(cfg *match.Config, resignSet, drawSet bool) error {
	if resignSet {
		r, err := match.ParseResign(f.resign)
		if err != nil {
			return usagef("--resign: %v", err)
		}
		cfg.Resign = &r
	}
	if drawSet {
		d, err := match.ParseDraw(f.draw)
		if err != nil {
			return usagef("--draw: %v", err)
		}
		cfg.Draw = &d
	}
	return nil
}

// formatFlag returns the flag of a tournament's format.
func formatFlag(f match.Format) string {
	if f == match.Gauntlet {
		return "gauntlet"
	}
	return "round-robin"
}

// tournament returns the tournament the flags ask for, or nil for a
// match of two engines.
func (f *matchFlags) tournament(cfg match.Config, engines []match.EngineSpec) (*match.Tournament, error) {
	if !f.gauntlet && !f.roundRobin {
		switch {
		case f.anchor != "":
			return nil, usagef("--anchor is for a tournament's ratings: add --gauntlet or --round-robin")
		case len(engines) != 2:
			return nil, usagef("--engines: %d engines chosen; a match needs two (--engine name=A --engine name=B), a tournament --gauntlet or --round-robin", len(engines))
		}
		return nil, nil
	}
	tn := &match.Tournament{Config: cfg, Engines: engines, Format: match.RoundRobin, Anchor: -1}
	if f.gauntlet {
		tn.Format = match.Gauntlet
	}
	switch {
	case f.gauntlet && f.roundRobin:
		return nil, usagef("--gauntlet and --round-robin: give one")
	case cfg.SPRT != nil:
		return nil, usagef("--sprt tests two engines: a tournament (--%s) has no sequential test", formatFlag(tn.Format))
	case cfg.Traditional:
		return nil, usagef("--traditional-match is a match of two engines, not a tournament")
	}
	if f.anchor != "" {
		tn.Anchor = slices.IndexFunc(engines, func(e match.EngineSpec) bool { return e.Name == f.anchor })
		if tn.Anchor < 0 {
			return nil, usagef("--anchor %s: not an engine of the tournament", f.anchor)
		}
	}
	if err := tn.Validate(); err != nil {
		return nil, usageError{err}
	}
	return tn, nil
}

// outCheck refuses, before any work, an --out file that holds games
// already unless --resume or --append says what they are: the same match,
// whose games are counted, or another, whose games the new ones follow.
// Without either, a stopped match run again would write its games 1, 2, …
// a second time after the first run's. The file is not changed. On a
// broker the same command resumes the match, and a file that holds games
// is expected.
func (f *matchFlags) outCheck(onBroker bool) error {
	switch {
	case f.appendOut && f.out == "":
		return usagef("--append needs --out, the file to add the games to")
	case f.appendOut && f.resume:
		return usagef("--append and --resume: give one (--resume continues the match --out holds, --append adds a new match's games to it)")
	case f.out == "" || f.resume || f.appendOut || onBroker:
		return nil
	}
	held, err := holdsData(f.out)
	if err != nil {
		return flagError("--out", err)
	}
	if held {
		return usagef("--out %s: holds games already; add --resume to continue that match, or --append to add a new match's games to it", f.out)
	}
	return nil
}

// holdsData reports whether path is a regular file with more than white
// space in it. A file that is not there, or not a regular file (a named
// pipe, a device, a directory), holds nothing to keep: what is wrong with
// such a path is checkOutput's to say.
func holdsData(path string) (bool, error) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return false, nil
	}
	fl, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer fl.Close()
	r := bufio.NewReader(fl)
	for {
		b, err := r.ReadByte()
		switch {
		case errors.Is(err, io.EOF):
			return false, nil
		case err != nil:
			return false, err
		case b != ' ' && b != '\t' && b != '\n' && b != '\r':
			return true, nil
		}
	}
}

// resumeCheck checks that --resume has what it needs.
func (f *matchFlags) resumeCheck(onBroker bool) error {
	switch {
	case onBroker:
		return usagef("--resume is for a match played here: on the broker the same command resumes the match")
	case f.out == "":
		return usagef("--resume needs --out, the file of the games played before")
	case f.pgn != "":
		return usagef("--resume continues the --out file only; leave out --pgn")
	}
	return nil
}

// limitsText describes the engines' limits: "tc=10+0.1" when they
// agree, else each's: "tc=10+0.1 vs depth=2", "builtin vs builtin vs
// depth=2".
func limitsText(engines []match.EngineSpec) string {
	s := make([]string, len(engines))
	for i, e := range engines {
		s[i] = e.Limit.String()
		if e.Builtin != "" {
			s[i] = "builtin"
		}
	}
	if len(slices.Compact(slices.Clone(s))) == 1 {
		return s[0]
	}
	return strings.Join(s, " vs ")
}

// config checks the flags and builds the configuration every game shares
// and the engines (engine1 first), which the caller makes a match or a
// tournament of; every error is a usage error.
func (f *matchFlags) config(lastFourSet, sprtSet bool) (match.Config, []match.EngineSpec, error) {
	var cfg match.Config
	var err error
	if cfg.Variant, err = f.variant(); err != nil {
		return cfg, nil, err
	}
	var shared timecontrol.Limit
	if f.tc != "" {
		if shared, err = timecontrol.ParseTimeControl(f.tc); err != nil {
			return cfg, nil, usagef("--tc: %v", err)
		}
	}
	if err := f.checkNumbers(lastFourSet); err != nil {
		return cfg, nil, err
	}
	shared.MoveTime = time.Duration(f.movetime) * time.Millisecond
	shared.Nodes, shared.Depth = f.nodes, f.depth

	engines, err := f.engineList(shared)
	if err != nil {
		return cfg, nil, err
	}

	if f.openings != "" {
		if cfg.Openings, err = readOpeningsFile(f.openings, cfg.Variant); err != nil {
			return cfg, nil, err
		}
	}
	if sprtSet {
		t, err := match.ParseSPRT(f.sprt)
		if err != nil {
			return cfg, nil, usagef("--sprt: %v", err)
		}
		cfg.SPRT = &t
	}
	cfg.RandomPlies, cfg.Seed = f.randomPlies, f.seed
	cfg.ShuffleOpenings, cfg.NoRepeat = f.order == "random", !f.repeat
	cfg.Games, cfg.Concurrency, cfg.Traditional, cfg.Ponder = f.games, f.concurrency, f.traditional, f.ponder
	cfg.TimeMargin = time.Duration(f.margin) * time.Millisecond
	cfg.Timeout = time.Duration(f.timeout) * time.Millisecond
	cfg.ReportEvery = f.report
	return cfg, engines, nil
}

// variant returns the game the flags name under the rule options they
// set; every error is a usage error.
func (f *matchFlags) variant() (*board.Variant, error) {
	g := gameFlags{game: f.game, captureSide: f.captureSide, lastFour: f.lastFour, repetition: f.repetition, limit: f.noCaptureLimit}
	return g.variant()
}

// checkNumbers refuses the numbers out of range and the flags that do not
// go together, as usage errors.
func (f *matchFlags) checkNumbers(lastFourSet bool) error {
	switch {
	case f.movetime < 0:
		return usagef("--movetime %d: want a positive number of milliseconds", f.movetime)
	case f.depth < 0 || f.depth > 255:
		return usagef("--depth %d: want 1 to 255", f.depth)
	case f.margin < 0:
		return usagef("--timemargin %d: want 0 or more milliseconds", f.margin)
	case f.timeout <= 0:
		return usagef("--timeout %d: want a positive number of milliseconds", f.timeout)
	case f.games < 1:
		return usagef("--games %d: want at least 1", f.games)
	case f.concurrency < 1:
		return usagef("--concurrency %d: want at least 1", f.concurrency)
	case f.randomPlies < 0:
		return usagef("--random-plies %d: want 0 or more", f.randomPlies)
	case f.report < 0:
		return usagef("--report %d: want 0 or more", f.report)
	case f.openings != "" && f.randomPlies > 0:
		return usagef("give --openings or --random-plies, not both")
	case f.order != "sequential" && f.order != "random":
		return usagef("--openings-order %q: want sequential or random", f.order)
	case f.order == "random" && f.openings == "":
		return usagef("--openings-order random shuffles the --openings file; give one")
	case f.traditional && lastFourSet:
		return usagef("--traditional-match sets LastFour game by game; leave out --last-four")
	}
	return nil
}

// readOpeningsFile reads the start positions of v in the --openings
// file path.
func readOpeningsFile(path string, v *board.Variant) ([]board.Position, error) {
	fl, err := os.Open(path)
	if err != nil {
		return nil, flagError("--openings", err)
	}
	defer fl.Close()
	openings, err := match.ReadOpenings(fl, v)
	if err != nil {
		return nil, usagef("--openings %s: %v", path, err)
	}
	return openings, nil
}

// engineList returns the engines the flags give: --engine1 and --engine2,
// or those --engine chooses from the --engines file, with the shared
// limit and the --option options where they set none of their own.
func (f *matchFlags) engineList(shared timecontrol.Limit) ([]match.EngineSpec, error) {
	each, err := parseOptions("--option", f.each)
	if err != nil {
		return nil, err
	}
	if f.enginesFile != "" || len(f.chosen) > 0 {
		return f.fileEngines(shared, each)
	}
	var out []match.EngineSpec
	for i := range 2 {
		flag := fmt.Sprintf("--engine%d", i+1)
		if strings.TrimSpace(f.engine[i]) == "" {
			return nil, usagef("%s is required", flag)
		}
		e, err := match.ParseEngine(f.engine[i])
		if err != nil {
			return nil, usagef("%s: %v", flag, err)
		}
		if f.name[i] != "" {
			e.Name = f.name[i]
		}
		e.Limit = shared
		if f.limit[i] != "" {
			if e.Limit, err = timecontrol.ParseLimit(f.limit[i]); err != nil {
				return nil, usagef("--limit%d: %v", i+1, err)
			}
		}
		own, err := parseOptions(fmt.Sprintf("--option%d", i+1), f.options[i])
		if err != nil {
			return nil, err
		}
		if e.Builtin == "" {
			own = mergeOptions(each, own)
		}
		e.Options = own
		out = append(out, e)
	}
	if a, b := out[0].Name, out[1].Name; a == b && f.name[0] == "" && f.name[1] == "" {
		out[0].Name, out[1].Name = a+"-1", b+"-2"
	}
	return out, nil
}

// fileEngines returns the engines --engine chooses from the --engines
// file.
func (f *matchFlags) fileEngines(shared timecontrol.Limit, each []match.Option) ([]match.EngineSpec, error) {
	if f.enginesFile == "" {
		return nil, usagef("--engine chooses from an engines file: give --engines FILE")
	}
	for i := range 2 {
		for _, fl := range []struct {
			name string
			set  bool
		}{{"engine", f.engine[i] != ""}, {"name", f.name[i] != ""}, {"option", len(f.options[i]) > 0}, {"limit", f.limit[i] != ""}} {
			if fl.set {
				return nil, usagef("--%s%d with --engines: the engines come from the file (set names, options and limits there)", fl.name, i+1)
			}
		}
	}
	data, err := os.ReadFile(f.enginesFile)
	if err != nil {
		return nil, flagError("--engines", err)
	}
	file, err := match.ReadEngines(data)
	if err != nil {
		return nil, usagef("--engines %s: %v", f.enginesFile, err)
	}
	engines, err := match.SelectEngines(file, f.chosen)
	if err != nil {
		return nil, usagef("--engine %v", err)
	}
	for i := range engines {
		e := &engines[i]
		if e.Limit.IsZero() {
			e.Limit = shared
		}
		if e.Builtin == "" {
			e.Options = mergeOptions(each, e.Options)
		}
	}
	return engines, nil
}

// parseOptions reads the Name=Value options of a repeatable flag.
func parseOptions(flag string, values []string) ([]match.Option, error) {
	var out []match.Option
	for _, s := range values {
		o, err := match.ParseOption(s)
		if err != nil {
			return nil, usagef("%s: %v", flag, err)
		}
		out = append(out, o)
	}
	return out, nil
}

// mergeOptions returns the options every engine gets (each) followed by
// an engine's own, leaving out those of each that the engine sets itself
// (names compared without regard to case).
func mergeOptions(each, own []match.Option) []match.Option {
	var out []match.Option
	for _, o := range each {
		if !slices.ContainsFunc(own, func(x match.Option) bool { return strings.EqualFold(x.Name, o.Name) }) {
			out = append(out, o)
		}
	}
	return append(out, own...)
}
