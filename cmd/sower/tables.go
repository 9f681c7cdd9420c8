package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search"
	"github.com/sower-engine/sower/tables"
)

// defaultTableDir is where tables are built and looked for by default: the
// directory sower/tables in the user's cache directory (os.UserCacheDir:
// $XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches on macOS,
// %LocalAppData% on Windows), outside any source tree; "tables" in the
// working directory when the system names no cache directory.
func defaultTableDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return "tables"
	}
	return filepath.Join(d, "sower", "tables")
}

// tablesGameHelp is the help of the tables commands' --game.
const tablesGameHelp = "game: hoyito3, the only one with tables"

func (c *cli) tables(args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(c.stdout, "usage: sower tables build|probe [flags]")
		fmt.Fprintln(c.stdout, "\n  build  build Hoyito III endgame tables, layer by layer")
		fmt.Fprintln(c.stdout, "  probe  show what the tables say about a position")
		fmt.Fprintln(c.stdout, "\nRun sower tables <command> --help for its flags.")
		if len(args) == 0 {
			return usagef("tables: want build or probe")
		}
		return nil
	}
	switch args[0] {
	case "build":
		return c.tablesBuild(args[1:])
	case "probe":
		return c.tablesProbe(args[1:])
	}
	return usagef("tables %q: want build or probe", args[0])
}

func (c *cli) tablesBuild(args []string) error {
	var g gameFlags
	var dir string
	var seeds, threads int
	fs := c.flags("tables build", "--seeds N [--tables DIR] [--capture-side S] [--last-four L] [--no-capture-limit N] [--threads N]")
	g.addGame(fs, board.NameHoyito3, tablesGameHelp)
	g.addHoyitoRules(fs)
	// One set serves both repetition rules: --repetition is still read
	// (scripts that give it keep working) but not listed.
	_ = fs.MarkHidden("repetition") // added just above: it cannot fail
	fs.IntVar(&g.limit, "no-capture-limit", board.DefaultNoCaptureLimit, "the no-capture limit the exact values are for (0 = none: bounds only); each limit has a set of its own")
	fs.IntVar(&seeds, "seeds", 16, "build every layer up to this many seeds on the board (8, 12, 16, …)")
	addTableDirFlags(fs, &dir)
	fs.IntVar(&threads, "threads", min(runtime.GOMAXPROCS(0), search.MaxThreads), "worker goroutines")
	if err := parse(fs, args); err != nil {
		return err
	}
	flag, err := tableDirFlag(fs)
	if err != nil {
		return err
	}
	v, err := tableVariant(&g)
	if err != nil {
		return err
	}
	if seeds < 8 || seeds > tables.MaxSeeds || seeds%4 != 0 {
		return usagef("--seeds %d: want a multiple of 4 from 8 to %d", seeds, tables.MaxSeeds)
	}
	if threads < search.MinThreads || threads > search.MaxThreads {
		return usagef("--threads %d: want %d to %d", threads, search.MinThreads, search.MaxThreads)
	}
	if err := checkOutputDir(flag, dir); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opts := tables.OptionsFor(v.Rules())
	// A layer already in the directory that cannot be used is bad input,
	// found before any work; Build resumes from this check.
	resume, err := tables.CheckExisting(dir, opts, seeds)
	if err != nil {
		return flagError(flag, err)
	}
	fmt.Fprintf(c.stdout, "building %s tables up to %d seeds in %s%s\n", opts, seeds, dir, c.buildMemoryLimit(seeds, opts))
	last := 0
	err = tables.Build(ctx, tables.BuildConfig{
		Dir: dir, Options: opts, Seeds: seeds, Workers: threads, Resume: resume,
		Progress: func(p tables.Progress) { c.buildProgress(p) },
		Leftover: func(l tables.Leftover) {
			fmt.Fprintf(c.stderr, "removed %s (%s), a temporary file of an earlier build that was killed\n", l.Path, mib(uint64(l.Size)))
		},
		Layer: func(st tables.BuildStats, resumed bool) {
			last = st.Seeds
			pct := 100 * float64(st.Exact) / float64(st.Positions)
			if resumed {
				fmt.Fprintf(c.stdout, "layer %2d: present and checked: %d positions, %d exact (%.1f%%), %s\n",
					st.Seeds, st.Positions, st.Exact, pct, mib(st.Bytes))
				return
			}
			fmt.Fprintf(c.stdout, "layer %2d: %d positions, bounds exact for %d (%.1f%%), %d moves, %d rounds, max distance %d, %s, main arrays %s, %s\n",
				st.Seeds, st.Positions, st.Exact, pct, st.Edges, st.Rounds, st.MaxDist,
				clockSummary(st, opts.Limit), mib(st.Bytes), st.Time.Round(time.Millisecond))
		},
	})
	if errors.Is(err, context.Canceled) {
		return interruptedf("while building layer %d; layers up to %d are complete: run the same command to resume", last+4, last)
	}
	return err
}

// addTableDirFlags adds the tables commands' --tables DIR, the name every
// other command gives the table directory, and --dir, its former name,
// kept working but not listed.
func addTableDirFlags(fs *pflag.FlagSet, dir *string) {
	fs.StringVar(dir, "tables", defaultTableDir(), "directory of the table files")
	fs.StringVar(dir, "dir", defaultTableDir(), "the former name of --tables")
	_ = fs.MarkHidden("dir") // added just above: it cannot fail
}

// tableDirFlag returns the name of the table directory's flag as given,
// for the errors about it: --tables, or --dir, its former name. Both at
// once are refused.
func tableDirFlag(fs *pflag.FlagSet) (string, error) {
	switch {
	case fs.Changed("dir") && fs.Changed("tables"):
		return "", usagef("--dir is the former name of --tables: give --tables only")
	case fs.Changed("dir"):
		return "--dir", nil
	}
	return "--tables", nil
}

// clockSummary describes a built layer's clock rounds: where the exact
// values under Repetition off settle (for a set with the no-capture limit
// given).
func clockSummary(st tables.BuildStats, limit int) string {
	switch {
	case st.ClockRounds == 0:
		return "no exact values (no no-capture limit)"
	case st.ClockRounds == limit && st.Alternating == 0:
		return fmt.Sprintf("values exact for all, computed for every horizon up to the limit %d, %d changes", limit, st.Changes)
	case st.Alternating > 0:
		return fmt.Sprintf("values exact for all, of period 2 from horizon %d (%d positions alternate), %d changes", st.ClockRounds, st.Alternating, st.Changes)
	}
	return fmt.Sprintf("values exact for all, fixed from horizon %d, %d changes", st.ClockRounds, st.Changes)
}

// buildMemoryLimit sets the Go runtime's soft memory limit for building
// the layers up to seeds, unless GOMEMLIMIT sets one, and says which. The
// build allocates large arrays for each layer and drops them; with the
// runtime's default pacing the heap may grow to twice what is live (4.3
// GiB for the 20-seed layer, whose arrays take about 2). A limit of a
// quarter above the estimate (tables.BuildMemory) keeps the peak near
// what the build needs: 3.3 GiB for 20 seeds, at no cost in time.
func (c *cli) buildMemoryLimit(seeds int, opts tables.Options) string {
	if os.Getenv("GOMEMLIMIT") != "" {
		return " (memory limit from GOMEMLIMIT)"
	}
	limit := tables.BuildMemory(seeds, opts)*5/4 + 256<<20
	if avail, ok := search.AvailableMiB(); ok {
		limit = min(limit, uint64(avail)<<20*7/8)
	}
	debug.SetMemoryLimit(int64(limit))
	return fmt.Sprintf(" (memory limit %.1f GiB; set GOMEMLIMIT to change it)", float64(limit)/(1<<30))
}

// buildProgress prints a progress report on stderr.
func (c *cli) buildProgress(p tables.Progress) {
	el := p.Elapsed.Round(time.Second)
	switch p.Phase {
	case "rounds":
		fmt.Fprintf(c.stderr, "tables build: layer %d: round %d, %d bounds changed, %s\n", p.Seeds, p.Done, p.Total, el)
		return
	case "clock rounds":
		fmt.Fprintf(c.stderr, "tables build: layer %d: clock round %d, %d values changed, %s\n", p.Seeds, p.Done, p.Total, el)
		return
	}
	rate := float64(p.Done) / max(p.PhaseTime.Seconds(), 1e-3)
	left := "?"
	if rate > 0 {
		left = (time.Duration(float64(p.Total-p.Done)/rate) * time.Second).Round(time.Second).String()
	}
	fmt.Fprintf(c.stderr, "tables build: layer %d: %s %d/%d positions (%.0f%%), %.2fM/s, phase time left %s, %s\n",
		p.Seeds, p.Phase, p.Done, p.Total, 100*float64(p.Done)/float64(max(p.Total, 1)), rate/1e6, left, el)
}

// mib formats a byte count.
func mib(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// tableVariant returns the Hoyito III variant of the flags: the tables
// commands accept no other game.
func tableVariant(g *gameFlags) (*board.Variant, error) {
	v, err := g.variant()
	if err != nil {
		return nil, err
	}
	if v.Family() != board.Hoyito {
		return nil, usagef("--game %s: tables exist for hoyito3 only", g.game)
	}
	return v, nil
}

// probeJSON is the object sower tables probe --json prints. Its margins
// are from the side to move's view. The board margin is the margin of the
// seeds still on the board (what the side to move ends up with of them
// minus the opponent's), the tables' own value; the final margin adds the
// capture totals, and is what sower solve calls the value.
type probeJSON struct {
	FEN   string `json:"fen"`
	Side  string `json:"side"`
	Seeds int    `json:"seeds"`
	Lo    int    `json:"lo"`
	Hi    int    `json:"hi"`
	// BoardMargin is the exact board margin under Repetition off at the
	// position's clock (absent for tables without a no-capture limit);
	// FinalMargin is BoardMargin plus the side to move's captures minus
	// the opponent's. Exact tells whether the tables give the exact value
	// under the active rules: always under Repetition off, when lo == hi
	// under threefold.
	BoardMargin      *int     `json:"board_margin,omitempty"`
	FinalMargin      *int     `json:"final_margin,omitempty"`
	BoardMarginMoves []string `json:"board_margin_moves,omitempty"`
	// Value and ValueMoves are the former names of BoardMargin and
	// BoardMarginMoves, kept with the same numbers for readers written
	// before the rename.
	Value      *int        `json:"value,omitempty"`
	ValueMoves []string    `json:"value_moves,omitempty"`
	Exact      bool        `json:"exact"`
	Repetition string      `json:"repetition"`
	Clock      int         `json:"clock"`
	Distance   int         `json:"distance"`
	DistanceLo int         `json:"distance_lo"`
	DistanceHi int         `json:"distance_hi"`
	Moves      []string    `json:"moves"`
	Children   []childJSON `json:"children"`
}

// childJSON is one legal move in probeJSON: the bounds and board margin of
// the position it leads to, from the mover's view. Value and KeepsValue
// are the former names of BoardMargin and KeepsBoardMargin.
type childJSON struct {
	Move             string `json:"move"`
	Lo               int    `json:"lo"`
	Hi               int    `json:"hi"`
	DistanceLo       int    `json:"distance_lo"`
	DistanceHi       int    `json:"distance_hi"`
	Keeps            bool   `json:"keeps"`
	BoardMargin      *int   `json:"board_margin,omitempty"`
	KeepsBoardMargin bool   `json:"keeps_board_margin,omitempty"`
	Value            *int   `json:"value,omitempty"`
	KeepsValue       bool   `json:"keeps_value,omitempty"`
}

func (c *cli) tablesProbe(args []string) error {
	var g gameFlags
	var dir string
	var asJSON bool
	fs := c.flags("tables probe", `--fen F [--moves "…"] [--tables DIR] [--json]`)
	g.addWith(fs, board.NameHoyito3, tablesGameHelp, true)
	addTableDirFlags(fs, &dir)
	fs.BoolVar(&asJSON, "json", false, "print one JSON object")
	if err := parse(fs, args); err != nil {
		return err
	}
	flag, err := tableDirFlag(fs)
	if err != nil {
		return err
	}
	if _, err := tableVariant(&g); err != nil {
		return err
	}
	game, err := g.build()
	if err != nil {
		return err
	}
	p := game.Position()
	tb, err := openTableDir(flag, dir, p.Variant())
	if err != nil {
		return err
	}
	defer tb.Close()
	if p.OnBoard() > tb.Top() || p.OnBoard() == 0 {
		return usagef("%s: %d seeds on the board; the tables in %s hold 8 to %d", p.String(), p.OnBoard(), dir, tb.Top())
	}
	e, ms, err := tb.Moves(&p)
	if err != nil {
		return err
	}
	out := probeReport(&p, tb, e, ms)
	if asJSON {
		return json.NewEncoder(c.stdout).Encode(out)
	}
	out.write(c.stdout, &p)
	return nil
}

// probeReport gathers what tables probe prints.
func probeReport(p *board.Position, tb *tables.Tables, e tables.Entry, ms []tables.MoveValue) probeJSON {
	off := p.Variant().Rules().Repetition == board.RepetitionOff
	out := probeJSON{FEN: p.String(), Side: string(p.Side().Letter()), Seeds: p.OnBoard(),
		Lo: e.Lo, Hi: e.Hi, Exact: e.Exact(), Distance: e.Distance(), DistanceLo: e.DistLo, DistanceHi: e.DistHi,
		Repetition: p.Variant().Rules().Repetition.String(), Clock: p.Clock(), Moves: []string{}}
	if v, ok := tb.Value(p); ok {
		final := v + tables.CaptureMargin(p)
		out.BoardMargin, out.Value, out.FinalMargin = &v, &v, &final
		out.Exact = out.Exact || off
	}
	for _, m := range ms {
		if m.Keeps {
			out.Moves = append(out.Moves, m.Move.String())
		}
		ch := childJSON{Move: m.Move.String(), Lo: m.Entry.Lo, Hi: m.Entry.Hi,
			DistanceLo: m.Entry.DistLo, DistanceHi: m.Entry.DistHi, Keeps: m.Keeps}
		if out.BoardMargin != nil {
			v := m.Value
			ch.BoardMargin, ch.KeepsBoardMargin = &v, m.KeepsValue
			ch.Value, ch.KeepsValue = &v, m.KeepsValue
			if m.KeepsValue {
				out.BoardMarginMoves = append(out.BoardMarginMoves, m.Move.String())
			}
		}
		out.Children = append(out.Children, ch)
	}
	out.ValueMoves = out.BoardMarginMoves
	return out
}

// write prints the report as text. Under Repetition off the exact board
// margin is the answer and comes first, with the moves that keep it; under
// threefold the bounds are the proof and come first, and the board margin
// is shown as what it is there: the value under the other rule.
func (out *probeJSON) write(w io.Writer, p *board.Position) {
	off := out.Repetition == board.RepetitionOff.String()
	fmt.Fprintf(w, "position  %s\n", out.FEN)
	fmt.Fprintf(w, "seeds     %d on the board; margins are %s's view: the board margin counts the seeds on the board, the final margin adds the captures\n", out.Seeds, p.Side())
	kind := "exact under any repetition rule"
	if out.Lo != out.Hi {
		kind = "not exact under Repetition threefold: the value depends on how the repetition ends"
	}
	bounds := fmt.Sprintf("bounds    lo %d hi %d (board margin; hold under either repetition rule; %s)\n", out.Lo, out.Hi, kind)
	var margin string
	switch {
	case out.BoardMargin == nil:
		margin = "margin    none: these tables have no no-capture limit, which exact margins need\n"
	case off:
		margin = fmt.Sprintf("margin    board %+d, final %+d: exact under the active rule, Repetition off, at clock %d; keeping it: %s\n",
			*out.BoardMargin, *out.FinalMargin, out.Clock, strings.Join(out.BoardMarginMoves, " "))
	default:
		margin = fmt.Sprintf("margin    board %+d, final %+d: exact under Repetition off only (at clock %d), an estimate under the active rule, Repetition threefold; keeping it: %s\n",
			*out.BoardMargin, *out.FinalMargin, out.Clock, strings.Join(out.BoardMarginMoves, " "))
	}
	if off {
		fmt.Fprintf(w, "rules     Repetition off: the exact margin is the answer; the bounds are shown for comparison\n%s%s", margin, bounds)
	} else {
		fmt.Fprintf(w, "rules     Repetition threefold: the bounds are the proof; the margin is exact under Repetition off only\n%s%s", bounds, margin)
	}
	fmt.Fprintf(w, "distance  %d plies (lo secured in %d, hi in %d)\n", out.Distance, out.DistanceLo, out.DistanceHi)
	if off && out.BoardMargin != nil {
		fmt.Fprintf(w, "moves     %s (keep the margin)\n", strings.Join(out.BoardMarginMoves, " "))
	} else {
		fmt.Fprintf(w, "moves     %s (keep the bounds)\n", strings.Join(out.Moves, " "))
	}
	for _, ch := range out.Children {
		fmt.Fprintf(w, "  %-4s  %s\n", ch.Move, ch.text(off))
	}
}

// text describes one move for probe's text: under Repetition off the board
// margin and its mark first.
func (ch *childJSON) text(off bool) string {
	bounds := fmt.Sprintf("lo %3d hi %3d  distances %d/%d", ch.Lo, ch.Hi, ch.DistanceLo, ch.DistanceHi)
	if ch.Keeps {
		bounds += "  keeps the bounds"
	}
	if ch.BoardMargin == nil {
		return bounds
	}
	margin := fmt.Sprintf("board margin %+3d", *ch.BoardMargin)
	if ch.KeepsBoardMargin {
		margin += "  keeps the margin"
	}
	if off {
		return margin + "  |  " + bounds
	}
	return bounds + "  |  " + margin + " (Repetition off)"
}

// tableView is what show prints about a position from the tables.
type tableView struct {
	Lo       int      `json:"lo"`
	Hi       int      `json:"hi"`
	Exact    bool     `json:"exact"`
	Distance int      `json:"distance"`
	Moves    []string `json:"moves"`
	// Note says why there is no entry (above the tables, Katro, over).
	Note string `json:"note,omitempty"`
}

// openTables opens the tables of --tables dir for v's rules; they exist for
// Hoyito III only, and any other game is refused.
func openTables(dir string, v *board.Variant) (*tables.Tables, error) {
	if v.Family() != board.Hoyito {
		return nil, usagef("--tables: tables exist for hoyito3 only")
	}
	return openTableDir("--tables", dir, v)
}

// openTableDir opens the tables in dir, given by flag. Every error is a bad
// argument naming flag, found before any work: a directory that is not
// there or not a directory, and whatever tables.Open refuses (no table
// for these rules, a file damaged, truncated, foreign, or not built from
// the layer below), since all it reads is what dir holds.
func openTableDir(flag, dir string, v *board.Variant) (*tables.Tables, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, usagef("%s %s: %v", flag, dir, errors.Unwrap(err))
	}
	if !fi.IsDir() {
		return nil, usagef("%s %s: not a directory", flag, dir)
	}
	tb, err := tables.Open(dir, v.Rules())
	if err != nil {
		return nil, flagError(flag, err)
	}
	return tb, nil
}

// viewTables opens the tables in dir for p's rules and looks p up.
func viewTables(dir string, p *board.Position) (*tableView, error) {
	tb, err := openTables(dir, p.Variant())
	if err != nil {
		return nil, err
	}
	defer tb.Close()
	e, ms, err := tb.Moves(p)
	if err != nil {
		return &tableView{Note: fmt.Sprintf("not in the tables (%d seeds on the board; the tables hold 8 to %d)", p.OnBoard(), tb.Top())}, nil
	}
	v := &tableView{Lo: e.Lo, Hi: e.Hi, Exact: e.Exact(), Distance: e.Distance(), Moves: []string{}}
	for _, m := range ms {
		if m.Keeps {
			v.Moves = append(v.Moves, m.Move.String())
		}
	}
	return v, nil
}

// write prints the view under a diagram; nothing for a nil view.
func (v *tableView) write(w io.Writer) {
	switch {
	case v == nil:
	case v.Note != "":
		fmt.Fprintf(w, "Tables: %s\n", v.Note)
	case v.Exact:
		fmt.Fprintf(w, "Tables: exact %+d for the side to move (seeds on the board), secured within %d plies; keeping the value: %s\n",
			v.Lo, v.Distance, strings.Join(v.Moves, " "))
	default:
		fmt.Fprintf(w, "Tables: between %+d and %+d for the side to move (the rest depends on the repetition and no-capture rules); %s keep %+d\n",
			v.Lo, v.Hi, strings.Join(v.Moves, " "), v.Lo)
	}
}
