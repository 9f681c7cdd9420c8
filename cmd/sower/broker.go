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
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/sower-engine/sower/bench/broker"
	"github.com/sower-engine/sower/bench/match"
	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/selfplay"
	"github.com/sower-engine/sower/protocol"
)

// brokerFlags say how a coordinator or a worker reaches the broker.
type brokerFlags struct {
	url, creds    string
	ca, cert, key string
	log           io.Writer // gets the connection's events (lost, refused, found again)
}

// addBrokerFlags adds the flags that reach a broker; log gets the
// connection's events.
func addBrokerFlags(fs *pflag.FlagSet, what string, log io.Writer) *brokerFlags {
	b := brokerFlags{log: log}
	fs.StringVar(&b.url, "broker", "", what+` (nats://[TOKEN@]HOST:PORT; see docs/distributed.md)`)
	fs.StringVar(&b.creds, "broker-creds", "", "NATS credentials file for the broker")
	fs.StringVar(&b.ca, "broker-ca", "", "PEM file of the authorities that sign the broker's TLS certificate")
	fs.StringVar(&b.cert, "broker-cert", "", "client TLS certificate for the broker (PEM)")
	fs.StringVar(&b.key, "broker-key", "", "the client certificate's key (PEM)")
	return &b
}

// dial connects to the broker; every failure is a usage error (exit 2).
func (b *brokerFlags) dial(name string) (*broker.Client, error) {
	c, err := broker.Dial(broker.ClientOptions{URL: b.url, Creds: b.creds, CA: b.ca, Cert: b.cert, Key: b.key, Name: name, Log: b.log})
	if err != nil {
		return nil, usageError{err}
	}
	return c, nil
}

// matchOnBroker holds the flags only a match over the broker has.
type matchOnBroker struct {
	*brokerFlags
	id      string
	ackWait int
	client  *broker.Client // connected by check
	out     string         // the --out file, whose records a resumed match does not write again
	pgn     string         // the --pgn file, likewise
}

// addMatchBrokerFlags adds the flags of "sower match --broker"; log gets
// the connection's events.
func addMatchBrokerFlags(fs *pflag.FlagSet, log io.Writer) *matchOnBroker {
	m := &matchOnBroker{brokerFlags: addBrokerFlags(fs, "play the pairs on the workers of this broker", log)}
	fs.StringVar(&m.id, "match-id", "", "the match's name on the broker (default: derived from the settings, so the same command resumes it)")
	fs.IntVar(&m.ackWait, "ack-wait", int(broker.DefaultAckWait/time.Millisecond), "milliseconds a task may go without a sign of life from its worker before another worker gets it")
	return m
}

// check refuses what a match or tournament (tn, when not nil) over the
// broker cannot do, and connects to the broker.
func (m *matchOnBroker) check(fs *pflag.FlagSet, cfg *match.Config, tn *match.Tournament) error {
	if m.url == "" {
		for _, name := range []string{"match-id", "ack-wait", "broker-creds", "broker-ca", "broker-cert", "broker-key"} {
			if fs.Changed(name) {
				return usagef("--%s needs --broker", name)
			}
		}
		return nil
	}
	switch {
	case cfg.Traditional:
		return usagef("--traditional-match plays its games in sequence: it cannot be spread over workers (leave out --broker)")
	case cfg.NoRepeat:
		return usagef("--repeat=false with --broker: a task carries one opening for its pair of games")
	case fs.Changed("log"):
		return usagef("--log with --broker: each worker writes its engines' log (sower worker --log FILE)")
	case m.ackWait <= 0:
		return usagef("--ack-wait %d: want a positive number of milliseconds", m.ackWait)
	case m.id != "":
		if err := broker.CheckID(m.id); err != nil {
			return usagef("--match-id: %v", err)
		}
	}
	engines := cfg.Engines[:]
	validate := cfg.Validate
	if tn != nil {
		engines, validate = tn.Engines, tn.Validate
	}
	if err := validate(); err != nil {
		return usageError{err}
	}
	for _, e := range engines {
		if e.Dir != "" {
			return usagef("--engines: %s has a dir, which a match on a broker cannot use: workers run the uploaded program in their own directory", e.Name)
		}
	}
	var err error
	m.client, err = m.dial("sower match")
	return err
}

// run plays the match, on the broker when one is given.
func (m *matchOnBroker) run(ctx context.Context, cfg match.Config) (match.Summary, error) {
	if m.url == "" {
		return match.Run(ctx, cfg)
	}
	c := m.client
	defer c.Close()
	ctx, cancel := c.Context(ctx)
	defer cancel()
	fmt.Fprintf(cfg.Progress, "Broker %s\n", c.URL())
	bm := broker.Match{Config: cfg, ID: m.id, AckWait: time.Duration(m.ackWait) * time.Millisecond}
	var err error
	if bm.Build, err = buildFor(cfg.Engines[:]); err != nil {
		return match.Summary{}, err
	}
	if bm.Written, bm.PGNWritten, err = m.written(); err != nil {
		return match.Summary{}, err
	}
	sum, err := broker.Run(ctx, c, bm)
	if errors.Is(err, broker.ErrSettings) {
		err = usageError{err}
	}
	return sum, connectionLost(ctx, err)
}

// runTournament plays the tournament, on the broker when one is given.
func (m *matchOnBroker) runTournament(ctx context.Context, tn match.Tournament) (match.Standings, error) {
	if m.url == "" {
		return match.RunTournament(ctx, tn)
	}
	c := m.client
	defer c.Close()
	ctx, cancel := c.Context(ctx)
	defer cancel()
	fmt.Fprintf(tn.Config.Progress, "Broker %s\n", c.URL())
	bt := broker.Tournament{Tournament: tn, ID: m.id, AckWait: time.Duration(m.ackWait) * time.Millisecond}
	var err error
	if bt.Build, err = buildFor(tn.Engines); err != nil {
		return match.Standings{}, err
	}
	if bt.Written, bt.PGNWritten, err = m.written(); err != nil {
		return match.Standings{}, err
	}
	st, err := broker.RunTournament(ctx, c, bt)
	if errors.Is(err, broker.ErrSettings) {
		err = usageError{err}
	}
	return st, connectionLost(ctx, err)
}

// buildFor returns this program's build when an engine is a built-in
// player, whose workers' players must be this program's; else none.
func buildFor(engines []match.EngineSpec) (broker.Build, error) {
	for _, e := range engines {
		if e.Builtin != "" {
			return broker.ThisBuild(protocol.Version)
		}
	}
	return broker.Build{}, nil
}

// written reads what the --out and --pgn files hold already, for a
// resumed match or tournament not to write a record twice.
func (m *matchOnBroker) written() (json, pgn func(*record.GameRecord) bool, err error) {
	for _, o := range []struct {
		flag, path string
		read       func(io.Reader) (func(*record.GameRecord) bool, error)
		held       *func(*record.GameRecord) bool
	}{{"--out", m.out, broker.Written, &json}, {"--pgn", m.pgn, broker.WrittenPGN, &pgn}} {
		if o.path == "" {
			continue
		}
		f, err := os.Open(o.path)
		if err != nil {
			return nil, nil, flagError(o.flag, err)
		}
		*o.held, err = o.read(f)
		f.Close()
		if err != nil {
			return nil, nil, flagError(o.flag, err)
		}
	}
	return json, pgn, nil
}

func (c *cli) broker(args []string) error {
	var o broker.ServerOptions
	fs := c.flags("broker", "--dir DIR [--listen HOST:PORT] [--token T] [--config FILE]")
	fs.StringVar(&o.Listen, "listen", "127.0.0.1:4222", "address to listen on; other than loopback only with --token or users in --config")
	fs.StringVar(&o.Dir, "dir", "", "directory of the streams (kept across restarts)")
	fs.StringVar(&o.Token, "token", "", "secret token clients must give (nats://TOKEN@host:port)")
	fs.StringVar(&o.ConfigFile, "config", "", "nats-server configuration file (users, NKeys, accounts, TLS)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if o.Dir == "" {
		return usagef("--dir is required")
	}
	if o.Token == "" {
		o.Token = os.Getenv("SOWER_BROKER_TOKEN")
	}
	srv, err := broker.Serve(o)
	if err != nil {
		return usageError{err}
	}
	defer srv.Close()
	host, _, _ := strings.Cut(srv.Addr(), ":")
	access := "loopback only: other machines cannot connect (give --token to accept them)"
	switch {
	case srv.Secured():
		access = "clients must authenticate"
	case !broker.IsLoopback(host):
		access = "open to every client that reaches it"
	}
	dir, _ := filepath.Abs(o.Dir)
	fmt.Fprintf(c.stdout, "sower broker: %s (%s); JetStream in %s\n", srv.URL(), access, dir)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	fmt.Fprintln(c.stderr, "sower broker: stopping")
	return nil
}

func (c *cli) worker(args []string) error {
	var w broker.Worker
	fs := c.flags("worker", "--broker URL [--concurrency N] [--cache DIR] [--name NAME]")
	b := addBrokerFlags(fs, "the broker to take pair tasks from", c.stderr)
	fs.IntVar(&w.Concurrency, "concurrency", 1, "pairs to play at once")
	fs.StringVar(&w.CacheDir, "cache", "", "directory for the engine programs fetched (default: the user's cache directory)")
	fs.StringVar(&w.Name, "name", "", "the worker's name in the coordinators' progress (default: HOST-PID)")
	logPath := fs.String("log", "", "append every line sent to and read from the engines to this file")
	if err := parse(fs, args); err != nil {
		return err
	}
	switch {
	case b.url == "":
		return usagef("--broker is required")
	case w.Concurrency < 1:
		return usagef("--concurrency %d: want at least 1", w.Concurrency)
	}
	if w.Name == "" {
		host, _ := os.Hostname()
		w.Name = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	if err := broker.CheckID(w.Name); err != nil {
		return usagef("--name: %v", strings.Replace(err.Error(), "match id", "name", 1))
	}
	if w.CacheDir == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return usagef("no cache directory (%v): give --cache", err)
		}
		w.CacheDir = filepath.Join(dir, "sower", "engines")
	}
	if *logPath != "" {
		f, err := os.OpenFile(*logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return usageError{err}
		}
		defer f.Close()
		w.Log = f
	}
	var err error
	if w.Build, err = broker.ThisBuild(protocol.Version); err != nil {
		return err
	}
	cl, err := b.dial("sower worker " + w.Name)
	if err != nil {
		return err
	}
	defer cl.Close()
	w.Progress = c.stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(c.stderr, "sower worker %s: %s, %d at once, engines cached in %s; self-play and built-in players as %s\n", w.Name, cl.URL(), w.Concurrency, w.CacheDir, w.Build)
	ctx, cancel := cl.Context(ctx)
	defer cancel()
	if err := connectionLost(ctx, w.Serve(ctx, cl)); err != nil {
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	}
	fmt.Fprintf(c.stderr, "sower worker %s: stopped\n", w.Name)
	return nil
}

// datagenOnBroker holds the flags of "sower datagen --broker".
type datagenOnBroker struct {
	*brokerFlags
	id      string
	batch   int
	ackWait int
	client  *broker.Client // connected by check
}

// addDatagenBrokerFlags adds the flags of "sower datagen --broker"; log
// gets the connection's events.
func addDatagenBrokerFlags(fs *pflag.FlagSet, log io.Writer) *datagenOnBroker {
	d := &datagenOnBroker{brokerFlags: addBrokerFlags(fs, "play the games on the workers of this broker", log)}
	fs.StringVar(&d.id, "run-id", "", "the run's name on the broker (default: derived from the settings)")
	fs.IntVar(&d.batch, "batch", 4, "games per task given to a worker")
	fs.IntVar(&d.ackWait, "ack-wait", int(broker.DefaultAckWait/time.Millisecond), "milliseconds a task may go without a sign of life from its worker before another worker gets it")
	return d
}

// check checks the flags and connects to the broker, if one is given.
func (d *datagenOnBroker) check(fs *pflag.FlagSet) error {
	if d.url == "" {
		for _, name := range []string{"run-id", "batch", "ack-wait", "broker-creds", "broker-ca", "broker-cert", "broker-key"} {
			if fs.Changed(name) {
				return usagef("--%s needs --broker", name)
			}
		}
		return nil
	}
	switch {
	case d.batch < 1:
		return usagef("--batch %d: want at least 1", d.batch)
	case d.ackWait <= 0:
		return usagef("--ack-wait %d: want a positive number of milliseconds", d.ackWait)
	case d.id != "":
		if err := broker.CheckID(d.id); err != nil {
			return usagef("--run-id: %v", strings.Replace(err.Error(), "match id", "run id", 1))
		}
	}
	var err error
	d.client, err = d.dial("sower datagen")
	return err
}

// run plays the games, on the broker when one is given.
func (d *datagenOnBroker) run(ctx context.Context, cfg selfplay.DatagenConfig, progress io.Writer) error {
	if d.url == "" {
		return selfplay.Datagen(ctx, cfg)
	}
	defer d.client.Close()
	build, err := broker.ThisBuild(protocol.Version)
	if err != nil {
		return err
	}
	fmt.Fprintf(progress, "datagen: on the workers of the broker %s, which must run %s\n", d.client.URL(), build)
	ctx, cancel := d.client.Context(ctx)
	defer cancel()
	err = broker.Datagen(ctx, d.client, broker.DatagenJob{Config: cfg, ID: d.id, Batch: d.batch,
		AckWait: time.Duration(d.ackWait) * time.Millisecond, Progress: progress, Build: build})
	if errors.Is(err, broker.ErrSettings) {
		err = usageError{err}
	}
	return connectionLost(ctx, err)
}

// connectionLost returns, when ctx ended because the connection to the
// broker was closed for good, that cause (exit status 1, naming the
// broker) in place of err: the process ends rather than waiting for a
// connection that will not come back. Otherwise it returns err.
func connectionLost(ctx context.Context, err error) error {
	if cause := context.Cause(ctx); errors.Is(cause, broker.ErrConnectionLost) {
		return cause
	}
	return err
}
