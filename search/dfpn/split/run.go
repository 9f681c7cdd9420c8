package split

import (
	"context"

	"github.com/sower-engine/sower/search/dfpn"
)

// RunConfig configures Tree.Run.
type RunConfig struct {
	// Steps is the most steps of the run (0: until the root is settled).
	Steps int
	// File, if not "", is where the tree is written (SaveFile) after
	// every step, so that a run stopped at any moment goes on from there.
	File string
	// Progress, if set, receives the reports of a step's searches, with
	// the step's number in the run (from 1).
	Progress func(step int, pr dfpn.Progress)
	// Stepped, if set, is called after each step (and the file's
	// writing) with its number and what it did.
	Stepped func(step int, st Step)
}

// Effort is what a run did: the steps it finished and their nodes.
type Effort struct {
	Steps int
	Nodes uint64
}

// Run steps the tree with s (Step) until its root is settled or
// cfg.Steps steps are done; a settled tree takes no step. When ctx is
// cancelled the step under way is dropped (the tree, and its file, hold
// every step finished) and Run returns the effort so far with ctx's
// error.
func (t *Tree) Run(ctx context.Context, s *dfpn.Solver, cfg RunConfig) (Effort, error) {
	var e Effort
	for !t.Settled() && (cfg.Steps == 0 || e.Steps < cfg.Steps) {
		n := e.Steps + 1
		var report func(dfpn.Progress)
		if cfg.Progress != nil {
			report = func(pr dfpn.Progress) { cfg.Progress(n, pr) }
		}
		st, err := t.Step(ctx, s, report)
		if err != nil {
			return e, err
		}
		e.Steps, e.Nodes = n, e.Nodes+st.Nodes
		if cfg.File != "" {
			if err := t.SaveFile(cfg.File); err != nil {
				return e, err
			}
		}
		if cfg.Stepped != nil {
			cfg.Stepped(n, st)
		}
	}
	return e, nil
}
