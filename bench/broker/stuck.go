package broker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// A task the broker no longer hands out would leave its run waiting for
// ever. The broker announces a task handed out MaxDeliver times with an
// advisory, but the advisory is not kept: it is lost when no coordinator
// listens, and it is sent only when a worker asks for a task. So the
// coordinator also reads the state of the stream and of its consumers,
// on start and then at every progress line (checkStuck).

// maxDeliveriesSubject is where the broker announces a task of run id
// handed out MaxDeliver times without being acknowledged.
func maxDeliveriesSubject(id string) string {
	return "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + TaskStream + "." + runConsumer(id)
}

// watchExhausted passes on the stream sequence of every task of the run
// that the broker gave up handing out.
func (co *coordinator) watchExhausted() (<-chan uint64, func(), error) {
	ch := make(chan uint64, 64)
	sub, err := co.c.NC.Subscribe(maxDeliveriesSubject(co.id), func(msg *nats.Msg) {
		if seq, ok := decodeAdvisory(msg.Data); ok {
			select {
			case ch <- seq:
			default: // checkStuck finds it
			}
		}
	})
	if err != nil {
		return nil, nil, err
	}
	return ch, func() { _ = sub.Unsubscribe() }, nil
}

// checkStuck finds the tasks waited for that no worker will get: when
// none of the run's tasks is queued for delivery or in a worker's hands
// and every result has been read, a task still in the stream has used
// up its deliveries, and a task no longer there was answered by nothing
// that counted (a result refused, a failure report lost). Each is
// reported as failed. A task the consumer has not handed out yet is not
// stuck, whatever the counts say: they lag a publication a moment.
func (co *coordinator) checkStuck(ctx context.Context, results jetstream.Consumer) {
	before := co.gone // what the previous check found gone
	co.gone = nil
	ti, err := co.tasks.Info(ctx)
	if err != nil || ti.NumPending > 0 || ti.NumAckPending > 0 {
		return
	}
	ri, err := results.Info(ctx)
	if err != nil || ri.NumPending > 0 || ri.NumAckPending > 0 {
		return
	}
	s, err := co.c.JS.Stream(ctx, TaskStream)
	if err != nil {
		return
	}
	gone := map[int]bool{}
	defer func() { co.gone = gone }()
	for _, t := range co.job.open() {
		m, err := s.GetLastMsgForSubject(ctx, taskSubject(co.id, t.Pair))
		switch {
		case err == nil && m.Sequence <= ti.Delivered.Stream:
			co.giveUp(ctx, m.Sequence)
		case err == nil:
			// Never handed out: the consumer has not counted it as
			// pending yet (it does so after the publication returns).
		case errors.Is(err, jetstream.ErrMsgNotFound):
			// The counts lag a moment behind a result published and its
			// task acknowledged just now: a task is reported lost only
			// when two checks in a row find it gone.
			if !before[t.Pair] {
				gone[t.Pair] = true
				continue
			}
			co.report(ctx, &t, fmt.Sprintf("lost.%s.%d", co.id, t.Pair),
				"its task left the queue without a result that counts (see the messages refused above)")
		}
	}
}

// giveUp reports the task at seq, handed out too often without a
// result, as failed (if it is one of the run's) and removes it.
func (co *coordinator) giveUp(ctx context.Context, seq uint64) {
	s, err := co.c.JS.Stream(ctx, TaskStream)
	if err != nil {
		return
	}
	m, err := s.GetMsg(ctx, seq)
	if err != nil || !strings.HasPrefix(m.Subject, "sower.task."+co.id+".") {
		return
	}
	t, err := decodeTask(m.Data)
	if err != nil || t.Match != co.id {
		return
	}
	reason := fmt.Sprintf("handed out %d times without a result: its workers died or stopped each time", co.maxDeliver)
	if co.report(ctx, t, fmt.Sprintf("gaveup.%s.%d", co.id, seq), reason) {
		_ = s.DeleteMsg(ctx, seq)
	}
}

// report publishes task t as failed for reason, as a worker would, so
// that a resumed run reads it too; it reports whether that went through.
func (co *coordinator) report(ctx context.Context, t *Task, msgID, reason string) bool {
	r := Result{Version: Version, Match: co.id, Pair: t.Pair, Games: t.Games, Worker: noWorker, Failed: reason, Proof: t.echo(), Tournament: t.Tournament}
	b, _ := json.Marshal(&r)
	if err := co.c.publish(ctx, resultSubject(co.id), b, msgID); err != nil {
		fmt.Fprintf(co.out, "reporting %s as failed: %v\n", t.what(), err)
		return false
	}
	return true
}
