package broker

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// runs keeps, for a worker's slots, the task consumers of the matches and
// self-play runs on the broker: each run has its own (runConsumer), and
// the slots take tasks from them in turn.
type runs struct {
	js   jetstream.JetStream
	mu   sync.Mutex
	at   time.Time // when list was read
	list []jetstream.Consumer
}

// runsRefresh is how often the list of runs is read again.
const runsRefresh = 2 * time.Second

// current returns the task consumers of the runs, read again when the
// list is older than runsRefresh.
func (r *runs) current(ctx context.Context) []jetstream.Consumer {
	r.mu.Lock()
	defer r.mu.Unlock()
	if time.Since(r.at) < runsRefresh {
		return r.list
	}
	s, err := r.js.Stream(ctx, TaskStream)
	if err != nil {
		return r.list
	}
	var list []jetstream.Consumer
	names := s.ConsumerNames(ctx)
	for name := range names.Name() {
		if !strings.HasPrefix(name, runConsumerPrefix) {
			continue
		}
		// Read afresh: a resumed run may have changed its AckWait.
		if c, err := s.Consumer(ctx, name); err == nil {
			list = append(list, c)
		}
	}
	if names.Err() != nil {
		return r.list
	}
	r.list, r.at = list, time.Now()
	return list
}

// forget drops a consumer that is gone (its run ended), so that the list
// is read again.
func (r *runs) forget(c jetstream.Consumer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, k := range r.list {
		if k == c {
			r.list = append(r.list[:i:i], r.list[i+1:]...)
			break
		}
	}
	r.at = time.Time{}
}

// next waits up to about a second for a task of any run; turn is the
// slot's place in the rotation. It returns the task and the run's
// consumer, or nil when there is none.
func (r *runs) next(ctx context.Context, turn *int) (jetstream.Msg, jetstream.Consumer, error) {
	cs := r.current(ctx)
	if len(cs) == 0 {
		sleep(ctx, time.Second)
		return nil, nil, nil
	}
	c := cs[*turn%len(cs)]
	*turn++
	msg, err := c.Next(jetstream.FetchMaxWait(max(time.Second/time.Duration(len(cs)), 200*time.Millisecond)))
	switch {
	case err == nil:
		return msg, c, nil
	case errors.Is(err, nats.ErrTimeout) || errors.Is(err, jetstream.ErrNoMessages):
		return nil, nil, nil
	case errors.Is(err, jetstream.ErrConsumerDeleted) || errors.Is(err, jetstream.ErrConsumerNotFound):
		r.forget(c) // its run ended
		return nil, nil, nil
	}
	r.forget(c)
	return nil, nil, err
}

// runOf returns the run a task consumer serves and its acknowledgement
// deadline.
func runOf(c jetstream.Consumer) (string, time.Duration) {
	info := c.CachedInfo()
	ackWait := info.Config.AckWait
	if ackWait <= 0 {
		ackWait = DefaultAckWait
	}
	return strings.TrimPrefix(info.Name, runConsumerPrefix), ackWait
}
