package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
	"github.com/sower-engine/sower/eval/nnue"
	"github.com/sower-engine/sower/eval/tune"
	"github.com/sower-engine/sower/search"
)

// tuneFlags are the flags of sower tune.
type tuneFlags struct {
	game, out, start            string
	data                        []string
	fitWDL, calibrate, wdlTable bool
	saveWDL                     string
	evalType, evalFile          *string
	cfg                         tune.Config
}

// tune is sower tune: it fits the linear evaluation's weights to the
// data of sower datagen, or, with --fit-wdl or --calibrate, fits or
// measures a win/draw/loss model on it.
func (c *cli) tune(args []string) error {
	f := tuneFlags{cfg: tune.DefaultConfig(board.Katro)}
	fs := c.flags("tune", "--game G --data FILE[,FILE…] (--out WEIGHTS.go | --fit-wdl | --calibrate) [flags]")
	f.add(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := f.check(fs); err != nil {
		return err
	}
	v, err := f.variant()
	if err != nil {
		return err
	}
	command := "sower tune " + strings.Join(args, " ")
	// The networks are checked before the data is read: a bad file is
	// found now, not after minutes of reading.
	w := wdlJob{fit: f.fitWDL, table: f.wdlTable, calibrate: f.calibrate, save: f.saveWDL, evalFile: *f.evalFile, command: command}
	if err := w.load(*f.evalType, v); err != nil {
		return err
	}
	d, err := c.loadDatasets(f.data, v)
	if err != nil {
		return err
	}
	if f.fitWDL || f.calibrate {
		return c.measureWDL(d, v, w)
	}
	f.cfg.Start.Command = command
	return c.fitWeights(d, v, f.cfg, f.out)
}

// add adds the flags of sower tune to fs.
func (f *tuneFlags) add(fs *pflag.FlagSet) {
	cfg := &f.cfg
	fs.StringVarP(&f.game, "game", "g", "", "game of the data: "+strings.Join(board.Names(), ", ")+" (default: the first file's)")
	fs.StringSliceVar(&f.data, "data", nil, "data files written by sower datagen (repeatable or comma-separated)")
	fs.StringVarP(&f.out, "out", "o", "", "write the weights here as a Go source file of package eval (eval/weights_<game>.go builds them in)")
	fs.StringVar(&f.start, "start", "hand", "weights to start from: hand (the hand-made evaluation) or builtin (the built-in learned weights)")
	fs.Float64Var(&cfg.Lambda, "lambda", cfg.Lambda, "weight of the game result in the target; 1-lambda goes to the search score")
	fs.Float64Var(&cfg.K, "k", 0, "sigmoid scale per hundredth of a seed (0: fit it on the start weights)")
	fs.IntVar(&cfg.Epochs, "epochs", cfg.Epochs, "most passes over the training positions")
	fs.IntVar(&cfg.Batch, "batch", cfg.Batch, "positions per optimiser step")
	fs.Float64Var(&cfg.Rate, "rate", cfg.Rate, "Adam step size in hundredths of a seed")
	fs.IntVar(&cfg.Patience, "patience", cfg.Patience, "stop after this many epochs without a better validation loss (0: never)")
	fs.Float64Var(&cfg.ValidShare, "valid", cfg.ValidShare, "share of the games held out for validation")
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed of the validation split and the order of positions")
	fs.BoolVar(&cfg.ScalarsOnly, "scalars-only", false, "fit only the scalar terms; the seed-count tables keep their start weights")
	fs.BoolVar(&f.fitWDL, "fit-wdl", false, "fit the win/draw/loss model (K and draw band) to the data's search scores and results, instead of tuning")
	fs.BoolVar(&f.calibrate, "calibrate", false, "measure the engine's win/draw/loss model on the data (forecast and observed score in ten bins), instead of tuning: the linear evaluation's, or with --eval net or auto a network's")
	fs.BoolVar(&f.wdlTable, "wdl-table", false, "with --fit-wdl: fit a table of the chances at scores a seed apart too, which then gives the forecasts (for results no logistic follows, as in Hoyito III: docs/tuning.md)")
	fs.StringVar(&f.saveWDL, "save-wdl", "", "with --fit-wdl: store the fitted model in this network file (docs/nnue.md), rewriting it")
	f.evalType, f.evalFile = addEvalFlags(fs, "linear")
	fs.Lookup("eval").Usage = "with --calibrate: the evaluation whose model it measures: linear, net (a network: --evalfile's, else the built-in one) or auto (each game's default evaluation)"
	fs.Lookup("evalfile").Usage = "with --calibrate --eval net or auto: the network file (docs/nnue.md) whose model it measures"
}

// check refuses, before any work, flags that do not go together or
// values no fit can use, and an --out file that cannot be written.
func (f *tuneFlags) check(fs *pflag.FlagSet) error {
	cfg := &f.cfg
	if err := (fitSettings{lambda: cfg.Lambda, rate: cfg.Rate, valid: cfg.ValidShare, batch: cfg.Batch, patience: cfg.Patience}).check(map[string]float64{"k": cfg.K}); err != nil {
		return err
	}
	switch {
	case len(f.data) == 0:
		return usagef("--data: give at least one data file")
	case f.wdlTable && !f.fitWDL:
		return usagef("--wdl-table: it is a part of the model --fit-wdl fits")
	case f.out == "" && !f.fitWDL && !f.calibrate:
		return usagef("--out: a weights file is required (or --fit-wdl or --calibrate)")
	case f.out != "" && (f.fitWDL || f.calibrate):
		return usagef("--out with --fit-wdl or --calibrate: those measure and write no weights")
	case f.saveWDL != "" && !f.fitWDL:
		return usagef("--save-wdl %s: it stores the model --fit-wdl fits", f.saveWDL)
	case (fs.Changed("eval") || fs.Changed("evalfile")) && !f.calibrate:
		return usagef("--eval and --evalfile choose the model --calibrate measures; not without it")
	case f.out != "" && !strings.HasSuffix(f.out, ".go"):
		return usagef("--out %s: the weights are written as Go source; name the file *.go", f.out)
	case cfg.K < 0:
		return usagef("--k %g: want 0 (fit) or more", cfg.K)
	case cfg.Epochs < 0:
		return usagef("--epochs %d: want 0 or more", cfg.Epochs)
	}
	// A bad --out is found now, not after the fit.
	if f.out != "" {
		return checkOutput("--out", f.out)
	}
	return nil
}

// variant returns the game of the data, --game's or else the first data
// file's, and sets the weights the fit starts from (--start).
func (f *tuneFlags) variant() (*board.Variant, error) {
	game := f.game
	if game == "" {
		var err error
		if game, err = dataGame(f.data[0]); err != nil {
			return nil, err
		}
	}
	v, err := board.New(game)
	if err != nil {
		return nil, flagError("--game", err)
	}
	switch f.start {
	case "hand":
		f.cfg.Start = eval.HandParams(v.Family())
	case "builtin":
		f.cfg.Start = eval.BuiltinParams(v)
	default:
		return nil, usagef("--start %q: want hand or builtin", f.start)
	}
	return v, nil
}

// loadDatasets reads the data files, of v's game, into one dataset,
// telling stderr the positions read after each.
func (c *cli) loadDatasets(data []string, v *board.Variant) (*tune.Dataset, error) {
	var d *tune.Dataset
	for i, name := range data {
		var err error
		if d, err = loadData(d, name, i, v); err != nil {
			return nil, err
		}
		fmt.Fprintf(c.stderr, "tune: %s: %d positions in all\n", name, d.Len())
	}
	return d, nil
}

// fitWeights fits the weights of v's linear evaluation to d, an epoch a
// line on stdout, and writes them to out, the best so far if
// interrupted.
func (c *cli) fitWeights(d *tune.Dataset, v *board.Variant, cfg tune.Config, out string) error {
	if err := checkDataSize(d.Sizes(cfg.ValidShare, cfg.Seed), cfg.ValidShare); err != nil {
		return err
	}
	if cfg.ValidShare == 0 {
		fmt.Fprintln(c.stderr, "tune: --valid 0: no validation set; the training set stands in for it, and early stopping follows the training loss")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg.Log = func(e tune.Epoch) {
		mark := ""
		if e.Best {
			mark = " *"
		}
		fmt.Fprintf(c.stdout, "epoch %3d  train %.6f  valid %.6f%s\n", e.N, e.Train, e.Valid, mark)
	}
	if cfg.K == 0 {
		fmt.Fprintln(c.stderr, "tune: fitting K")
	}
	res, err := tune.Tune(ctx, d, cfg)
	if err != nil {
		return err
	}
	c.reportFit(res, cfg.ValidShare)
	if err := writeWeights(out, v, &res.Params); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "weights written to %s\n", out)
	if ctx.Err() != nil {
		return interruptedf("after %d epochs: the best weights so far are written to %s", res.Epochs, out)
	}
	return nil
}

// reportFit writes the fit's K, sets and losses on stdout; share is the
// share of the games held out for validation.
func (c *cli) reportFit(res tune.Result, share float64) {
	valid := fmt.Sprintf("validation %d positions of %d games", res.Valid, res.ValidationSet)
	if share == 0 {
		valid = "validation on the training set (--valid 0)"
	}
	fmt.Fprintf(c.stdout, "K %.6f  training %d positions, %s\n", res.K, res.Train, valid)
	fmt.Fprintf(c.stdout, "validation loss: start %.6f, tuned %.6f (%d epochs%s)\n", res.StartLoss, res.Loss, res.Epochs, map[bool]string{true: ", stopped early", false: ""}[res.StoppedEarly])
}

// writeWeights writes the weights file whole or not at all: to a new file
// beside it, renamed over it once complete, so that a failure leaves an
// earlier file of the name as it was.
func writeWeights(out string, v *board.Variant, p *eval.Params) error {
	f, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*")
	if err != nil {
		return err
	}
	err = tune.WriteGo(f, v, p)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), out)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// The least data tune fits and validates on: fewer positions fit noise,
// and a validation loss of fewer games or positions cannot tell a better
// fit from luck. The CLI refuses less (checkDataSize) before any work.
const (
	minTrainPositions = 100
	minValidGames     = 2
	minValidPositions = 20
)

// checkDataSize refuses a dataset too small to fit or, with a validation
// share above 0, to validate, saying what it needs and what it found.
func checkDataSize(z tune.Sizes, share float64) error {
	if z.TrainPositions < minTrainPositions {
		return usagef("--data: too little data to fit: %d training positions of %d games, want at least %d; play more games with sower datagen",
			z.TrainPositions, z.TrainGames, minTrainPositions)
	}
	if share > 0 && (z.ValidGames < minValidGames || z.ValidPositions < minValidPositions) {
		return usagef("--valid %g: too little data to validate: %d positions of %d games held out (of %d games), want at least %d positions of %d games; play more games, raise --valid, or give --valid 0 to validate on the training set",
			share, z.ValidPositions, z.ValidGames, z.Games, minValidPositions, minValidGames)
	}
	return nil
}

// dataGame returns the game named in a data file's header.
func dataGame(name string) (string, error) {
	v, err := dataVariant(name)
	if err != nil {
		return "", err
	}
	return v.Name(), nil
}

// dataVariant returns the variant a data file was made for, with the
// rules its header records.
func dataVariant(name string) (*board.Variant, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, flagError("--data", err)
	}
	defer f.Close()
	r, err := tune.NewReader(f)
	if err != nil {
		return nil, usagef("--data %s: %v", name, err)
	}
	return r.Variant(), nil
}

// loadData adds a data file's records to d (made on the first file).
func loadData(d *tune.Dataset, name string, index int, v *board.Variant) (*tune.Dataset, error) {
	f, err := os.Open(name)
	if err != nil {
		return d, flagError("--data", err)
	}
	defer f.Close()
	r, err := tune.NewReader(f)
	if err != nil {
		return d, usagef("--data %s: %v", name, err)
	}
	if r.Variant().Name() != v.Name() {
		return d, usagef("--data %s: holds %s data, not %s", name, r.Variant().Name(), v.Name())
	}
	if d == nil {
		d = tune.NewDataset(r.Variant())
	}
	var rec tune.Record
	for {
		err := r.Read(&rec)
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return d, nil // a record cut short by an interrupted datagen is left out
		}
		if err != nil {
			return d, usagef("--data %s: %v", name, err)
		}
		d.Add(&rec, index)
	}
}

// wdlJob is what tune --fit-wdl and --calibrate do.
type wdlJob struct {
	fit, calibrate bool
	table          bool        // --wdl-table
	nets           []*nnue.Net // --eval's networks (none: linear)
	evalType       string      // --eval's value
	save           string      // --save-wdl's file
	evalFile       string      // --evalfile's
	saveNet        *nnue.Net   // its network
	command        string
}

// load reads the networks of w: --eval's and --save-wdl's, which
// must evaluate v, the data's board.
func (w *wdlJob) load(evalType string, v *board.Variant) error {
	w.evalType = evalType
	var err error
	if w.nets, err = loadNets(evalType, w.evalFile); err != nil {
		return err
	}
	if w.save == "" {
		return nil
	}
	if w.saveNet, err = nnue.ReadFile(w.save); err != nil {
		return usagef("--save-wdl: %v", err)
	}
	if !w.saveNet.Evaluates(v) {
		return usagef("--save-wdl %s: a %s network for boards %#x does not evaluate %s, the data's board", w.save, w.saveNet.Family, w.saveNet.Boards, v.Name())
	}
	return nil
}

// wdlNote returns a network's description with the command that fitted
// its win/draw/loss model as its last line ("wdl: …"), in place of the
// line of an earlier fit (the model it described is gone), if the
// description has room for it.
func wdlNote(description, command string) string {
	var kept []string
	for _, line := range strings.Split(description, "\n") {
		if !strings.HasPrefix(line, "wdl: ") {
			kept = append(kept, line)
		}
	}
	base := strings.Join(kept, "\n")
	if note := "\nwdl: " + command; len(base)+len(note) <= nnue.MaxDescription {
		return base + note
	}
	return base
}

// measureWDL fits a win/draw/loss model to d (fit), storing it in a
// network file if asked, and measures the engine's model on it
// (calibrate): the linear evaluation's, or the network's for v.
func (c *cli) measureWDL(d *tune.Dataset, v *board.Variant, w wdlJob) error {
	if w.fit {
		m, loss := d.FitWDL()
		fmt.Fprintf(c.stdout, "wdl model fitted on %d positions: K %.6f, band %.1f (log loss %.4f)\n", d.Len(), m.K, m.Band, loss)
		if w.table {
			m = d.FitWDLTable(m)
			fmt.Fprintf(c.stdout, "wdl table fitted (log loss %.4f):\n", d.WDLLoss(m))
			if err := tune.WriteTable(c.stdout, m); err != nil {
				return err
			}
		}
		if w.saveNet != nil {
			w.saveNet.WDL = m
			w.saveNet.Description = wdlNote(w.saveNet.Description, w.command)
			if err := w.saveNet.WriteFile(w.save); err != nil {
				return err
			}
			fmt.Fprintf(c.stdout, "stored in %s\n", w.save)
		}
	}
	if w.calibrate {
		net := netFor(w.nets, v)
		if net != nil && w.saveNet != nil && sameFile(w.evalFile, w.save) {
			net = w.saveNet // the model just stored in it
		}
		m := search.NetWDLModel(net, v)
		which := "the linear evaluation's"
		switch {
		case net != nil && net.WDL.K > 0:
			which = "the network's"
		case net != nil:
			which = "the linear evaluation's (the network records none)"
		case w.evalType == "net":
			which = "the linear evaluation's (no network evaluates the board)"
		}
		fmt.Fprintf(c.stdout, "calibration of %s wdl model of %s: ", which, v.Name())
		cal := d.Calibrate(m, 10)
		return cal.WriteMarkdown(c.stdout)
	}
	return nil
}

// sameFile reports whether the files named a and b (both given) are one.
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}
