package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
	"github.com/sower-engine/sower/eval/nnue"
	"github.com/sower-engine/sower/protocol"
	"github.com/sower-engine/sower/search"
	"github.com/sower-engine/sower/search/book"
)

// defaultAnalyseTime is how long analyse searches when given no limit.
const defaultAnalyseTime = 3 * time.Second

func (c *cli) analyse(args []string) error {
	var g gameFlags
	var lf limitFlags
	var hash, multiPV, threads int
	var tdir string
	var showWDL, useBook bool
	var format string
	fs := c.flags("analyse", `[--game G] [--fen F] [--moves "…"] [--depth N | --movetime MS | --nodes N] [--hash MB] [--multipv N] [--threads N] [--tables DIR] [--wdl=false] [--book=false] [--format auto|text|uci] [--eval auto|linear|net [--evalfile FILE] [--evallazy N]]`)
	g.add(fs, true)
	lf.add(fs, "", defaultAnalyseTime)
	fs.IntVar(&hash, "hash", search.DefaultHashMiB, "transposition table size in MiB")
	fs.IntVar(&multiPV, "multipv", 1, "show the best N moves, each with its score and line")
	fs.IntVar(&threads, "threads", search.DefaultThreads, "search with N threads")
	fs.StringVar(&tdir, "tables", "", "Hoyito III endgame tables to search with")
	fs.BoolVar(&showWDL, "wdl", true, "show the win/draw/loss forecast (wdl W D L, per mille) on every info line; --wdl=false leaves it out")
	fs.BoolVar(&useBook, "book", true, "answer at once from the embedded proof book where it holds the position (a proven result with the proof's move); --book=false searches instead")
	fs.StringVar(&format, "format", formatAuto, "text: a line a depth for people (scores as +2.31 or #9), then a summary; uci: the protocol's info lines; auto: text in a terminal, uci otherwise")
	ee := addEngineEvalFlags(fs, "auto")
	if err := parse(fs, args); err != nil {
		return err
	}
	if format != formatAuto && format != formatText && format != formatUCI {
		return usagef("--format %q: want auto, text or uci", format)
	}
	nets, lazy, err := ee.load()
	if err != nil {
		return err
	}
	lim, err := lf.limits(defaultAnalyseTime)
	if err != nil {
		return err
	}
	if multiPV < 1 || multiPV > board.MaxMoves {
		return usagef("--multipv %d: want 1 to %d", multiPV, board.MaxMoves)
	}
	lim.MultiPV = multiPV
	if err := c.checkHash(hash, search.CheckHashMemory); err != nil {
		return err
	}
	game, err := g.build()
	if err != nil {
		return err
	}
	o := search.DefaultOptions()
	o.HashMiB, o.Threads, o.Nets, o.NetLazy = hash, threads, nets, lazy
	if tdir != "" {
		p := game.Position()
		tb, err := openTables(tdir, p.Variant())
		if err != nil {
			return err
		}
		defer tb.Close()
		o.Tables = tb
	}
	// Ctrl-C stops the search early; the best move so far is still shown.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if useBook {
		lib := &book.Library{CacheDir: book.DefaultCacheDir()}
		defer lib.Close()
		root := game.Position()
		if _, err := lib.Wait(ctx, root.Variant().Name()); err != nil {
			return fmt.Errorf("proof book: %w", err)
		}
		o.Books = lib
	}
	eng, err := c.newEngine(o)
	if err != nil {
		return err
	}
	if err := protocol.WriteBoard(c.stdout, game); err != nil {
		return err
	}
	sctx, settle := context.WithCancel(ctx)
	defer settle()
	pr := &reportPrinter{w: c.stdout, wdl: showWDL, settle: settle, text: textOutput(format, c.stdout)}
	res, err := eng.SearchWith(sctx, game.Position(), game.History(), lim, pr.callbacks())
	if err != nil {
		return err
	}
	switch {
	case pr.text:
		if res.Over.Over() {
			fmt.Fprintf(c.stdout, "game over: %s\n", protocol.StatusText(res.Over))
		}
		fmt.Fprintln(c.stdout, textSummary(res))
	default:
		if res.Over.Over() {
			pr.print(protocol.FormatInfo(res.Info, showWDL))
		}
		fmt.Fprintln(c.stdout, protocol.FormatBestMove(res.Move, res.Ponder))
	}
	if ctx.Err() != nil {
		return interruptedf("at depth %d: the best move so far is shown", res.Info.Depth)
	}
	return nil
}

// reportPrinter prints a search's reports for analyse in the protocol's
// format. Once a report is settled (search.Info.Settled: proven, and no
// deeper search can change it) it stops the search with settle and prints
// nothing more but the proof, where the search would otherwise iterate to
// its limit repeating the same line (up to 127 of them in a few
// milliseconds); and it never prints a line twice in a row.
type reportPrinter struct {
	w       io.Writer
	wdl     bool
	settle  func()
	settled bool
	last    string
	text    bool // for a person (textLine): no currmove, no bound lines
}

// print prints line unless it is the line printed last.
func (r *reportPrinter) print(line string) {
	if line == r.last {
		return
	}
	r.last = line
	fmt.Fprintln(r.w, line)
}

// callbacks returns the search callbacks that print through r.
func (r *reportPrinter) callbacks() search.Callbacks {
	return search.Callbacks{
		Info: func(i search.Info) {
			if r.settled {
				return
			}
			switch {
			case !r.text:
				r.print(protocol.FormatInfo(i, r.wdl))
			case i.Bound == search.BoundExact || i.Proven:
				r.print(textLine(i, r.wdl))
			}
			if i.Settled() {
				r.settled = true
				r.settle()
			}
		},
		CurrMove: func(m search.CurrMove) {
			if !r.settled && !r.text {
				r.print(protocol.FormatCurrMove(m))
			}
		},
		Proven: func(p search.Proof) {
			if r.text {
				r.print(textProof(p))
				return
			}
			r.print(protocol.FormatProof(p))
		},
	}
}

func (c *cli) eval(args []string) error {
	var g gameFlags
	var learned bool
	fs := c.flags("eval", `[--game G] [--fen F] [--moves "…"] [--learned | --eval auto|linear|net [--evalfile FILE]]`)
	g.add(fs, true)
	fs.BoolVar(&learned, "learned", false, "show the learned evaluation with the built-in weights, even in a handeval build")
	evalType, evalFile := addEvalFlags(fs, "auto")
	if err := parse(fs, args); err != nil {
		return err
	}
	if learned && fs.Changed("eval") && *evalType != "linear" {
		return usagef("--learned shows the linear evaluation; not with --eval %s", *evalType)
	}
	if learned && *evalFile != "" {
		return usagef("--learned shows the linear evaluation; not with --evalfile")
	}
	if learned {
		*evalType = "linear"
	}
	game, err := g.build()
	if err != nil {
		return err
	}
	nets, err := loadNets(*evalType, *evalFile)
	if err != nil {
		return err
	}
	p := game.Position()
	if st := game.Status(); st.Over() {
		// A finished game has a result, not an estimate.
		fmt.Fprint(c.stdout, p.Diagram())
		fmt.Fprintf(c.stdout, "game over: %s\n", protocol.StatusText(st))
		return nil
	}
	e := eval.New(p.Variant())
	if learned {
		w := eval.BuiltinParams(p.Variant())
		e = eval.NewLearned(p.Variant(), &w)
	}
	fmt.Fprint(c.stdout, p.Diagram())
	if len(nets) > 0 {
		for _, n := range nets {
			if n.Family != p.Variant().Family() {
				continue
			}
			source := "the built-in " + nnue.BuiltinName(n.Family)
			if *evalFile != "" && n == nets[0] {
				source = "file " + *evalFile
			}
			return protocol.WriteNetEval(c.stdout, n, source, &p, e)
		}
		if *evalType == "net" {
			fmt.Fprintf(c.stdout, "no %s network (%s): the linear evaluation plays\n", p.Variant().Family(), noNetReason(nets, *evalFile))
		}
	}
	if w := e.Learned(); w != nil {
		var a eval.Active
		e.Features(&p, &a)
		fmt.Fprintf(c.stdout, "learned evaluation, phase %d of %d (weights blended between end game and middle game)\n", a.Phase, eval.PhaseMax)
		fmt.Fprintf(c.stdout, "weights fitted on %s by: %s\n", w.Variant, w.Command)
	}
	return protocol.WriteEval(c.stdout, e, &p)
}

// noNetReason says why --eval net found no network for a family: the
// networks loadNets returned are --evalfile's (first, if given) and the
// built-in ones, and none is of that family.
func noNetReason(nets []*nnue.Net, evalFile string) string {
	if evalFile != "" {
		return fmt.Sprintf("--evalfile %s is a %s network, and none is built in", evalFile, nets[0].Family)
	}
	return "none is built in; give one with --evalfile"
}
