package broker

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sower-engine/sower/search/dfpn"
)

// A worker keeps a task by telling the broker it is in progress, a third
// of the task's AckWait apart. For a proof task that is said only while
// the search makes progress: a search that hangs (a fault in the search,
// a machine swapping to a halt) while the worker's process still answers
// stops the acknowledgements, and after AckWait the broker hands the
// task to another worker, as it would a dead worker's.

// liveness counts a proof task's signs of life: its search's reports of
// more nodes searched, its certificate's positions written.
type liveness struct{ beats atomic.Uint64 }

// beat records a sign of life.
func (l *liveness) beat() { l.beats.Add(1) }

// reporter returns the search's progress function: a report of more
// nodes than the last is a sign of life.
func (l *liveness) reporter() func(p dfpn.Progress) {
	var last uint64
	return func(p dfpn.Progress) {
		if p.Nodes > last {
			last = p.Nodes
			l.beat()
		}
	}
}

// reportEvery is how often a proof task's search reports its progress:
// several times between two acknowledgements, so that one report late
// on a loaded machine does not lose the task.
func reportEvery(ackWait time.Duration) time.Duration {
	return min(max(ackWait/6, 20*time.Millisecond), 2*time.Second)
}

// errWithdrawn is the cause of a task's end when its run's task consumer
// is gone: the run ended (a proof settled or given up, a match decided)
// and withdrew its tasks, so the task's result would be taken by no one.
var errWithdrawn = errors.New("the run's tasks were withdrawn")

// keepAlive tells the broker, until ctx ends, that task t is in
// progress: every third of ackWait, or for a proof task (live not nil)
// only when live has a sign of life since the last time, or none yet.
// The worker's progress says once when a proof task's search stops
// making progress. At each of those times it looks for the task's
// consumer too, and when the broker says it is gone it ends the task
// (stop with errWithdrawn).
func (s *slot) keepAlive(ctx context.Context, stop context.CancelCauseFunc, msg jetstream.Msg, t *Task, consumer string, ackWait time.Duration, live *liveness) {
	tk := time.NewTicker(max(ackWait/3, 100*time.Millisecond))
	defer tk.Stop()
	var seen uint64
	since, noted := time.Now(), false
	for {
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
		}
		if s.withdrawn(ctx, consumer) {
			stop(errWithdrawn)
			return
		}
		if live != nil {
			// Before the first sign the task is being set up (its table
			// made, which takes a while for a large one): kept.
			if b := live.beats.Load(); b == 0 || b != seen {
				seen, since, noted = b, time.Now(), false
			} else {
				if !noted && time.Since(since) >= ackWait/2 {
					fmt.Fprintf(s.w.Progress, "%s: the search has made no progress for %s; it is no longer kept, so that another worker takes it after %s\n",
						t.what(), time.Since(since).Round(time.Millisecond), ackWait)
					noted = true
				}
				continue
			}
		}
		_ = msg.InProgress()
	}
}

// withdrawn reports whether the broker says the task consumer is gone;
// any other answer, or none within a few seconds, is not taken as gone.
func (s *slot) withdrawn(ctx context.Context, consumer string) bool {
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err := s.c.JS.Consumer(cctx, TaskStream, consumer)
	return errors.Is(err, jetstream.ErrConsumerNotFound)
}
