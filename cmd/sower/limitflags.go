package main

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/sower-engine/sower/search"
)

// limitFlags are the search budget flags of analyse and review: at most
// one of --depth, --movetime and --nodes.
type limitFlags struct {
	depth, movetime int
	nodes           uint64
	fs              *pflag.FlagSet
}

// add adds the flags to fs; what says what each limit applies to ("" for
// the one search of analyse, " per position" for review), def the move
// time used when no limit is given.
func (l *limitFlags) add(fs *pflag.FlagSet, what string, def time.Duration) {
	l.fs = fs
	fs.IntVarP(&l.depth, "depth", "d", 0, "search to this depth"+what)
	fs.IntVar(&l.movetime, "movetime", 0, fmt.Sprintf("search for this many milliseconds%s (%d when no limit is given)", what, def.Milliseconds()))
	fs.Uint64Var(&l.nodes, "nodes", 0, "search this many nodes"+what)
}

// limits checks the flags and returns the search limits, a move time of
// def when none is given.
func (l *limitFlags) limits(def time.Duration) (search.Limits, error) {
	set := 0
	for _, name := range []string{"depth", "movetime", "nodes"} {
		if l.fs.Changed(name) {
			set++
		}
	}
	switch {
	case set > 1:
		return search.Limits{}, usagef("give at most one of --depth, --movetime and --nodes")
	case l.fs.Changed("depth") && (l.depth < 1 || l.depth >= search.MaxPly):
		return search.Limits{}, usagef("--depth %d: want 1 to %d", l.depth, search.MaxPly-1)
	case l.fs.Changed("movetime") && l.movetime < 1:
		return search.Limits{}, usagef("--movetime %d: want more than 0 milliseconds", l.movetime)
	case l.fs.Changed("nodes") && l.nodes < 1:
		return search.Limits{}, usagef("--nodes %d: want more than 0", l.nodes)
	}
	lim := search.Limits{Depth: l.depth, Nodes: l.nodes, MoveTime: time.Duration(l.movetime) * time.Millisecond}
	if set == 0 {
		lim.MoveTime = def
	}
	return lim, nil
}

// newEngine checks --hash and --threads and returns an engine configured
// by o (search.DefaultOptions with the command's flags).
func (c *cli) newEngine(o search.Options) (*search.Engine, error) {
	if err := c.checkHash(o.HashMiB, search.CheckHashMemory); err != nil {
		return nil, err
	}
	if o.Threads < search.MinThreads || o.Threads > search.MaxThreads {
		return nil, usagef("--threads %d: want %d to %d", o.Threads, search.MinThreads, search.MaxThreads)
	}
	eng, err := search.NewEngineWith(o)
	if err != nil {
		return nil, flagError("--hash", err)
	}
	return eng, nil
}
