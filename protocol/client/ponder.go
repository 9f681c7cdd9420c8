package client

import (
	"context"
	"strings"
	"time"

	"github.com/sower-engine/sower/board"
)

// Pondering, as cutechess-cli does it: after an engine's move the GUI
// plays the reply the engine expects and sends "go ponder" with the clock
// as it stands (Ponder); the engine thinks on the opponent's time. When
// the opponent has played that reply the GUI sends "ponderhit" and waits
// for the bestmove, the engine's time counting from then (PonderHit);
// otherwise it sends "stop", drops that bestmove (StopPonder) and asks
// for a move as usual (Think).
//
// While the engine ponders nobody else reads its output, so that a
// goroutine keeps reading it, dropping the info lines, until PonderHit or
// StopPonder.

// ponder is a running "go ponder".
type ponder struct {
	stop chan struct{} // closed to end the reading
	done chan struct{} // closed when the reading has ended
	best *line         // a bestmove read while pondering
}

// Ponder sends g's position, which ends with the move the engine
// expects, and req's go command as "go ponder …", and returns at once.
func (e *Engine) Ponder(g *board.Game, req Go) *Fault {
	if e.ponder != nil {
		return &Fault{Crash, "already pondering"}
	}
	e.drain()
	if f := e.send(PositionCommand(g)); f != nil {
		return f
	}
	cmd := req.Command()
	if f := e.send("go ponder" + strings.TrimPrefix(cmd, "go")); f != nil {
		return f
	}
	p := &ponder{stop: make(chan struct{}), done: make(chan struct{})}
	e.ponder = p
	go func() {
		defer close(p.done)
		for {
			select {
			case l, ok := <-e.lines:
				if !ok {
					return // the output ended: the next wait reports it
				}
				if firstWord(l.text) == "bestmove" {
					p.best = &l
					return
				}
			case <-p.stop:
				return
			}
		}
	}()
	return nil
}

// endPonder stops reading for the ponder and returns it.
func (e *Engine) endPonder() *ponder {
	p := e.ponder
	e.ponder = nil
	close(p.stop)
	<-p.done
	return p
}

// PonderHit tells the pondering engine that the expected move was played
// ("ponderhit") and waits for its bestmove under req's wait, the time
// counting from the ponderhit. An engine that had already answered gets
// its answer returned at once (Elapsed 0).
func (e *Engine) PonderHit(ctx context.Context, req Go) (Reply, *Fault) {
	if e.ponder == nil {
		return Reply{}, &Fault{Crash, "ponderhit without go ponder"}
	}
	p := e.endPonder()
	start := time.Now()
	if f := e.send("ponderhit"); f != nil {
		return Reply{}, f
	}
	if p.best != nil {
		var r Reply
		r.Move, r.Ponder = parseBestMove(p.best.text)
		return r, nil
	}
	return e.awaitBest(ctx, req, start)
}

// StopPonder ends a ponder whose expected move was not played: it sends
// "stop" and waits (within the engine's timeout) for the bestmove, which
// it drops.
func (e *Engine) StopPonder(ctx context.Context) *Fault {
	if e.ponder == nil {
		return nil
	}
	p := e.endPonder()
	if f := e.send("stop"); f != nil {
		return f
	}
	if p.best != nil {
		return nil
	}
	_, f := e.await(ctx, e.timeout, false, "bestmove after stop", nil, func(l line) bool {
		return firstWord(l.text) == "bestmove"
	})
	return f
}
