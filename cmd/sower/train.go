package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue/train"
	"github.com/sower-engine/sower/tables"
)

// minNetPositions is the least data train fits a network to.
const minNetPositions = 1000

func (c *cli) train(args []string) error {
	var (
		out, checkpoint, tablesDir string
		data                       []string
	)
	cfg := train.DefaultConfig()
	fs := c.flags("train", "--data FILE[,FILE…] --out NET.nnue [flags]")
	fs.StringSliceVar(&data, "data", nil, "data files written by sower datagen, all of one family (repeatable or comma-separated)")
	fs.StringVarP(&out, "out", "o", "", "write the network here (docs/nnue.md); read it with EvalFile or build it into the program as eval/nnue/nets/<family>.nnue")
	fs.Float64Var(&cfg.Lambda, "lambda", cfg.Lambda, "weight of the search's score in the target; 1-lambda goes to the game result")
	fs.Float64Var(&cfg.Scale, "scale", 0, "score scale in hundredths of a seed: a score s is a chance of sigmoid(s/scale) (0: 1/K of the family's WDL model)")
	fs.IntVar(&cfg.Epochs, "epochs", cfg.Epochs, "most passes over the training positions")
	fs.IntVar(&cfg.Batch, "batch", cfg.Batch, "positions per optimiser step")
	fs.Float64Var(&cfg.Rate, "rate", cfg.Rate, "Adam step size")
	fs.IntVar(&cfg.Patience, "patience", cfg.Patience, "stop after this many epochs without a better validation loss (0: never)")
	fs.Float64Var(&cfg.Drop, "drop", cfg.Drop, "multiply the step size by this after every epoch without a better validation loss (1: keep it)")
	fs.Float64Var(&cfg.ValidShare, "valid", cfg.ValidShare, "share of the games held out for validation")
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed of the initial weights, the validation split and the order of positions")
	fs.IntVar(&cfg.Threads, "threads", cfg.Threads, "threads computing the gradient (the result does not depend on them)")
	fs.StringVar(&checkpoint, "checkpoint", "", "checkpoint file, written after every epoch and resumed from (default: OUT.ckpt)")
	fs.StringVar(&tablesDir, "tables", "", "directory of Hoyito III endgame tables (sower tables build, docs/tables.md): positions they know exactly under the data's rules are labelled with their exact result")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := (fitSettings{lambda: cfg.Lambda, rate: cfg.Rate, valid: cfg.ValidShare, batch: cfg.Batch, patience: cfg.Patience}).check(map[string]float64{"scale": cfg.Scale}); err != nil {
		return err
	}
	switch {
	case len(data) == 0:
		return usagef("--data: give at least one data file")
	case out == "":
		return usagef("--out: a network file is required")
	case cfg.Scale < 0:
		return usagef("--scale %g: want 0 (the WDL model's) or more", cfg.Scale)
	case cfg.Epochs < 1:
		return usagef("--epochs %d: want 1 or more", cfg.Epochs)
	case !(cfg.Drop > 0 && cfg.Drop <= 1):
		return usagef("--drop %g: want more than 0, at most 1", cfg.Drop)
	case cfg.Threads < 1 || cfg.Threads > 256:
		return usagef("--threads %d: want 1 to 256", cfg.Threads)
	}
	if checkpoint == "" {
		checkpoint = out + ".ckpt"
	}
	if err := checkOutput("--out", out); err != nil {
		return err
	}
	cfg.Checkpoint = checkpoint
	game, err := dataGame(data[0])
	if err != nil {
		return err
	}
	v, err := board.New(game)
	if err != nil {
		return flagError("--data", err)
	}
	d := train.NewDataset(v.Family())
	var tb *tables.Tables
	if tablesDir != "" {
		if tb, err = exactLabels(d, tablesDir, data); err != nil {
			return err
		}
		defer tb.Close()
	}
	for i, name := range data {
		if err := d.ReadFile(name, i); err != nil {
			return usagef("--data %v", err)
		}
		fmt.Fprintf(c.stderr, "train: %s: %d positions in all\n", name, d.Len())
	}
	if tb != nil {
		fmt.Fprintf(c.stdout, "tables: %d of %d positions labelled with their exact result (%s, up to %d seeds on the board)\n", d.Exact(), d.Len(), tb.Options(), tb.Top())
		for _, name := range data {
			if w, err := dataVariant(name); err == nil && !tb.Fits(w) {
				fmt.Fprintf(c.stdout, "tables: %s was made under other rules (%s), which the tables do not serve: its positions keep the search's labels\n", name, tables.OptionsFor(w.Rules()))
			}
		}
	}
	if d.Len() < minNetPositions {
		return usagef("--data: too little data: %d positions, want at least %d; play more games with sower datagen", d.Len(), minNetPositions)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var last time.Time
	cfg.Progress = func(p train.Progress) {
		if p.EpochEnd {
			mark := ""
			if p.Best {
				mark = " *"
			}
			if cfg.Drop != 1 {
				mark += fmt.Sprintf("  rate %.3g", p.Rate)
			}
			fmt.Fprintf(c.stdout, "epoch %3d  train %.6f  valid %.6f%s\n", p.Epoch, p.Train, p.Valid, mark)
		}
		if p.EpochEnd || time.Since(last) >= 5*time.Second {
			last = time.Now()
			fmt.Fprintf(c.stderr, "train: epoch %d/%d %3.0f%%, time left at most %s\n", p.Epoch, p.Epochs, 100*p.Done, p.TimeLeft.Round(time.Second))
		}
	}
	res, err := train.Train(ctx, d, cfg)
	if err != nil {
		return err
	}
	if res.Interrupted {
		return interruptedf("after %d epochs: run the same command again to resume from %s", res.Epochs, checkpoint)
	}
	fmt.Fprintf(c.stdout, "scale %.1f  training %d positions, validation %d\n", res.Scale, res.Train, res.Valid)
	fmt.Fprintf(c.stdout, "validation loss: start %.6f, trained %.6f (%d epochs%s)\n", res.StartLoss, res.Loss, res.Epochs, map[bool]string{true: ", stopped early", false: ""}[res.StoppedEarly])
	net := res.Net.Quantise("sower train " + strings.Join(args, " "))
	net.Boards = d.Boards()
	if err := net.WriteFile(out); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "network written to %s\n", out)
	return nil
}

// exactLabels opens the endgame tables in dir for the rules of the first
// data file and makes d label the positions they know exactly (under each
// file's own rules: tables.Tables.ExactMargin) with their result.
func exactLabels(d *train.Dataset, dir string, data []string) (*tables.Tables, error) {
	v, err := dataVariant(data[0])
	if err != nil {
		return nil, err
	}
	if v.Family() != board.Hoyito {
		return nil, usagef("--tables: the endgame tables are for Hoyito III; the data is %s", v.Name())
	}
	tb, err := tables.Open(dir, v.Rules())
	if err != nil {
		return nil, usagef("--tables: %v", err)
	}
	d.UseExact(func(p *board.Position) (float64, bool) {
		m, ok := tb.ExactMargin(p)
		switch {
		case !ok:
			return 0, false
		case m > 0:
			return 1, true
		case m < 0:
			return 0, true
		}
		return 0.5, true
	})
	return tb, nil
}
