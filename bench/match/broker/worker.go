package broker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/sower-engine/sower/bench/match"
)

// Worker plays the pair tasks of any match on the broker, and the tasks
// of self-play runs (sower datagen --broker).
type Worker struct {
	Name        string // shown by the coordinators; unique among the workers
	Concurrency int    // pairs at once (0 means 1)
	CacheDir    string // where fetched engine programs are kept
	// Log, if set, gets the engines' lines as a local match's --log does;
	// it is written from one goroutine at a time.
	Log io.Writer
	// Progress gets a line per pair started, finished or failed.
	Progress io.Writer
	// Build is this program's build (ThisBuild): the worker plays a
	// self-play task only when the task names the same build, and fails
	// it, naming both, otherwise.
	Build Build
}

// Serve pulls and plays tasks until ctx ends. A pair running then is
// abandoned and returned to the queue (a negative acknowledgement), so
// that another worker plays it at once.
func (w *Worker) Serve(ctx context.Context, c *Client) error {
	if w.Name == "" {
		return errors.New("a worker needs a name")
	}
	if w.Progress == nil {
		w.Progress = io.Discard
	}
	if err := c.ensure(ctx); err != nil {
		return err
	}
	cons, err := c.JS.Consumer(ctx, TaskStream, WorkerConsumer)
	if errors.Is(err, jetstream.ErrConsumerNotFound) {
		cons, err = c.JS.CreateConsumer(ctx, TaskStream, workerConsumerConfig(DefaultAckWait, defaultMaxDeliver))
		if errors.Is(err, jetstream.ErrConsumerExists) {
			cons, err = c.JS.Consumer(ctx, TaskStream, WorkerConsumer)
		}
	}
	if err != nil {
		return fmt.Errorf("the workers' consumer: %w", err)
	}
	kv, err := c.JS.KeyValue(ctx, WorkerBucket)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	hbCtx, stopHB := context.WithCancel(context.WithoutCancel(ctx))
	wg.Go(func() { w.heartbeat(hbCtx, kv) })
	var log syncWriter
	log.w = w.Log
	cch := &cache{dir: w.CacheDir, js: c.JS}
	var slots, sending sync.WaitGroup
	for i := range max(w.Concurrency, 1) {
		s := &slot{w: w, c: c, cache: cch, cons: cons, n: i + 1, sending: &sending}
		if w.Log != nil {
			s.log = &log
		}
		slots.Go(func() { s.serve(ctx) })
	}
	slots.Wait()
	sending.Wait()
	stopHB()
	wg.Wait()
	dctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = kv.Delete(dctx, w.Name)
	return nil
}

// heartbeat keeps the worker's entry in the worker bucket alive.
func (w *Worker) heartbeat(ctx context.Context, kv jetstream.KeyValue) {
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	for {
		b, _ := json.Marshal(map[string]any{"concurrency": max(w.Concurrency, 1), "at": time.Now().UTC()})
		_, _ = kv.Put(ctx, w.Name, b)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// syncWriter serializes writes to the worker's log.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// slot plays one pair at a time, keeping the players of the match it
// played last.
type slot struct {
	w     *Worker
	c     *Client
	cache *cache
	cons  jetstream.Consumer
	n     int
	log   io.Writer

	match string // the match table is for
	table *match.Table

	sending    *sync.WaitGroup // results on their way
	ackWaitVal time.Duration   // the consumer's AckWait, asked at ackWaitAt
	ackWaitAt  time.Time
}

func (s *slot) serve(ctx context.Context) {
	defer s.drop()
	var last string // the last error written, and when
	var lastAt time.Time
	for ctx.Err() == nil {
		msg, err := s.cons.Next(jetstream.FetchMaxWait(time.Second))
		if err != nil {
			if !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, jetstream.ErrNoMessages) && ctx.Err() == nil {
				// While the broker is away the same error comes every
				// second: it is written once a minute.
				if err.Error() != last || time.Since(lastAt) >= repeatNoteEvery {
					fmt.Fprintf(s.w.Progress, "waiting for tasks: %v\n", err)
					last, lastAt = err.Error(), time.Now()
				}
				time.Sleep(time.Second)
			}
			continue
		}
		last = ""
		s.handle(ctx, msg)
	}
}

func (s *slot) drop() {
	if s.table != nil {
		s.table.Close()
		s.table, s.match = nil, ""
	}
}

// handle plays one task and answers it: the records then an
// acknowledgement; a failure report then a termination; or, when ctx
// ends, a negative acknowledgement.
func (s *slot) handle(ctx context.Context, msg jetstream.Msg) {
	var t Task
	if err := json.Unmarshal(msg.Data(), &t); err != nil {
		s.fail(ctx, msg, &t, fmt.Sprintf("the task does not parse: %v", err))
		return
	}
	if t.Version != Version {
		s.fail(ctx, msg, &t, fmt.Sprintf("task version %d; this worker speaks version %d", t.Version, Version))
		return
	}
	fmt.Fprintf(s.w.Progress, "%s started (slot %d)\n", t.what(), s.n)
	note, _ := json.Marshal(progressNote{Pair: t.Pair, Worker: s.w.Name})
	_ = s.c.NC.Publish(progressSubject(t.Match), note)

	// Keep the task ours while it is played.
	ackWait := s.ackWait(ctx)
	pctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		tk := time.NewTicker(max(ackWait/3, 100*time.Millisecond))
		defer tk.Stop()
		for {
			select {
			case <-pctx.Done():
				return
			case <-tk.C:
				_ = msg.InProgress()
			}
		}
	})
	var recs []*match.GameRecord
	var data []DatagenGame
	var failure string
	if t.Datagen != nil {
		data, failure = playDatagen(pctx, &t, s.w.Build)
	} else {
		recs, failure = s.play(pctx, &t)
	}
	stop()
	wg.Wait()
	if ctx.Err() != nil {
		_ = msg.Nak()
		fmt.Fprintf(s.w.Progress, "%s returned to the queue\n", t.what())
		return
	}
	if reason, ok := strings.CutPrefix(failure, retryPrefix); ok {
		fmt.Fprintf(s.w.Progress, "%s returned to the queue: %s\n", t.what(), reason)
		_ = msg.NakWithDelay(retryDelay)
		return
	}
	if failure != "" {
		s.fail(ctx, msg, &t, failure)
		return
	}
	r := Result{Version: Version, Match: t.Match, Pair: t.Pair, Worker: s.w.Name, Records: recs, Games: t.Games, Data: data}
	msgID := fmt.Sprintf("result.%s.%d", t.Match, t.Pair)
	if t.Datagen != nil {
		msgID = "result." + t.Match + "." + batchID(t.Games)
	}
	b, err := json.Marshal(&r)
	if err == nil && int64(len(b)) > s.c.NC.MaxPayload() {
		s.fail(ctx, msg, &t, fmt.Sprintf("the records take %d bytes, over the broker's message limit of %d bytes (max_payload)", len(b), s.c.NC.MaxPayload()))
		return
	}
	if err != nil {
		s.fail(ctx, msg, &t, fmt.Sprintf("encoding the records: %v", err))
		return
	}
	// The slot goes on to its next task while the records travel: the
	// round trips to the broker are not paid between pairs. They are sent
	// even after Ctrl-C, so that a finished pair is not played again.
	s.sending.Go(func() {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		s.deliver(dctx, msg, &t, b, msgID)
	})
}

// deliver publishes a task's result and only then acknowledges the task.
func (s *slot) deliver(ctx context.Context, msg jetstream.Msg, t *Task, result []byte, msgID string) {
	if err := s.c.publish(ctx, resultSubject(t.Match), result, msgID); err != nil {
		_ = msg.Nak() // another worker plays it
		fmt.Fprintf(s.w.Progress, "%s: publishing the records: %v\n", t.what(), err)
		return
	}
	if err := msg.DoubleAck(ctx); err != nil {
		fmt.Fprintf(s.w.Progress, "%s: acknowledging: %v\n", t.what(), err)
	}
	fmt.Fprintf(s.w.Progress, "%s played (slot %d)\n", t.what(), s.n)
}

// ackWaitRefresh is how often a slot asks the broker for the consumer's
// acknowledgement deadline, which a coordinator may change.
const ackWaitRefresh = 10 * time.Second

// ackWait returns the consumer's acknowledgement deadline.
func (s *slot) ackWait(ctx context.Context) time.Duration {
	if time.Since(s.ackWaitAt) > ackWaitRefresh {
		if info, err := s.cons.Info(ctx); err == nil && info.Config.AckWait > 0 {
			s.ackWaitVal, s.ackWaitAt = info.Config.AckWait, time.Now()
		}
	}
	if s.ackWaitVal <= 0 {
		return DefaultAckWait
	}
	return s.ackWaitVal
}

// retryPrefix starts a failure that may pass (a fetch that timed out): the
// task goes back to the queue, to be tried again after retryDelay.
const (
	retryPrefix = "retry: "
	retryDelay  = 5 * time.Second
)

// play plays the task's pair; failure says why it cannot be played here.
// When ctx ends it returns neither.
func (s *slot) play(ctx context.Context, t *Task) (recs []*match.GameRecord, failure string) {
	if s.match != t.Match {
		s.drop()
		var programs [2]string
		for i, e := range t.Setup.Engines {
			if e.Builtin != "" {
				continue
			}
			p, err := s.cache.path(ctx, e.SHA256)
			if err != nil {
				if ctx.Err() != nil {
					return nil, ""
				}
				if !errors.Is(err, errCorrupt) {
					return nil, retryPrefix + fmt.Sprintf("engine%d (%s): %v", i+1, e.Name, err)
				}
				return nil, fmt.Sprintf("engine%d (%s): %v", i+1, e.Name, err)
			}
			programs[i] = p
		}
		cfg, err := t.Setup.config(programs)
		if err != nil {
			return nil, fmt.Sprintf("the task's settings: %v", err)
		}
		cfg.Log = s.log
		if err := cfg.Check(ctx); err != nil {
			if ctx.Err() != nil {
				return nil, ""
			}
			return nil, fmt.Sprintf("the engines do not run here: %v", err)
		}
		if s.table, err = match.NewTable(cfg); err != nil {
			return nil, fmt.Sprintf("the task's settings: %v", err)
		}
		s.match = t.Match
	}
	v, err := t.Setup.variant()
	if err != nil {
		return nil, err.Error()
	}
	open, err := v.ParsePosition(t.Opening)
	if err != nil {
		return nil, fmt.Sprintf("the opening %q: %v", t.Opening, err)
	}
	recs, err = s.table.PlayPair(ctx, t.Pair, open)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ""
		}
		return nil, err.Error()
	}
	return recs, ""
}

// fail publishes why the task cannot be played and terminates it, so that
// it is not handed out again.
func (s *slot) fail(ctx context.Context, msg jetstream.Msg, t *Task, reason string) {
	fmt.Fprintf(s.w.Progress, "%s failed: %s\n", t.what(), reason)
	if t.Match != "" && CheckID(t.Match) == nil {
		r := Result{Version: Version, Match: t.Match, Pair: t.Pair, Worker: s.w.Name, Games: t.Games, Failed: reason}
		msgID := fmt.Sprintf("failed.%s.%d", t.Match, t.Pair)
		if t.Datagen != nil {
			msgID = "failed." + t.Match + "." + batchID(t.Games)
		}
		// Sent until the broker has it: a task terminated without its
		// failure report would leave the coordinator waiting for it.
		if b, err := json.Marshal(&r); err == nil {
			_ = s.c.publish(ctx, resultSubject(t.Match), b, msgID)
		}
	}
	_ = msg.TermWithReason(reason)
}

// what names the task in progress lines.
func (t *Task) what() string {
	if t.Datagen != nil {
		return fmt.Sprintf("games %v of run %s", t.Games, t.Match)
	}
	return fmt.Sprintf("pair %d of match %s", t.Pair+1, t.Match)
}
