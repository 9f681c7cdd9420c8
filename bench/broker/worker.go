package broker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sower-engine/sower/bench/match"
	"github.com/sower-engine/sower/bench/record"
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
	// self-play task, or a match's pair with a built-in player, only when
	// the task names the same build, and fails it, naming both,
	// otherwise.
	Build Build

	// stall, if set, is called before each proof search with the task's
	// context: the tests' search that hangs while the worker lives.
	stall func(ctx context.Context)
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
	rs := &runs{js: c.JS}
	var slots, sending sync.WaitGroup
	for i := range max(w.Concurrency, 1) {
		s := &slot{w: w, c: c, cache: cch, runs: rs, n: i + 1, sending: &sending}
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
	runs  *runs
	n     int
	log   io.Writer
	turn  int // the slot's place in the rotation over the runs

	match  string // the match (or tournament's pairing) table is for: Task.table
	table  *match.Table
	prover // the df-pn solver of the proof it searched last

	sending *sync.WaitGroup // results on their way
}

func (s *slot) serve(ctx context.Context) {
	defer s.drop()
	var last string // the last error written, and when
	var lastAt time.Time
	for ctx.Err() == nil {
		msg, cons, err := s.runs.next(ctx, &s.turn)
		if err != nil && ctx.Err() == nil {
			// While the broker is away the same error comes every
			// second: it is written once a minute.
			if err.Error() != last || time.Since(lastAt) >= repeatNoteEvery {
				fmt.Fprintf(s.w.Progress, "waiting for tasks: %v\n", err)
				last, lastAt = err.Error(), time.Now()
			}
			sleep(ctx, time.Second)
			continue
		}
		last = ""
		if msg != nil {
			run, ackWait := runOf(cons)
			s.handle(ctx, msg, run, cons.CachedInfo().Name, ackWait)
		}
	}
}

func (s *slot) drop() {
	if s.table != nil {
		s.table.Close()
		s.table, s.match = nil, ""
	}
}

// handle plays one task of run and answers it: the records then an
// acknowledgement; a failure report then a termination; or, when ctx
// ends or the failure may pass, a negative acknowledgement.
func (s *slot) handle(ctx context.Context, msg jetstream.Msg, run, consumer string, ackWait time.Duration) {
	t, err := decodeTask(msg.Data())
	if err == nil && t.Match != run {
		err = refuse("a task of %s in the queue of %s", t.Match, run)
		t.Match = run
	}
	if err != nil {
		s.fail(ctx, msg, t, err.Error())
		return
	}
	if s.passes(ctx, msg, t) {
		return
	}
	fmt.Fprintf(s.w.Progress, "%s started (slot %d)\n", t.what(), s.n)
	note, _ := json.Marshal(progressNote{Pair: t.Pair, Worker: s.w.Name})
	_ = s.c.NC.Publish(progressSubject(t.Match), note)

	// Keep the task ours while it is played; a proof task only while its
	// search makes progress.
	pctx, stop := context.WithCancelCause(ctx)
	var live *liveness
	if t.Proof != nil {
		live = &liveness{}
	}
	var wg sync.WaitGroup
	wg.Go(func() { s.keepAlive(pctx, stop, msg, t, consumer, ackWait, live) })
	r := Result{Version: Version, Match: t.Match, Pair: t.Pair, Worker: s.w.Name, Games: t.Games, Tournament: t.Tournament}
	switch {
	case t.Proof != nil:
		r.Proof, err = s.prove(pctx, t, ackWait, live)
	case t.Datagen != nil:
		r.Data, err = playDatagen(pctx, t, s.w.Build)
	default:
		r.Records, err = s.play(pctx, t)
	}
	withdrawn := errors.Is(context.Cause(pctx), errWithdrawn)
	stop(nil)
	wg.Wait()
	var retry *retryError
	switch {
	case withdrawn && ctx.Err() == nil:
		fmt.Fprintf(s.w.Progress, "%s stopped: its run's tasks were withdrawn (the run ended)\n", t.what())
		_ = msg.Term()
		return
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		_ = msg.Nak()
		fmt.Fprintf(s.w.Progress, "%s returned to the queue\n", t.what())
		return
	case errors.As(err, &retry):
		fmt.Fprintf(s.w.Progress, "%s returned to the queue: %v\n", t.what(), err)
		_ = msg.NakWithDelay(retryDelay)
		return
	case err != nil:
		var corrupt *corruptObject
		if errors.As(err, &corrupt) {
			s.failCorrupt(ctx, msg, t, err.Error(), corrupt.hash)
			return
		}
		s.fail(ctx, msg, t, err.Error())
		return
	}
	b, err := json.Marshal(&r)
	if err == nil && int64(len(b)) > s.c.NC.MaxPayload() {
		s.fail(ctx, msg, t, fmt.Sprintf("the records take %d bytes, over the broker's message limit of %d bytes (max_payload)", len(b), s.c.NC.MaxPayload()))
		return
	}
	if err != nil {
		s.fail(ctx, msg, t, fmt.Sprintf("encoding the records: %v", err))
		return
	}
	// The slot goes on to its next task while the records travel: the
	// round trips to the broker are not paid between pairs. They are sent
	// even after Ctrl-C, so that a finished pair is not played again.
	s.sending.Go(func() {
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		s.deliver(dctx, msg, t, b, t.resultID("result"))
	})
}

// passPause is how long a slot that handed a task back for its
// preferred worker waits before it takes a task again, so that the
// preferred worker's request, if one is waiting, gets the task first.
const passPause = 100 * time.Millisecond

// passes hands a proof task back to the queue (a negative
// acknowledgement) at its first delivery when it prefers another worker,
// and reports whether it did. The pass costs one of the task's
// deliveries (MaxDeliver); at the next one any worker searches it, so a
// task whose preferred worker is gone or busy waits little.
func (s *slot) passes(ctx context.Context, msg jetstream.Msg, t *Task) bool {
	if t.Proof == nil || t.Proof.Prefer == "" || t.Proof.Prefer == s.w.Name {
		return false
	}
	meta, err := msg.Metadata()
	if err != nil || meta.NumDelivered != 1 {
		return false
	}
	if msg.Nak() != nil {
		return false
	}
	fmt.Fprintf(s.w.Progress, "%s handed back once for worker %s, whose table holds its parent's search (slot %d)\n", t.what(), t.Proof.Prefer, s.n)
	sleep(ctx, passPause)
	return true
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
	done := "played"
	if t.Proof != nil {
		done = "searched"
	}
	fmt.Fprintf(s.w.Progress, "%s %s (slot %d)\n", t.what(), done, s.n)
}

// play plays the task's pair. When ctx ends it returns ctx's error; a
// failure that may pass (a fetch that timed out) is a *retryError.
func (s *slot) play(ctx context.Context, t *Task) ([]*record.GameRecord, error) {
	if t.Setup.builtin() {
		if why := s.w.Build.refuses(Build{Version: t.Setup.Sower, SHA256: t.Setup.Build}, gamesWork); why != "" {
			return nil, errors.New(why)
		}
	}
	if s.match != t.table() {
		s.drop()
		var programs [2]string
		for i, e := range t.Setup.Engines {
			if e.Builtin != "" {
				continue
			}
			p, err := s.cache.path(ctx, e.SHA256)
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				err = fmt.Errorf("engine%d (%s): %w", i+1, e.Name, err)
				if errors.Is(err, errCorrupt) {
					return nil, &corruptObject{hash: e.SHA256, err: err}
				}
				return nil, retryable(err)
			}
			programs[i] = p
		}
		cfg, err := t.Setup.config(programs)
		if err != nil {
			return nil, fmt.Errorf("the task's settings: %w", err)
		}
		cfg.Log = s.log
		if err := cfg.Check(ctx); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("the engines do not run here: %w", err)
		}
		if s.table, err = match.NewTable(cfg); err != nil {
			return nil, fmt.Errorf("the task's settings: %w", err)
		}
		s.match = t.table()
	}
	v, err := t.Setup.variant()
	if err != nil {
		return nil, err
	}
	open, err := v.ParsePosition(t.Opening)
	if err != nil {
		return nil, fmt.Errorf("the opening %q: %w", t.Opening, err)
	}
	recs, err := s.table.PlayPair(ctx, t.pairIn(), open)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return recs, err
}

// fail publishes why the task cannot be played and terminates it, so that
// it is not handed out again.
func (s *slot) fail(ctx context.Context, msg jetstream.Msg, t *Task, reason string) {
	s.failCorrupt(ctx, msg, t, reason, "")
}

// failCorrupt is fail for a task refused because the engine object of
// SHA-256 corrupt is damaged or missing ("": for another reason); the
// report names the object.
func (s *slot) failCorrupt(ctx context.Context, msg jetstream.Msg, t *Task, reason, corrupt string) {
	fmt.Fprintf(s.w.Progress, "%s failed: %s\n", t.what(), reason)
	if t.Match != "" && CheckID(t.Match) == nil {
		r := Result{Version: Version, Match: t.Match, Pair: t.Pair, Worker: s.w.Name, Games: t.Games, Failed: reason, Corrupt: corrupt, Proof: t.echo(), Tournament: t.Tournament}
		if b, err := json.Marshal(&r); err == nil {
			// Sent until the broker has it: a task terminated without its
			// failure report would leave the coordinator waiting for it.
			_ = s.c.publish(ctx, resultSubject(t.Match), b, t.resultID("failed"))
		}
	}
	_ = msg.TermWithReason(reason)
}

// resultID is the message id of the task's result (kind "result") or
// failure report ("failed"): a task played twice is stored once within
// the broker's duplicate window. A self-play task is named by its games,
// since its number is that of one publication.
func (t *Task) resultID(kind string) string {
	if t.Proof != nil {
		return fmt.Sprintf("%s.%s.%s.%d", kind, t.Match, t.Proof.Round, t.Pair)
	}
	if t.Datagen != nil {
		return kind + "." + t.Match + "." + batchID(t.Games)
	}
	return fmt.Sprintf("%s.%s.%d", kind, t.Match, t.Pair)
}

// what names the task in progress lines.
func (t *Task) what() string {
	if t.Proof != nil {
		return fmt.Sprintf("proof task %d (%s) of %s", t.Pair, leafName(t.Proof.Path), t.Match)
	}
	if t.Datagen != nil {
		return fmt.Sprintf("games %v of run %s", t.Games, t.Match)
	}
	if tn := t.Tournament; tn != nil {
		return fmt.Sprintf("pair %d of pairing %d of tournament %s", tn.Pair+1, tn.Pairing, t.Match)
	}
	return fmt.Sprintf("pair %d of match %s", t.Pair+1, t.Match)
}

// table names the match a worker's table plays for the task: the match,
// or the tournament's pairing, whose engines and seed are its own.
func (t *Task) table() string {
	if t.Tournament != nil {
		return fmt.Sprintf("%s/%d", t.Match, t.Tournament.Pairing)
	}
	return t.Match
}

// pairIn returns the pair to play in the task's match: Pair, or in a
// tournament the pair of its pairing.
func (t *Task) pairIn() int {
	if t.Tournament != nil {
		return t.Tournament.Pair
	}
	return t.Pair
}
