package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os/exec"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/sower-engine/sower/bench"
	"github.com/sower-engine/sower/protocol"
	"github.com/sower-engine/sower/search"
	"github.com/sower-engine/sower/search/book"
)

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1 // the command ran and failed
	exitUsage = 2 // bad arguments or input
	// exitInterrupted is the status of a command stopped by Ctrl-C, as a
	// shell reports a program that SIGINT ended (128 + 2): the command
	// still shows or keeps what it had done.
	exitInterrupted = 130
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(c *cli, args []string) error
}

// cli carries the streams of one invocation.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// availMiB reports the memory available for a hash table (see
	// search.AvailableMiB, the default when nil); tests set their own.
	availMiB func() (int, bool)
	// browser returns the command that opens a page in a browser (gui
	// --open; browserCommand when nil); tests set their own.
	browser func(url string) *exec.Cmd
	// proofs are the proof certificates match --adjudicate-proven reads
	// (nil: the embedded ones, with the book kept in the user's cache);
	// tests set a small set.
	proofs fs.FS
}

// usageError marks an error caused by the arguments: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// interruptedError marks a command stopped by Ctrl-C: exit status 130. Its
// message starts with "interrupted" and says what was kept.
type interruptedError struct{ msg string }

func (e interruptedError) Error() string { return e.msg }

// interruptedf returns an interruptedError; the message follows
// "interrupted", as in interruptedf("after %d games", n).
func interruptedf(format string, a ...any) error {
	if format == "" {
		return interruptedError{"interrupted"}
	}
	return interruptedError{"interrupted " + fmt.Sprintf(format, a...)}
}

func commands() []command {
	return []command{
		{"perft", "count move sequences to a depth (rule check and speed)", (*cli).perft},
		{"show", "play moves and show the board, legal moves and status", (*cli).show},
		{"analyse", "search a position and show the best move (also spelled analyze)", (*cli).analyse},
		{"review", "review a recorded game with the engine: every move marked, better moves", (*cli).review},
		{"eval", "show the static evaluation term by term, or the network's where one plays", (*cli).eval},
		{"bench", "search the built-in positions; prints the node-count signature", (*cli).bench},
		{"match", "play engine-versus-engine matches (Elo, SPRT, game records)", (*cli).match},
		{"broker", "run a NATS broker for matches on many machines", (*cli).broker},
		{"worker", "play the game pairs of matches given out by a broker", (*cli).worker},
		{"gui", "play and analyse in the browser (a local web server)", (*cli).gui},
		{"tables", "build or probe Hoyito III endgame tables", (*cli).tables},
		{"solve", "prove who wins (Katro: proof-number search) or the value (Hoyito III: MTD(f), tables)", (*cli).solve},
		{"frontier", "measure how far from a Katro game's end proof-number search proves it", (*cli).frontier},
		{"verify", "check a Katro proof certificate with the rules alone", (*cli).verify},
		{"datagen", "play self-play games and write their positions as training data", (*cli).datagen},
		{"tune", "fit the learned evaluation's weights, or the win/draw/loss model, to training data", (*cli).tune},
		{"train", "fit a network evaluation (NNUE) to training data", (*cli).train},
	}
}

// run executes one invocation and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &cli{stdin: stdin, stdout: stdout, stderr: stderr}
	return c.run(args)
}

// run executes one invocation with c's streams and returns the exit status.
func (c *cli) run(args []string) int {
	stdout := c.stdout
	if len(args) == 0 || strings.HasPrefix(args[0], "--max-hash") {
		return c.fail(c.serve(args))
	}
	name := args[0]
	switch name {
	case "help":
		return c.fail(c.helpCommand(args[1:]))
	case "-h", "--help":
		c.help()
		return exitOK
	case "version", "--version":
		fmt.Fprintf(stdout, "sower %s\n", protocol.Version)
		return exitOK
	}
	if cmd, ok := lookup(name); ok {
		return c.fail(cmd.run(c, args[1:]))
	}
	return c.fail(usagef("unknown command %q; run sower help", name))
}

// aliases are other spellings of commands' names.
var aliases = map[string]string{"analyze": "analyse"}

// lookup returns the command called name, or spelled so (aliases).
func lookup(name string) (command, bool) {
	if n, ok := aliases[name]; ok {
		name = n
	}
	for _, cmd := range commands() {
		if cmd.name == name {
			return cmd, true
		}
	}
	return command{}, false
}

// helpCommand is "sower help [COMMAND [SUBCOMMAND]]": the list of
// commands, or a command's help, as "sower COMMAND [SUBCOMMAND] --help"
// prints it.
func (c *cli) helpCommand(args []string) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		c.help()
		return nil
	}
	cmd, ok := lookup(args[0])
	if !ok {
		return usagef("unknown command %q; run sower help", args[0])
	}
	return cmd.run(c, append(slices.Clone(args[1:]), "--help"))
}

// serve speaks the engine protocol on the standard streams. Its one flag,
// --max-hash, caps the Hash option.
func (c *cli) serve(args []string) error {
	var maxHash int
	fs := c.flags("", "[--max-hash MB]")
	fs.IntVar(&maxHash, "max-hash", search.MaxHashMiB, "the largest Hash value the protocol accepts, in MiB")
	if err := parse(fs, args); err != nil {
		return err
	}
	if maxHash < search.MinHashMiB || maxHash > search.MaxHashMiB {
		return usagef("--max-hash %d: want %d to %d", maxHash, search.MinHashMiB, search.MaxHashMiB)
	}
	books := &book.Library{CacheDir: book.DefaultCacheDir()}
	defer books.Close() // a book still loading when the session ends
	cfg := protocol.Config{
		Bench: func(ctx context.Context, w io.Writer, o search.Options, multiPV int) error {
			return runBench(ctx, w, bench.Settings{Engine: o, MultiPV: multiPV})
		},
		MaxHashMiB: maxHash,
		Books:      books,
	}
	// A banner first, as Stockfish prints: engine protocol clients pass
	// over the lines before the answer to their handshake.
	fmt.Fprintf(c.stdout, "Sower %s by the Sower developers (type uci or ugi)\n", protocol.Version)
	return protocol.ServeWith(context.Background(), c.stdin, c.stdout, cfg)
}

// fail prints err as one line and returns the matching exit status.
func (c *cli) fail(err error) int {
	if err == nil {
		return exitOK
	}
	if errors.Is(err, pflag.ErrHelp) {
		return exitOK
	}
	fmt.Fprintf(c.stderr, "sower: %s\n", oneLine(err.Error()))
	var u usageError
	if errors.As(err, &u) {
		return exitUsage
	}
	var in interruptedError
	if errors.As(err, &in) {
		return exitInterrupted
	}
	return exitFail
}

// checkHash refuses a --hash size outside the engine's range or more than
// the machine can spare now, with fits, the check made before the tables
// are allocated (search.CheckHashMemory for one engine's,
// search.CheckHashesMemory for several, search.CheckSolveMemory for the
// solver's). Commands call it before any work, so that a size too large
// is a one-line error rather than the runtime's fatal out-of-memory.
func (c *cli) checkHash(mib int, fits func(mib, availMiB int) error) error {
	if mib < search.MinHashMiB || mib > search.MaxHashMiB {
		return usagef("--hash %d: want %d to %d", mib, search.MinHashMiB, search.MaxHashMiB)
	}
	avail := c.availMiB
	if avail == nil {
		avail = search.AvailableMiB
	}
	if n, ok := avail(); ok {
		if err := fits(mib, n); err != nil {
			return usagef("--hash: %v", err)
		}
	}
	return nil
}

// rangeError rewords the flag parser's error for a number too large or too
// small for the flag's integer type, which it calls "must be an integer":
// "--nodes 99999999999999999999: too large (at most 18446744073709551615)".
// Any other error is returned as it is.
func rangeError(err error) error {
	var iv *pflag.InvalidValueError
	if !errors.As(err, &iv) {
		return err
	}
	name, v := iv.GetFlag().Name, iv.GetValue()
	var perr error
	var lo, hi string
	switch iv.GetFlag().Value.Type() {
	case "int", "int64":
		_, perr = strconv.ParseInt(v, 0, 64)
		lo, hi = strconv.FormatInt(math.MinInt64, 10), strconv.FormatInt(math.MaxInt64, 10)
	case "uint", "uint64":
		_, perr = strconv.ParseUint(v, 0, 64)
		hi = strconv.FormatUint(math.MaxUint64, 10)
	}
	if !errors.Is(perr, strconv.ErrRange) {
		return err
	}
	if strings.HasPrefix(v, "-") && lo != "" {
		return fmt.Errorf("--%s %s: too small (at least %s)", name, v, lo)
	}
	return fmt.Errorf("--%s %s: too large (at most %s)", name, v, hi)
}

func oneLine(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ") }

func (c *cli) help() {
	fmt.Fprintln(c.stdout, "usage: sower [command] [flags]")
	fmt.Fprintln(c.stdout, "\nWith no command, sower speaks the engine protocol on stdin/stdout;")
	fmt.Fprintln(c.stdout, "sower --max-hash MB does the same with the Hash option capped at MB.")
	fmt.Fprintln(c.stdout, "\nCommands:")
	for _, cmd := range commands() {
		fmt.Fprintf(c.stdout, "  %-9s %s\n", cmd.name, cmd.summary)
	}
	fmt.Fprintln(c.stdout, "\nRun sower help <command> (or sower <command> --help) for its flags.")
}

// flags returns a flag set that reports errors instead of printing them.
func (c *cli) flags(name, synopsis string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(c.stdout) // only --help prints: errors are returned
	fs.Usage = func() {
		fmt.Fprintf(c.stdout, "usage: %s\n\nFlags:\n", strings.Join(strings.Fields("sower "+name+" "+synopsis), " "))
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args and turns flag errors into usage errors.
func parse(fs *pflag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return usageError{rangeError(err)}
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}
