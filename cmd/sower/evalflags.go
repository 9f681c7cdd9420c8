package main

import (
	"github.com/spf13/pflag"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
	"github.com/sower-engine/sower/search"
)

// addEvalFlags adds --eval and --evalfile, the command-line forms of the
// protocol's EvalType and EvalFile, with --eval's default def: "auto"
// where a command plays or shows as the engine does, "linear" where its
// documented runs were made with the linear evaluation (datagen, tune).
func addEvalFlags(fs *pflag.FlagSet, def string) (evalType, evalFile *string) {
	evalType = fs.String("eval", def, "evaluation: auto (each game's default: the network in Hoyito III, the linear evaluation in Katro), linear, or net (a network wherever there is one: --evalfile's, else the built-in one)")
	evalFile = fs.String("evalfile", "", "network file (docs/nnue.md), of either family, for --eval net or auto")
	return evalType, evalFile
}

// addLazyFlag adds --evallazy, the command-line form of the protocol's
// EvalLazy, with its default.
func addLazyFlag(fs *pflag.FlagSet) *int {
	return fs.Int("evallazy", search.DefaultNetLazy, "where a network plays, score positions the linear evaluation puts beyond ± N hundredths of a seed by it (the protocol's EvalLazy; 0: never)")
}

// checkLazy checks --evallazy's value, and that a network may play when
// it was given (not with --eval linear, whose nets are none).
func checkLazy(fs *pflag.FlagSet, lazy int, nets []*nnue.Net) error {
	switch {
	case lazy < 0 || lazy > search.MaxNetLazy:
		return usagef("--evallazy %d: want 0 to %d", lazy, search.MaxNetLazy)
	case fs.Changed("evallazy") && nets == nil:
		return usagef("--evallazy %d: it is used where a network plays, not with --eval linear", lazy)
	}
	return nil
}

// loadNets returns the networks --eval and --evalfile choose: none for
// linear; for net and auto, --evalfile's for its family, and for the
// other family the built-in network (net) or the family's default
// (auto: nnue.Default).
func loadNets(evalType, evalFile string) ([]*nnue.Net, error) {
	switch {
	case evalType != "auto" && evalType != "linear" && evalType != "net":
		return nil, usagef("--eval %s: want auto, linear or net", evalType)
	case evalType == "linear" && evalFile != "":
		return nil, usagef("--evalfile %s: it is read with --eval net or auto", evalFile)
	case evalType == "linear":
		return nil, nil
	}
	var nets []*nnue.Net
	if evalFile != "" {
		n, err := nnue.ReadFile(evalFile)
		if err != nil {
			return nil, usagef("--evalfile: %v", err)
		}
		nets = append(nets, n)
	}
	for _, f := range []board.Family{board.Katro, board.Hoyito} {
		if len(nets) > 0 && nets[0].Family == f {
			continue
		}
		get := nnue.Builtin
		if evalType == "auto" {
			get = nnue.Default
		}
		n, err := get(f)
		if err != nil {
			return nil, err
		}
		if n != nil {
			nets = append(nets, n)
		}
	}
	if len(nets) == 0 && evalType == "net" {
		return nil, usagef("--eval net: no network is built into this program; give one with --evalfile")
	}
	return nets, nil
}

// engineEval is --eval, --evalfile and --evallazy of a command whose
// engine searches (bench, analyse, review, datagen).
type engineEval struct {
	fs             *pflag.FlagSet
	evalType, file *string
	lazy           *int
}

// addEngineEvalFlags adds --eval (default def), --evalfile and --evallazy.
func addEngineEvalFlags(fs *pflag.FlagSet, def string) engineEval {
	t, f := addEvalFlags(fs, def)
	return engineEval{fs: fs, evalType: t, file: f, lazy: addLazyFlag(fs)}
}

// load returns the networks the flags choose (loadNets) and the lazy
// margin, checked (checkLazy), once the flags are parsed.
func (e engineEval) load() ([]*nnue.Net, int, error) {
	nets, err := loadNets(*e.evalType, *e.file)
	if err != nil {
		return nil, 0, err
	}
	if err := checkLazy(e.fs, *e.lazy, nets); err != nil {
		return nil, 0, err
	}
	return nets, *e.lazy, nil
}

// netFor returns the network of nets that evaluates board v, or nil when
// none does (v is then played with the linear evaluation).
func netFor(nets []*nnue.Net, v *board.Variant) *nnue.Net {
	for _, n := range nets {
		if n.Evaluates(v) {
			return n
		}
	}
	return nil
}
