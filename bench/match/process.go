package match

import (
	"context"
	"time"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// aborted ends a game the match stopped: the game is not counted.
const aborted record.Termination = "aborted"

// fault is a forfeit in the making: what went wrong and the details.
type fault struct {
	term   record.Termination
	detail string
}

// quitGrace is how long a process may take to exit after "quit" before it
// is killed.
const quitGrace = client.QuitGrace

// faultOf turns an engine client's fault into the forfeit it causes.
func faultOf(f *client.Fault) *fault {
	if f == nil {
		return nil
	}
	term := record.Crash
	switch f.Kind {
	case client.NoAnswer:
		term = record.NoAnswer
	case client.TimeOut:
		term = record.TimeForfeit
	case client.Aborted:
		term = aborted
	}
	return &fault{term, f.Detail}
}

// process is an engine running as a child process, driven through the
// protocol client. ponders is set when the match lets it ponder.
type process struct {
	e       *client.Engine
	label   string // the process in the log
	ponders bool
}

// startProcess starts the engine, completes the handshake and sends its
// options; label names the process in the log. A fault says in one line
// what went wrong.
func startProcess(ctx context.Context, spec *EngineSpec, label string, timeout time.Duration, log *client.Log) (*process, *fault) {
	e, f := client.Start(ctx, client.Spec{Name: label, Command: spec.Command, Dir: spec.Dir, Options: spec.Options}, timeout, log)
	if f != nil {
		return nil, faultOf(f)
	}
	return &process{e: e, label: label}, nil
}

func (p *process) setOptions(opts []Option) *fault { return faultOf(p.e.SetOptions(opts)) }

func (p *process) newGame(ctx context.Context, _ int, opts []Option) *fault {
	return faultOf(p.e.NewGame(ctx, opts))
}

func (p *process) ready(ctx context.Context, each func(string)) *fault {
	return faultOf(p.e.Ready(ctx, each))
}

func (p *process) think(ctx context.Context, g *board.Game, req client.Go) (client.Reply, *fault) {
	r, f := p.e.Think(ctx, g, req)
	return r, faultOf(f)
}

func (p *process) stopPonder(ctx context.Context) *fault { return faultOf(p.e.StopPonder(ctx)) }

func (p *process) close(grace time.Duration) { p.e.Close(grace) }
