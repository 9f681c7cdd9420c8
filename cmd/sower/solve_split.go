package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
	"github.com/sower-engine/sower/search/dfpn/split"
)

// splitRun is a split proof's tree, opened before the solver's table is
// made (so that a bad file costs nothing); read reports that it was read
// back from its file.
type splitRun struct {
	tree *split.Tree
	read bool
}

// solveSplit proves one side's win (--first, or the file's side) at the
// game's position with a split tree (split.Tree.Run): its file, --split,
// is read when it exists and written after every step, so that the proof
// goes on from there when run again. It stops when the root is settled,
// after --split-steps steps, or on Ctrl-C (the step under way is
// dropped).
func (c *cli) solveSplit(ctx context.Context, s *dfpn.Solver, game *board.Game, run *splitRun, o solveFlags) error {
	tr := run.tree
	attacker := tr.Attacker()
	resumed := " (a new tree)"
	if run.read {
		pn, dn := tr.Root()
		resumed = fmt.Sprintf(" (read back: %d positions, root pn %s dn %s, %d nodes searched before)", tr.Size(), pnString(pn), pnString(dn), tr.Searched())
	}
	fmt.Fprintf(c.stdout, "split tree %s: proving %s's win, leaves of %d nodes%s\n", o.split, attacker, tr.LeafNodes(), resumed)
	start := time.Now()
	e, err := tr.Run(ctx, s, split.RunConfig{
		Steps:    o.splitSteps,
		File:     o.split,
		Progress: c.splitSearchProgress,
		Stepped:  func(n int, st split.Step) { c.splitProgress(tr, st, n) },
	})
	if errors.Is(err, context.Canceled) {
		return c.splitStopped(s, tr, o, e, start)
	}
	if err != nil {
		return err
	}
	if o.save != "" {
		if err := c.saveTable(s, o.save); err != nil {
			return err
		}
	}
	c.splitVerdict(tr, e, time.Since(start), o)
	if o.proof == "" {
		return nil
	}
	if pn, _ := tr.Root(); pn != 0 {
		fmt.Fprintf(c.stderr, "sower: --proof: no certificate: %s's win is not proven\n", attacker)
		return nil
	}
	return c.writeCertificate(ctx, game, attacker, tr.Oracle(ctx, s), o.proof)
}

// splitVerdict prints what the tree says of the root after this run's
// effort e (no step: the tree read back says it, its leaves searched by
// the runs before).
func (c *cli) splitVerdict(tr *split.Tree, e split.Effort, d time.Duration, o solveFlags) {
	attacker := tr.Attacker()
	pn, dn := tr.Root()
	effort := fmt.Sprintf("%d steps, %d nodes, %d ms; the tree has %d positions, %d nodes in all", e.Steps, e.Nodes, d.Milliseconds(), tr.Size(), tr.Searched())
	var v string
	switch {
	case pn == 0:
		v = fmt.Sprintf("solved: %s wins (the proof found wins in at most %d plies)", attacker, tr.Plies())
	case dn == 0 && tr.OnPath():
		v = fmt.Sprintf("disproven: %s does not win along the tree's lines (a disproof rests on the game's history or the depth bound)", attacker)
	case dn == 0:
		v = fmt.Sprintf("disproven: %s does not win (a loss or a draw for %s)", attacker, attacker)
	default:
		v = fmt.Sprintf("not solved: root pn %s dn %s after --split-steps %d", pnString(pn), pnString(dn), o.splitSteps)
	}
	if e.Steps == 0 && (pn == 0 || dn == 0) {
		v += fmt.Sprintf(", as the tree read back from %s says (--proof checks a proof)", o.split)
	}
	fmt.Fprintf(c.stdout, "%s, %s\n", v, effort)
}

// openSplit reads the tree file --split names, or makes a new tree when
// there is none (split.Open), for the side --first names (when the file
// exists and --first is not given, the file's side) and --split-nodes
// (when the file exists and it is not given, the file's budget).
func (c *cli) openSplit(game *board.Game, o solveFlags) (*splitRun, error) {
	p := game.Position()
	opts := split.Options{Attacker: o.firstAt(&p), FileAttacker: !o.fs.Changed("first")}
	if o.fs.Changed("split-nodes") {
		opts.LeafNodes = o.splitNodes
	}
	tr, read, err := split.Open(o.split, p, game.History(), opts)
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe):
		return nil, flagError("--split", err)
	case err != nil:
		return nil, usagef("--split %v", err) // the error names the file
	}
	return &splitRun{tree: tr, read: read}, nil
}

// splitProgress prints a step's line on stderr.
func (c *cli) splitProgress(tr *split.Tree, st split.Step, n int) {
	what := "searched"
	if st.Expanded {
		what = fmt.Sprintf("expanded (%d moves searched)", st.Searches)
	}
	pn, dn := tr.Root()
	fmt.Fprintf(c.stderr, "solve: step %d: %s %s, pn %s dn %s, %d nodes, %s; root pn %s dn %s, %d positions, %d nodes in all\n",
		n, splitPath(st.Path), what, pnString(st.PN), pnString(st.DN), st.Nodes, st.Time.Round(time.Second),
		pnString(pn), pnString(dn), tr.Size(), tr.Searched())
}

// splitSearchProgress reports the progress of a step's searches: the
// solver's lines every few seconds of a long search, but not the one that
// ends each search (the step's own line says what they found).
func (c *cli) splitSearchProgress(step int, pr dfpn.Progress) {
	if pr.Time >= splitQuiet {
		c.dfpnProgress(fmt.Sprintf("split step %d: ", step), pr)
	}
}

// splitQuiet is how long a step's search runs before its progress shows.
const splitQuiet = 5 * time.Second

// splitPath names a step's leaf by its moves from the root.
func splitPath(path []board.Move) string {
	if len(path) == 0 {
		return "the root"
	}
	return fmt.Sprintf("%q", board.FormatMoves(path))
}

// splitStopped ends a run that Ctrl-C stopped after effort e: the tree
// file holds every finished step; the table is saved when --save asks.
func (c *cli) splitStopped(s *dfpn.Solver, tr *split.Tree, o solveFlags, e split.Effort, start time.Time) error {
	fmt.Fprintf(c.stdout, "interrupted: %d steps finished, %d nodes, %d ms\n", e.Steps, e.Nodes, time.Since(start).Milliseconds())
	if o.save != "" {
		if err := c.saveTable(s, o.save); err != nil {
			return err
		}
	}
	pn, dn := tr.Root()
	return interruptedf("after %d steps: the tree (%d positions, root pn %s dn %s) is in %s; run again to go on", e.Steps, tr.Size(), pnString(pn), pnString(dn), o.split)
}

// checkSplit checks --split and its options against the others.
func (o *solveFlags) checkSplit() error {
	for _, name := range []string{"split-nodes", "split-steps"} {
		if o.fs.Changed(name) && o.split == "" {
			return usagef("--%s: only with --split", name)
		}
	}
	if o.split == "" {
		return nil
	}
	switch {
	case o.method != methodDfpn:
		return usagef("--split: only for --method dfpn")
	case o.each:
		return usagef("--split: not with --each (the tree chooses the positions to search)")
	case o.splitNodes == 0:
		return usagef("--split-nodes 0: want a leaf budget of at least 1 node")
	case o.splitSteps < 0:
		return usagef("--split-steps %d: want 0 (no limit) or more", o.splitSteps)
	case strings.TrimSpace(o.split) == "":
		return usagef("--split: want a file name")
	}
	if fi, err := os.Stat(o.split); err == nil && fi.IsDir() {
		return usagef("--split %s: a directory, want a file", o.split)
	}
	for _, other := range []struct{ flag, path string }{{"--save", o.save}, {"--resume", o.resume}, {"--proof", o.proof}} {
		if other.path != "" && samePath(o.split, other.path) {
			return usagef("--split %s and %s %s: the same file (the tree would be overwritten)", o.split, other.flag, other.path)
		}
	}
	return checkOutputDir("--split", filepath.Dir(o.split))
}

// samePath reports whether paths a and b name the same file: the same
// path once cleaned, or, when both exist, the same file by os.SameFile.
func samePath(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
