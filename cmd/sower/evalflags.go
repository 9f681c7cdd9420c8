package main

import (
	"github.com/spf13/pflag"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
)

// addEvalFlags adds --eval and --evalfile, the command-line forms of the
// protocol's EvalType and EvalFile.
func addEvalFlags(fs *pflag.FlagSet) (evalType, evalFile *string) {
	evalType = fs.String("eval", "linear", "evaluation: linear, or net (a network: --evalfile's, else the built-in one)")
	evalFile = fs.String("evalfile", "", "network file for --eval net (docs/nnue.md), of either family")
	return evalType, evalFile
}

// loadNets returns the networks --eval and --evalfile choose: none for
// linear; for net, --evalfile's for its family and the built-in one for
// the other family, if there is one.
func loadNets(evalType, evalFile string) ([]*nnue.Net, error) {
	switch {
	case evalType != "linear" && evalType != "net":
		return nil, usagef("--eval %s: want linear or net", evalType)
	case evalType == "linear" && evalFile != "":
		return nil, usagef("--evalfile %s: it is read with --eval net", evalFile)
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
		n, err := nnue.Builtin(f)
		if err != nil {
			return nil, err
		}
		if n != nil {
			nets = append(nets, n)
		}
	}
	if len(nets) == 0 {
		return nil, usagef("--eval net: no network is built into this program; give one with --evalfile")
	}
	return nets, nil
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
