package client

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/sower-engine/sower/board"
)

// MaxLine bounds a line read from an engine; a longer line is taken as a
// crash.
const MaxLine = 1 << 20

// QuitGrace is how long Close lets an engine take to exit after "quit"
// before it is killed, when the caller has no better idea.
const QuitGrace = 500 * time.Millisecond

// Spec says how to start an engine.
type Spec struct {
	Name    string   // for the log and messages
	Command []string // program and arguments
	// Dir is the directory the engine runs in ("": this process's). A
	// relative program path with a separator ("./sower") is found there.
	Dir     string
	Options []Option // sent with setoption after the handshake
}

// Option is an engine option to set: "setoption name <Name> value <Value>",
// or without "value" when Value is empty (a button).
type Option struct{ Name, Value string }

// Command writes the setoption command for o.
func (o Option) Command() string {
	if o.Value == "" {
		return "setoption name " + o.Name
	}
	return "setoption name " + o.Name + " value " + o.Value
}

// line is one line from an engine and the time it was read.
type line struct {
	text string
	at   time.Time
}

// Engine is an engine running as a child process, spoken to over pipes.
type Engine struct {
	name    string
	timeout time.Duration
	log     *Log

	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	lines  chan line // closed when the engine's output ends
	// readErr is why the output ended, if not at its end; it is set
	// before lines is closed.
	readErr error
	quit    chan struct{} // closed by Close, to stop the reader
	exited  chan struct{} // closed when the process has exited

	id       string            // from "id name", if any
	declared []Declared        // the options "uci" listed
	sent     map[string]string // options as last sent, by lower-case name

	ponder *ponder // the running "go ponder", if any (ponder.go)
}

// Start starts the engine, completes the "uci" handshake and sends the
// spec's options. timeout bounds every wait that no clock limits
// (uciok, readyok, writing a command, bestmove after stop). log may be
// nil.
func Start(ctx context.Context, spec Spec, timeout time.Duration, log *Log) (*Engine, *Fault) {
	if len(spec.Command) == 0 {
		return nil, &Fault{Crash, "no command"}
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, &Fault{Crash, err.Error()}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, &Fault{Crash, err.Error()}
	}
	cmd := exec.Command(spec.Command[0], spec.Command[1:]...)
	cmd.Dir = spec.Dir
	cmd.Stdin, cmd.Stdout = inR, outW
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, &Fault{Crash, err.Error()}
	}
	e := &Engine{
		name: spec.Name, timeout: timeout, log: log,
		cmd: cmd, stdin: inW, stdout: outR,
		lines: make(chan line, 256), quit: make(chan struct{}), exited: make(chan struct{}),
		sent: map[string]string{},
	}
	go e.read()
	go func() {
		cmd.Wait()
		close(e.exited)
	}()
	if f := e.handshake(ctx, spec.Options); f != nil {
		e.Close(0)
		return nil, f
	}
	return e, nil
}

// Name returns the name the spec gave.
func (e *Engine) Name() string { return e.name }

// ID returns what the engine called itself in "id name", or "".
func (e *Engine) ID() string { return e.id }

// Declared returns the options the engine listed in the handshake.
func (e *Engine) Declared() []Declared { return e.declared }

// HasOption reports whether the engine listed an option of that name (in
// any case).
func (e *Engine) HasOption(name string) (Declared, bool) {
	for _, d := range e.declared {
		if strings.EqualFold(d.Name, name) {
			return d, true
		}
	}
	return Declared{}, false
}

// read passes the engine's lines to e.lines until its output ends.
func (e *Engine) read() {
	defer close(e.lines)
	sc := bufio.NewScanner(e.stdout)
	sc.Buffer(make([]byte, 0, 4096), MaxLine)
	for sc.Scan() {
		l := line{strings.TrimSpace(sc.Text()), time.Now()}
		e.log.printf(e.name, "<", l.text)
		select {
		case e.lines <- l:
		case <-e.quit:
			return
		}
	}
	e.readErr = sc.Err()
}

// handshake sends "uci", waits for "uciok", noting the engine's name and
// options, and sends the options.
func (e *Engine) handshake(ctx context.Context, opts []Option) *Fault {
	if f := e.send("uci"); f != nil {
		return f
	}
	_, f := e.await(ctx, e.timeout, false, "uciok", nil, func(l line) bool {
		switch firstWord(l.text) {
		case "uciok":
			return true
		case "id":
			if rest, ok := strings.CutPrefix(l.text, "id name "); ok {
				e.id = strings.TrimSpace(rest)
			}
		case "option":
			if d, ok := ParseDeclared(l.text); ok {
				e.declared = append(e.declared, d)
			}
		}
		return false
	})
	if f != nil {
		return f
	}
	return e.SetOptions(opts)
}

// SetOptions sends the options whose values differ from those last sent.
func (e *Engine) SetOptions(opts []Option) *Fault {
	for _, o := range opts {
		key := strings.ToLower(o.Name)
		if v, ok := e.sent[key]; ok && v == o.Value {
			continue
		}
		if f := e.send(o.Command()); f != nil {
			return f
		}
		e.sent[key] = o.Value
	}
	return nil
}

// NewGame sets the options, sends "ucinewgame" and waits until the engine
// is ready.
func (e *Engine) NewGame(ctx context.Context, opts []Option) *Fault {
	if f := e.SetOptions(opts); f != nil {
		return f
	}
	if f := e.send("ucinewgame"); f != nil {
		return f
	}
	return e.Ready(ctx, nil)
}

// Ready sends "isready" and waits for "readyok", passing the lines before
// it to each (if not nil).
func (e *Engine) Ready(ctx context.Context, each func(string)) *Fault {
	if f := e.send("isready"); f != nil {
		return f
	}
	_, f := e.await(ctx, e.timeout, false, "readyok", nil, func(l line) bool {
		if l.text == "readyok" {
			return true
		}
		if each != nil {
			each(l.text)
		}
		return false
	})
	return f
}

// Think sends g's position and req's go command and waits for bestmove.
// The reply holds the move as written (checking it is the caller's work),
// the time from go to bestmove and what the info lines said.
func (e *Engine) Think(ctx context.Context, g *board.Game, req Go) (Reply, *Fault) {
	e.drain()
	if f := e.send(PositionCommand(g)); f != nil {
		return Reply{}, f
	}
	if f := e.send(req.Command()); f != nil {
		return Reply{}, f
	}
	return e.awaitBest(ctx, req, time.Now())
}

// awaitBest waits for the bestmove of a go command sent at start.
func (e *Engine) awaitBest(ctx context.Context, req Go, start time.Time) (Reply, *Fault) {
	var r Reply
	wait, timed := req.Wait, req.Timed
	if req.Infinite {
		wait, timed = 0, false
	}
	l, f := e.await(ctx, wait, timed, "bestmove", req.Stop, func(l line) bool {
		switch firstWord(l.text) {
		case "info":
			r.Info.Parse(l.text)
			if req.Each != nil {
				req.Each(l.text)
			}
		case "bestmove":
			return true
		}
		return false
	})
	if f != nil {
		return r, f
	}
	r.Move, r.Ponder = parseBestMove(l.text)
	r.Elapsed = max(l.at.Sub(start), 0)
	return r, nil
}

// parseBestMove reads "bestmove <move> [ponder <move>]".
func parseBestMove(s string) (move, ponder string) {
	f := strings.Fields(s)
	if len(f) > 1 {
		move = f[1]
	}
	if len(f) > 3 && f[2] == "ponder" {
		ponder = f[3]
	}
	return move, ponder
}

// PositionCommand writes the position command for g: "position startpos"
// when the game began at its variant's start position, else "position fen
// <start>", then the moves played.
func PositionCommand(g *board.Game) string {
	start := g.Start()
	v := start.Variant()
	s := "position fen " + start.String()
	if start.String() == v.Start().String() {
		s = "position startpos"
	}
	if ms := g.Moves(); len(ms) > 0 {
		s += " moves " + board.FormatMoves(ms)
	}
	return s
}

func firstWord(s string) string {
	s = strings.TrimLeft(s, " \t")
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i]
	}
	return s
}

// drain discards lines already read (stray output between commands).
func (e *Engine) drain() {
	for {
		select {
		case _, ok := <-e.lines:
			if !ok {
				return
			}
		default:
			return
		}
	}
}

// send writes one command line.
func (e *Engine) send(cmd string) *Fault { return e.sendWithin(cmd, e.timeout) }

// sendWithin writes one command line, giving up after d if the engine
// does not read its input.
func (e *Engine) sendWithin(cmd string, d time.Duration) *Fault {
	e.log.printf(e.name, ">", cmd)
	e.stdin.SetWriteDeadline(time.Now().Add(d))
	if _, err := io.WriteString(e.stdin, cmd+"\n"); err != nil {
		return &Fault{Crash, fmt.Sprintf("could not send %q: %v%s", firstWord(cmd), err, e.exitStatus())}
	}
	return nil
}

// await reads lines until done accepts one, the engine's output ends (a
// crash), wait passes (a time out if timed, else no answer; wait 0 with
// a stop channel waits for stop) or ctx is cancelled (aborted). When stop
// is closed, "stop" is sent once and the engine then has the timeout to
// answer.
func (e *Engine) await(ctx context.Context, wait time.Duration, timed bool, what string, stop <-chan struct{}, done func(line) bool) (line, *Fault) {
	var tc <-chan time.Time
	if wait > 0 || stop == nil {
		t := time.NewTimer(max(wait, 0))
		defer t.Stop()
		tc = t.C
	}
	for {
		select {
		case l, ok := <-e.lines:
			if !ok {
				if e.readErr != nil {
					return line{}, &Fault{Crash, fmt.Sprintf("unreadable output while waiting for %s: %v", what, e.readErr)}
				}
				return line{}, &Fault{Crash, "the engine exited while waiting for " + what + e.exitStatus()}
			}
			if done(l) {
				return l, nil
			}
		case <-stop:
			stop = nil
			if f := e.send("stop"); f != nil {
				return line{}, f
			}
			t := time.NewTimer(e.timeout)
			defer t.Stop()
			tc, wait, timed = t.C, e.timeout, false
		case <-tc:
			if timed {
				return line{}, &Fault{TimeOut, fmt.Sprintf("no %s within %v", what, wait.Round(time.Millisecond))}
			}
			return line{}, &Fault{NoAnswer, fmt.Sprintf("no %s within %v", what, wait.Round(time.Millisecond))}
		case <-ctx.Done():
			return line{}, &Fault{Aborted, ctx.Err().Error()}
		}
	}
}

// exitStatus returns " (exit status N)" once the process has exited
// (waiting a moment for it), or "".
func (e *Engine) exitStatus() string {
	select {
	case <-e.exited:
		return " (" + e.cmd.ProcessState.String() + ")"
	case <-time.After(100 * time.Millisecond):
		return ""
	}
}

// Close asks the engine to quit, kills it if it does not exit within
// grace (at once if grace is 0), and releases the pipes. Call it once.
func (e *Engine) Close(grace time.Duration) {
	select {
	case <-e.exited:
	default:
		if grace > 0 {
			e.sendWithin("quit", grace)
		}
		select {
		case <-e.exited:
		case <-time.After(grace):
			e.cmd.Process.Kill()
			<-e.exited
		}
	}
	close(e.quit)
	e.stdin.Close()
	e.stdout.Close()
}
