package protocol

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search"
	"github.com/sower-engine/sower/search/book"
)

// Version is Sower's version, reported by "uci" and "sower --version".
const Version = "0.1.0"

// Author is the engine's author, reported by "uci".
const Author = "The Sower developers"

// Config holds what the protocol needs from outside the engine.
type Config struct {
	// Bench runs the benchmark for the "bench" command with the engine's
	// current options o (without the proof books, which answer a
	// position without searching it) and MultiPV lines: it searches
	// until it is done or ctx is cancelled (by "stop" or "quit") and
	// writes its report to w, which sends each line as
	// "info string <line>". Without it "bench" answers with an error
	// line.
	Bench func(ctx context.Context, w io.Writer, o search.Options, multiPV int) error

	// MaxHashMiB caps the Hash option below search.MaxHashMiB, for hosts
	// with little memory; 0 means search.MaxHashMiB.
	MaxHashMiB int

	// AvailableMiB reports the memory the machine can give now; a Hash
	// value whose table would not fit (see search.HashLimitMiB) is
	// refused. nil means search.AvailableMiB.
	AvailableMiB func() (int, bool)

	// Books are the proof books the engine answers from (the ProofBook
	// option); nil means none. The binary gives the embedded ones.
	Books *book.Library
}

// Serve speaks the protocol: it reads commands from in and writes responses
// to out until "quit" or the end of input. It is ServeWith with no bench.
func Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	return ServeWith(ctx, in, out, Config{})
}

// ServeWith speaks the protocol (docs/protocol.md) with cfg: it reads
// commands from in and writes responses to out until "quit", the end of
// the input or the cancellation of ctx. A search or other long command
// still running then is stopped and prints its last lines first.
//
// ServeWith returns nil after "quit" or the end of input, ctx.Err() when
// ctx is cancelled, and an error when in cannot be read or out cannot be
// written. It reads in from a goroutine of its own; when ctx is cancelled
// while that goroutine waits in in.Read, the goroutine ends when that Read
// returns.
func ServeWith(ctx context.Context, in io.Reader, out io.Writer, cfg Config) error {
	s := newServer(ctx, out, cfg)
	defer s.stopJob()
	lines := make(chan inputLine)
	done := make(chan struct{})
	defer close(done)
	go readInput(in, lines, done)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case l := <-lines:
			if l.err != nil {
				if errors.Is(l.err, io.EOF) {
					return s.writeErr()
				}
				return fmt.Errorf("reading commands: %w", l.err)
			}
			if errors.Is(s.handle(l), errQuit) {
				return s.writeErr()
			}
			if err := s.writeErr(); err != nil {
				return err
			}
		}
	}
}

// writeErr returns the first error writing the output, if any.
func (s *server) writeErr() error {
	if err := s.out.failed(); err != nil {
		return fmt.Errorf("writing responses: %w", err)
	}
	return nil
}

// errQuit ends the command loop.
var errQuit = errors.New("quit")

// server is the engine's state. Every field is owned by the command loop;
// a running job gets copies of what it needs and shares only out and, while
// it runs, the engine.
type server struct {
	ctx  context.Context
	out  *output
	cfg  Config
	cmds map[string]command

	variant  *board.Variant // with the rule options below
	rules    board.Rules
	game     *board.Game
	hashMiB  int
	overhead time.Duration
	eng      *search.Engine // made on first use
	multiPV  int            // lines to report, 1 or more
	threads  int            // search threads, applied at the next go
	showWDL  bool           // UCI_ShowWDL: info lines carry "wdl W D L"

	// Strength (Skill Level, UCI_LimitStrength, UCI_Elo) and the seed of
	// the weakened searches' choices, new in every process.
	skill         int
	limitStrength bool
	elo           int
	seed          uint64
	tb            tableState // Hoyito III endgame tables (TablePath)
	noEstimate    bool       // TableEstimate false
	prover        bool       // Prover true
	noBook        bool       // ProofBook false
	bookSaid      string     // the game whose proof book isready reported
	proverThread  bool       // ProverThread true
	nets          netState   // EvalType and EvalFile (net.go)
	evalLazy      int        // EvalLazy
	tableAtLevel  bool       // the table's scores came from searches at a strength level (levelTable)

	// refusedPosition is why the last position command was refused, until
	// the next go reports it or a position command is taken; "" if none.
	refusedPosition string

	job *job // the running or last search, perft or bench; nil if none
}

// job is a search, perft or bench running in its own goroutine. The
// command loop starts it, may cancel it, and waits on done before it
// touches the engine again or starts another: done is the only
// synchronisation between the two.
type job struct {
	cancel context.CancelFunc
	done   chan struct{} // closed when the job has written its last line

	// ponder is the handle of a "go ponder" search, which "ponderhit"
	// hits; nil otherwise.
	ponder *search.Ponder
}

// Defaults of the options.
const (
	defaultOverheadMs = 10
	maxOverheadMs     = 5000
)

func newServer(ctx context.Context, out io.Writer, cfg Config) *server {
	if cfg.MaxHashMiB <= 0 || cfg.MaxHashMiB > search.MaxHashMiB {
		cfg.MaxHashMiB = search.MaxHashMiB
	}
	if cfg.AvailableMiB == nil {
		cfg.AvailableMiB = search.AvailableMiB
	}
	s := &server{
		ctx:      ctx,
		out:      newOutput(out),
		cfg:      cfg,
		rules:    board.DefaultRules(),
		hashMiB:  min(search.DefaultHashMiB, cfg.MaxHashMiB),
		overhead: defaultOverheadMs * time.Millisecond,
		multiPV:  1,
		threads:  search.DefaultThreads,
		evalLazy: search.DefaultNetLazy,
		skill:    search.FullSkill,
		elo:      eloDefault(),
		seed:     uint64(time.Now().UnixNano()),
		cmds:     commands(),
	}
	v, err := board.NewWithRules(board.NameKatro, s.rules)
	if err != nil {
		panic(err) // the defaults are always valid
	}
	s.variant = v
	s.game = board.NewGame(v.Start())
	return s
}

// newJob makes the next job and its context. No job may be running (see
// stopJob); launch starts it.
func (s *server) newJob() (context.Context, *job) {
	ctx, cancel := context.WithCancel(s.ctx)
	return ctx, &job{cancel: cancel, done: make(chan struct{})}
}

// launch makes j the current job and runs f in a new goroutine; done is
// closed when f returns.
func (s *server) launch(ctx context.Context, j *job, f func(ctx context.Context)) {
	s.job = j
	go func() {
		defer close(j.done)
		f(ctx)
	}()
}

// stopJob stops the current job, if any, and waits until it has written
// its last line (a search its bestmove).
func (s *server) stopJob() {
	if s.job == nil {
		return
	}
	s.job.cancel()
	<-s.job.done
	s.job = nil
}

// engine returns the search engine, making it on first use.
func (s *server) engine() (*search.Engine, error) {
	if s.eng == nil {
		o, err := s.engineOptions()
		if err != nil {
			return nil, err
		}
		if s.eng, err = search.NewEngineWith(o); err != nil {
			return nil, err
		}
	}
	return s.eng, nil
}

// engineOptions returns the engine options the protocol's options give,
// from search.DefaultOptions.
func (s *server) engineOptions() (search.Options, error) {
	o := search.DefaultOptions()
	o.HashMiB, o.Threads, o.NetLazy = s.hashMiB, s.threads, s.evalLazy
	for _, f := range []board.Family{board.Katro, board.Hoyito} {
		n, err := s.network(f)
		if err != nil {
			return o, err
		}
		if n != nil {
			o.Nets = append(o.Nets, n)
		}
	}
	o.Tables, o.TableEstimate = s.tb.set, !s.noEstimate
	o.Prover, o.ProverThread = s.prover, s.proverThread
	o.Books = s.bookSource()
	return o, nil
}

// A command is one protocol command's handler. Handlers that change the
// engine's state or start a job read and check their arguments first, then
// stop a running job (see stopJob), then act: a rejected command leaves a
// running search alone.
type command func(s *server, args []string) error

func commands() map[string]command {
	return map[string]command{
		"uci":        (*server).cmdUCI,
		"ugi":        (*server).cmdUGI,
		"isready":    (*server).cmdIsReady,
		"debug":      (*server).cmdDebug,
		"register":   (*server).cmdRegister,
		"setoption":  (*server).cmdSetOption,
		"ucinewgame": (*server).cmdNewGame,
		"uginewgame": (*server).cmdNewGame,
		"position":   (*server).cmdPosition,
		"go":         (*server).cmdGo,
		"stop":       (*server).cmdStop,
		"ponderhit":  (*server).cmdPonderHit,
		"quit":       (*server).cmdQuit,
		"query":      (*server).cmdQuery,
		"d":          (*server).cmdD,
		"eval":       (*server).cmdEval,
		"perft":      (*server).cmdPerft,
		"bench":      (*server).cmdBench,
	}
}

// handle runs one input line. An error other than errQuit is reported as
// "info string error: …"; the handlers leave the state as it was when
// they fail.
func (s *server) handle(l inputLine) error {
	if l.tooLong {
		s.out.info(fmt.Sprintf("error: line of %d bytes is longer than %d bytes; ignored", l.length, MaxLineBytes))
		return nil
	}
	fields := strings.Fields(l.text)
	if len(fields) == 0 {
		return nil
	}
	name := strings.ToLower(fields[0])
	cmd, ok := s.cmds[name]
	if !ok {
		s.out.info(fmt.Sprintf("error: unknown command %s", quote(fields[0])))
		return nil
	}
	err := cmd(s, fields[1:])
	switch {
	case err == nil:
	case errors.Is(err, errQuit):
		return err
	default:
		s.out.info("error: " + name + ": " + err.Error())
	}
	return nil
}

// quote writes s in quotes for an error message, shortened if long.
func quote(s string) string {
	const max = 40
	if len(s) > max {
		r := []rune(s)
		if len(r) > max {
			s = string(r[:max]) + "…"
		}
	}
	return fmt.Sprintf("%q", s)
}

func (s *server) cmdQuit(args []string) error {
	s.stopJob()
	return errQuit
}

func (s *server) cmdIsReady(args []string) error {
	s.waitBook()
	s.out.print("readyok")
	return nil
}

func (s *server) cmdDebug(args []string) error {
	if len(args) != 1 || (!strings.EqualFold(args[0], "on") && !strings.EqualFold(args[0], "off")) {
		return errors.New(`want "debug on" or "debug off"`)
	}
	return nil // Sower has no debug output: accepted and ignored
}

func (s *server) cmdRegister(args []string) error { return nil } // nothing to register

func (s *server) cmdStop(args []string) error {
	s.stopJob()
	return nil
}

func (s *server) cmdPonderHit(args []string) error {
	if j := s.job; j != nil && j.ponder != nil {
		j.ponder.Hit() // the second and later hits do nothing
	}
	return nil
}

func (s *server) cmdNewGame(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("unexpected %s", quote(args[0]))
	}
	s.stopJob()
	s.game = board.NewGame(s.variant.Start())
	if s.eng != nil {
		s.eng.ClearHash()
	}
	return nil
}

// eloDefault returns UCI_Elo's default: the bottom of its range.
func eloDefault() int {
	lo, _ := search.SkillEloRange()
	return lo
}
