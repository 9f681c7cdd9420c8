package match

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/sower-engine/sower/board"
)

// Termination says how a game ended.
type Termination string

// Terminations. Every one but Normal is a forfeit by the player at fault.
const (
	Normal      Termination = "normal"       // by the rules (the reason says which)
	TimeForfeit Termination = "time forfeit" // the clock or the move time ran out (with the margin)
	IllegalMove Termination = "illegal move" // an illegal or unparseable bestmove
	Crash       Termination = "crash"        // the engine exited, closed its pipes or could not start
	NoAnswer    Termination = "no answer"    // no readyok, or no bestmove without a clock, within the timeout
	aborted     Termination = "aborted"      // the match was stopped; the game is not counted
)

// fault is a forfeit in the making: what went wrong and the details.
type fault struct {
	term   Termination
	detail string
}

// maxLine bounds a line read from an engine; a longer line is taken as a
// crash.
const maxLine = 1 << 20

// quitGrace is how long a process may take to exit after "quit" before it
// is killed.
const quitGrace = 500 * time.Millisecond

// line is one line from an engine and the time it was read.
type line struct {
	text string
	at   time.Time
}

// trafficLog writes every line sent to and read from the engines, from any
// goroutine. A nil *trafficLog writes nothing.
type trafficLog struct {
	mu    sync.Mutex
	w     io.Writer
	start time.Time
}

func (l *trafficLog) printf(name, dir, text string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "%9.3f %s %s %s\n", time.Since(l.start).Seconds(), name, dir, text)
}

// process is an engine running as a child process, spoken to over pipes.
type process struct {
	name    string // for the log
	timeout time.Duration
	log     *trafficLog

	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	lines  chan line // closed when the engine's output ends
	// readErr is why the output ended, if not at its end; it is set
	// before lines is closed.
	readErr error
	quit    chan struct{} // closed by close, to stop the reader
	exited  chan struct{} // closed when the process has exited

	sent map[string]string // options as last sent, by lower-case name
}

// startProcess starts the engine, completes the "uci" handshake and sends
// its options. A fault says in one line what went wrong.
func startProcess(ctx context.Context, spec *EngineSpec, timeout time.Duration, log *trafficLog) (*process, *fault) {
	if len(spec.Command) == 0 {
		return nil, &fault{Crash, "no command"}
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, &fault{Crash, err.Error()}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, &fault{Crash, err.Error()}
	}
	cmd := exec.Command(spec.Command[0], spec.Command[1:]...)
	cmd.Stdin, cmd.Stdout = inR, outW
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, &fault{Crash, err.Error()}
	}
	p := &process{
		name: spec.Name, timeout: timeout, log: log,
		cmd: cmd, stdin: inW, stdout: outR,
		lines: make(chan line, 256), quit: make(chan struct{}), exited: make(chan struct{}),
		sent: map[string]string{},
	}
	go p.read()
	go func() {
		cmd.Wait()
		close(p.exited)
	}()
	if f := p.handshake(ctx, spec.Options); f != nil {
		p.close(0)
		return nil, f
	}
	return p, nil
}

// read passes the engine's lines to p.lines until its output ends.
func (p *process) read() {
	defer close(p.lines)
	sc := bufio.NewScanner(p.stdout)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	for sc.Scan() {
		l := line{strings.TrimSpace(sc.Text()), time.Now()}
		p.log.printf(p.name, "<", l.text)
		select {
		case p.lines <- l:
		case <-p.quit:
			return
		}
	}
	p.readErr = sc.Err()
}

// handshake sends "uci", waits for "uciok" and sends the options.
func (p *process) handshake(ctx context.Context, opts []Option) *fault {
	if f := p.send("uci"); f != nil {
		return f
	}
	if _, f := p.await(ctx, p.timeout, false, "uciok", func(l line) bool { return l.text == "uciok" }); f != nil {
		return f
	}
	return p.setOptions(opts)
}

// setOptions sends the options whose values differ from those last sent.
func (p *process) setOptions(opts []Option) *fault {
	for _, o := range opts {
		key := strings.ToLower(o.Name)
		if v, ok := p.sent[key]; ok && v == o.Value {
			continue
		}
		if f := p.send(o.command()); f != nil {
			return f
		}
		p.sent[key] = o.Value
	}
	return nil
}

func (p *process) newGame(ctx context.Context, _ int, opts []Option) *fault {
	if f := p.setOptions(opts); f != nil {
		return f
	}
	if f := p.send("ucinewgame"); f != nil {
		return f
	}
	return p.ready(ctx, nil)
}

// ready sends "isready" and waits for "readyok", passing the lines before
// it to each (if not nil).
func (p *process) ready(ctx context.Context, each func(string)) *fault {
	if f := p.send("isready"); f != nil {
		return f
	}
	_, f := p.await(ctx, p.timeout, false, "readyok", func(l line) bool {
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

func (p *process) think(ctx context.Context, g *board.Game, req goRequest) (reply, *fault) {
	p.drain()
	if f := p.send(positionCommand(g)); f != nil {
		return reply{}, f
	}
	if f := p.send(req.command()); f != nil {
		return reply{}, f
	}
	start := time.Now()
	var r reply
	l, f := p.await(ctx, req.wait, req.timed, "bestmove", func(l line) bool {
		switch firstWord(l.text) {
		case "info":
			r.eval.parseInfo(l.text)
		case "bestmove":
			return true
		}
		return false
	})
	if f != nil {
		return r, f
	}
	if f := strings.Fields(l.text); len(f) > 1 {
		r.move = f[1]
	}
	r.elapsed = l.at.Sub(start)
	return r, nil
}

// positionCommand writes the position command for g: "position startpos"
// when the game began at its variant's start position, else "position fen
// <start>", then the moves played.
func positionCommand(g *board.Game) string {
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
func (p *process) drain() {
	for {
		select {
		case _, ok := <-p.lines:
			if !ok {
				return
			}
		default:
			return
		}
	}
}

// send writes one command line.
func (p *process) send(cmd string) *fault { return p.sendWithin(cmd, p.timeout) }

// sendWithin writes one command line, giving up after d if the engine
// does not read its input.
func (p *process) sendWithin(cmd string, d time.Duration) *fault {
	p.log.printf(p.name, ">", cmd)
	p.stdin.SetWriteDeadline(time.Now().Add(d))
	if _, err := io.WriteString(p.stdin, cmd+"\n"); err != nil {
		return &fault{Crash, fmt.Sprintf("could not send %q: %v%s", firstWord(cmd), err, p.exitStatus())}
	}
	return nil
}

// await reads lines until done accepts one, the engine's output ends (a
// crash), wait passes (a time forfeit if timed, else no answer) or ctx is
// cancelled (the game is aborted).
func (p *process) await(ctx context.Context, wait time.Duration, timed bool, what string, done func(line) bool) (line, *fault) {
	t := time.NewTimer(max(wait, 0))
	defer t.Stop()
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				if p.readErr != nil {
					return line{}, &fault{Crash, fmt.Sprintf("unreadable output while the arbiter waited for %s: %v", what, p.readErr)}
				}
				return line{}, &fault{Crash, "the engine exited while the arbiter waited for " + what + p.exitStatus()}
			}
			if done(l) {
				return l, nil
			}
		case <-t.C:
			if timed {
				return line{}, &fault{TimeForfeit, fmt.Sprintf("no %s within %v", what, wait.Round(time.Millisecond))}
			}
			return line{}, &fault{NoAnswer, fmt.Sprintf("no %s within %v", what, wait.Round(time.Millisecond))}
		case <-ctx.Done():
			return line{}, &fault{aborted, ctx.Err().Error()}
		}
	}
}

// exitStatus returns " (exit status N)" once the process has exited
// (waiting a moment for it), or "".
func (p *process) exitStatus() string {
	select {
	case <-p.exited:
		return " (" + p.cmd.ProcessState.String() + ")"
	case <-time.After(100 * time.Millisecond):
		return ""
	}
}

// close asks the engine to quit, kills it if it does not exit within
// grace (at once if grace is 0), and releases the pipes.
func (p *process) close(grace time.Duration) {
	select {
	case <-p.exited:
	default:
		if grace > 0 {
			p.sendWithin("quit", grace)
		}
		select {
		case <-p.exited:
		case <-time.After(grace):
			p.cmd.Process.Kill()
			<-p.exited
		}
	}
	close(p.quit)
	p.stdin.Close()
	p.stdout.Close()
}
