package main

import (
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
	"github.com/sower-engine/sower/search"
	"github.com/sower-engine/sower/search/dfpn"
	"github.com/sower-engine/sower/search/dfpn/campaign"
	"github.com/sower-engine/sower/search/dfpn/split"
)

// The solver's methods.
const (
	methodAB   = "ab"
	methodDfpn = "dfpn"
)

// Default table sizes of the two methods, in MiB.
const (
	defaultABHash   = 64
	defaultDfpnHash = 1024
)

// solveFlags are solve's options besides the position.
type solveFlags struct {
	method  string
	tables  string
	hash    int
	depth   int
	proof   string
	threads int
	save    string
	resume  string
	first   string
	// each solves the position after each legal move instead of the
	// position itself, eachNodes nodes at most for each question.
	each      bool
	eachNodes uint64
	// walk is how many times --each goes down the line left open (0:
	// not at all).
	walk int
	// split is the tree file of a split proof (search/dfpn/split), with
	// its leaf budget and the steps of this run (0: no limit).
	split      string
	splitNodes uint64
	splitSteps int
	// work, step, saveEvery and cutPlies are a campaign's work
	// directory, step, time between saves in ms and depth of its cuts
	// (solve_campaign.go).
	work      string
	step      uint64
	saveEvery int
	cutPlies  int
	fs        *pflag.FlagSet
	// brk holds the flags of a proof whose leaves the broker's workers
	// search (solve_broker.go).
	brk *proofOnBroker
	// dfpn is the proof-number search's configuration that hash and
	// threads give (filled by check).
	dfpn dfpn.Config
}

// add adds the flags.
func (o *solveFlags) add(fs *pflag.FlagSet) {
	o.fs = fs
	fs.StringVar(&o.method, "method", "", "ab (iterative-deepening alpha-beta) or dfpn (proof-number search, Katro only); default dfpn for Katro (ab when --depth or --tables is given), ab for Hoyito III")
	fs.StringVar(&o.tables, "tables", "", "Hoyito III endgame tables to use (--method ab)")
	fs.IntVar(&o.hash, "hash", 0, "transposition table size in MiB (default 64 for ab, 1024 for dfpn)")
	fs.IntVar(&o.depth, "depth", 0, "--method ab: give up after this depth (0: until solved or interrupted)")
	fs.StringVar(&o.proof, "proof", "", "--method dfpn: write the proof's certificate to FILE: compact (v2), or v1 text when FILE ends in .txt or .txt.gz; see sower verify")
	fs.IntVar(&o.threads, "threads", 1, "--method dfpn: threads searching the one table")
	fs.StringVar(&o.save, "save", "", "--method dfpn: write the solver's table to FILE at the end and on Ctrl-C, for --resume")
	fs.StringVar(&o.resume, "resume", "", "--method dfpn: start from the table that --save wrote to FILE")
	fs.StringVar(&o.first, "first", "eval", "--method dfpn: whose win to try to prove first: eval (the side the static evaluation favours), mover (the side to move), opponent, south or north; once a win is proven the other question is not asked")
	fs.BoolVar(&o.each, "each", false, "--method dfpn: solve the position after each legal move in turn, one table for all, and say what they prove of this one")
	fs.Uint64Var(&o.eachNodes, "each-nodes", 0, "--method dfpn with --each: give up on a move's position after about N nodes for each side's question (0: no limit)")
	fs.IntVar(&o.walk, "walk", 0, "--method dfpn with --each: when all moves but one lose, go on to the position after that move and the opponent's best try, up to N times (one table, read once)")
	fs.StringVar(&o.split, "split", "", "--method dfpn: prove --first's win with a tree of bounded df-pn searches kept in FILE (read when it exists, its side then the default; written after every step: run again to go on)")
	fs.Uint64Var(&o.splitNodes, "split-nodes", split.DefaultLeafNodes, "--split: nodes of one leaf's search (the file's own when it exists and this is not given)")
	fs.IntVar(&o.splitSteps, "split-steps", 0, "--split: stop after N steps (0: when the root is settled, or on Ctrl-C)")
	fs.StringVar(&o.work, "work", "", "--proof without --save, --resume, --each or --split (a proof campaign): the work directory, kept until the certificate is written; the same command goes on from it (default FILE.work)")
	fs.Uint64Var(&o.step, "step", campaign.DefaultStep, "a proof campaign: nodes of one step")
	fs.IntVar(&o.saveEvery, "save-every", int(campaign.DefaultSaveEvery/time.Millisecond), "a proof campaign: milliseconds between saves of the table to the work directory")
	fs.IntVar(&o.cutPlies, "cut-plies", campaign.DefaultCutPlies, "a proof campaign: how many plies below the root a piece may be cut (0: never)")
}

// check fills the defaults and checks the options against the game.
func (o *solveFlags) check(c *cli, v *board.Variant) error {
	katro := v.Family() == board.Katro
	switch o.method {
	case "":
		// --depth and --tables belong to the alpha-beta solver: asking
		// for them asks for it.
		o.method = methodAB
		if katro && !o.fs.Changed("depth") && !o.fs.Changed("tables") {
			o.method = methodDfpn
		}
	case methodAB:
	case methodDfpn:
		if !katro {
			return usagef("--method dfpn: proof-number search is for Katro; Hoyito III is solved with --method ab")
		}
	default:
		return usagef("--method %q: want ab or dfpn", o.method)
	}
	if o.hash == 0 && !o.fs.Changed("hash") {
		o.hash = defaultABHash
		if o.method == methodDfpn {
			o.hash = defaultDfpnHash
		}
	}
	fits := search.CheckSolveMemory
	if o.method == methodDfpn {
		fits = search.CheckHashMemory
	}
	if err := c.checkHash(o.hash, fits); err != nil {
		return err
	}
	if o.depth < 0 || o.depth >= search.MaxPly {
		return usagef("--depth %d: want 0 to %d", o.depth, search.MaxPly-1)
	}
	if o.method == methodDfpn && o.fs.Changed("depth") {
		return usagef("--depth: only for --method ab (proof-number search has no depth)")
	}
	if o.method == methodDfpn && (o.threads < 1 || o.threads > dfpn.MaxThreads) {
		return usagef("--threads %d: want 1 to %d", o.threads, dfpn.MaxThreads)
	}
	if o.method == methodAB && o.fs.Changed("threads") {
		return usagef("--threads: only for --method dfpn")
	}
	if err := o.checkDfpn(); err != nil {
		return err
	}
	if o.method == methodAB && (o.save != "" || o.resume != "") {
		return usagef("--save and --resume: only for --method dfpn")
	}
	if o.save != "" {
		if err := checkOutput("--save", o.save); err != nil {
			return err
		}
	}
	if o.method == methodAB && o.proof != "" {
		return usagef("--proof: certificates are written by --method dfpn (Katro)")
	}
	if o.proof != "" {
		if err := checkOutput("--proof", o.proof); err != nil {
			return err
		}
	}
	return nil
}

// checkDfpn checks the proof-number search's own options and fills o.dfpn.
func (o *solveFlags) checkDfpn() error {
	for _, name := range []string{"first", "each", "each-nodes", "walk", "split"} {
		if o.method == methodAB && o.fs.Changed(name) {
			return usagef("--%s: only for --method dfpn", name)
		}
	}
	if _, err := o.firstSide(board.South, 0); err != nil {
		return err
	}
	if o.fs.Changed("each-nodes") && !o.each {
		return usagef("--each-nodes: only with --each")
	}
	switch {
	case o.walk < 0:
		return usagef("--walk %d: want 0 or more", o.walk)
	case o.fs.Changed("walk") && !o.each:
		return usagef("--walk: only with --each")
	}
	if o.each && o.proof != "" {
		return usagef("--proof: not with --each (solve the position without --each, --resume the table --each saved, for its certificate)")
	}
	if err := o.checkSplit(); err != nil {
		return err
	}
	if err := o.brk.check(o); err != nil {
		return err
	}
	o.dfpn = dfpn.Config{HashMiB: o.hash, Threads: o.threads}
	return nil
}

// walkFirst checks --first for --walk at a root whose side to move is
// mover: the walk reads the opponent's numbers at each move's position,
// where the opponent is to move, so that question is asked first there
// (--first mover, or the opponent's name; each.Run asks it whatever
// --first says): a --first given that names another side is refused.
func (o *solveFlags) walkFirst(mover board.Side) error {
	switch {
	case !o.fs.Changed("first"), o.first == "mover", o.first == strings.ToLower(mover.Other().String()):
		return nil
	}
	return usagef("--first %s: --walk asks first for %s's win at each move's position, where %s is to move (--first mover)", o.first, mover.Other(), mover.Other())
}

// firstAt returns the side whose win --first asks about first in p (the
// static evaluation is read only for --first eval); --first is one that
// checkDfpn accepted.
func (o *solveFlags) firstAt(p *board.Position) board.Side {
	score := 0
	if o.first == "eval" {
		score = eval.New(p.Variant()).Evaluate(p)
	}
	side, _ := o.firstSide(p.Side(), score) // checked by checkDfpn
	return side
}

// firstSide returns the side whose win --first asks about first when
// mover is to move and the static evaluation is score from its point of
// view.
func (o *solveFlags) firstSide(mover board.Side, score int) (board.Side, error) {
	switch o.first {
	case "mover":
		return mover, nil
	case "opponent":
		return mover.Other(), nil
	case "eval":
		if score < 0 {
			return mover.Other(), nil
		}
		return mover, nil
	case "south":
		return board.South, nil
	case "north":
		return board.North, nil
	}
	return 0, usagef("--first %q: want mover, opponent, eval, south or north", o.first)
}
