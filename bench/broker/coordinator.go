package broker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// job is what a coordinator runs: a match or a self-play run. The
// coordinator queues its tasks, hands it the results that arrive and
// stops when it says the run is over; the job says what a task is, how a
// result is checked and written, and what "done" means.
type job interface {
	// kind names the job in messages: "match" or "self-play run".
	kind() string
	// tasks returns the tasks to queue: one for each task neither done
	// nor failed, numbered.
	tasks() []Task
	// take checks a result of one of the job's tasks and writes what it
	// holds, once: a task or game done already is skipped. Only a
	// failure to write is returned; a result that does not hold what its
	// task asked for makes the task failed, with the reason.
	take(r *Result, from origin) error
	// open returns the tasks still waited for (their numbers and games).
	open() []Task
	// over reports whether the run is over: every task done or failed,
	// or decided.
	over() bool
	// line returns a progress line (or lines), or "": running holds the
	// tasks started, by the worker that runs them.
	line(workers int, running map[int]string) string
	// resumed returns a line on what earlier runs did, or "": waiting
	// is the number of their results not yet collected (delivered to a
	// coordinator that stopped before acknowledging them, or never
	// delivered).
	resumed(waiting uint64) string
	// end writes the final report and returns the error that names what
	// failed, if anything did.
	end() error
}

// origin says which run a result answers.
type origin int

const (
	live     origin = iota // a task queued by this run (or still queued from an earlier one)
	earlier                // a task of an earlier run, withdrawn since and queued again (self-play)
	restored               // acknowledged, and so written, by an earlier run
)

// deciding is a job that may end before its tasks are done, and says so
// in the run's status (a match's SPRT).
type deciding interface{ decision() string }

// repairing is a job whose tasks a damaged engine object may fail (a
// match): repair returns the programs to check and store again, by
// SHA-256, and the tasks to queue again; repairFailed gives up a task
// whose object could not be stored.
type repairing interface {
	repair() (map[string]string, []Task)
	repairFailed(task int, reason string)
}

// feeding is a job whose tasks come as it goes (a proof, whose tree
// chooses its next leaves from the results): more returns the tasks to
// queue now, after a result and at every progress line.
type feeding interface{ more() []Task }

// status is what the match bucket holds under "<id>.status".
type status struct {
	Published bool   `json:"published"` // every task was published once
	State     string `json:"state"`     // "running" or "finished"
	Decision  string `json:"decision,omitempty"`
}

// progressNote is what a worker publishes (core NATS, not kept) when it
// starts a task.
type progressNote struct {
	Pair   int    `json:"pair"`
	Worker string `json:"worker"`
}

func progressSubject(id string) string { return "sower.progress." + id }

// runConsumer names the task consumer of run id: each run has its own,
// with its own AckWait and MaxDeliver, that no other run changes.
func runConsumer(id string) string { return "sower-run-" + id }

// runConsumerPrefix starts the name of every run's task consumer.
const runConsumerPrefix = "sower-run-"

// legacyConsumer is the task consumer every match shared before each run
// had its own; a work queue allows no filtered consumer beside it.
const legacyConsumer = "sower-workers"

// ackTimeout bounds the acknowledgement of a result written, which is
// sent even after Ctrl-C so that the result is not delivered again.
const ackTimeout = 5 * time.Second

// coordinator runs one job on the broker.
type coordinator struct {
	c          *Client
	id         string
	job        job
	ackWait    time.Duration
	maxDeliver int
	every      time.Duration // between progress lines and checks of the queue
	out        io.Writer
	// requeue withdraws and queues the job's tasks at every start (a
	// self-play run, whose tasks depend on the games its file lacks);
	// otherwise they are queued once and a resumed run finds them queued.
	requeue bool
	// abandon clears the run's tasks when its context ends, as at its
	// end (ProofJob.Abandon).
	abandon bool
	before  uint64         // with requeue: the last result before this run's tasks were queued
	running map[int]string // tasks started, by worker
	gone    map[int]bool   // tasks the last checkStuck found gone from the stream without a result
	lease   *lease
	tasks   jetstream.Consumer // the run's task consumer
	stamp   string             // names this run's publications in their message ids
}

// start stores the run's settings (or checks them against those stored),
// claims the run for this coordinator and sets up its task consumer.
func (co *coordinator) start(ctx context.Context, settings any) error {
	if err := CheckID(co.id); err != nil {
		return err
	}
	if co.out == nil {
		co.out = io.Discard
	}
	if co.ackWait <= 0 {
		co.ackWait = DefaultAckWait
	}
	if co.maxDeliver <= 0 {
		co.maxDeliver = defaultMaxDeliver
	}
	if co.every <= 0 {
		co.every = 10 * time.Second
	}
	co.running = map[int]string{}
	if err := co.c.ensure(ctx); err != nil {
		return err
	}
	if err := claim(ctx, co.c.JS, co.id, settings); err != nil {
		return err
	}
	var err error
	if co.lease, err = acquire(ctx, co.c.JS, co.id, co.job.kind()); err != nil {
		return err
	}
	if err := co.c.JS.DeleteConsumer(ctx, TaskStream, legacyConsumer); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
		co.lease.release()
		return fmt.Errorf("removing the old shared task consumer: %w", err)
	}
	co.tasks, err = co.c.JS.CreateOrUpdateConsumer(ctx, TaskStream, jetstream.ConsumerConfig{
		Durable: runConsumer(co.id), FilterSubject: taskSubjects(co.id),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: co.ackWait, MaxDeliver: co.maxDeliver, MaxAckPending: -1,
		Description: "sower: the tasks of " + co.job.kind() + " " + co.id,
	})
	if err != nil {
		co.lease.release()
		return fmt.Errorf("the task consumer: %w", err)
	}
	return nil
}

// claim stores settings under id in the match bucket, or checks that the
// settings stored there are the same; the error names what differs.
func claim(ctx context.Context, js jetstream.JetStream, id string, settings any) error {
	kv, err := js.KeyValue(ctx, MatchBucket)
	if err != nil {
		return err
	}
	b, err := json.Marshal(settings)
	if err != nil {
		return err
	}
	if _, err := kv.Create(ctx, id, b); err == nil {
		return nil
	} else if !errors.Is(err, jetstream.ErrKeyExists) {
		return fmt.Errorf("storing the settings: %w", err)
	}
	e, err := kv.Get(ctx, id)
	if err != nil {
		return fmt.Errorf("reading the settings stored: %w", err)
	}
	if d := diff(b, e.Value()); len(d) > 0 {
		if len(d) > 3 {
			d = append(d[:3], fmt.Sprintf("and %d more", len(d)-3))
		}
		return fmt.Errorf("%w by a run with other settings: %s: %s (give another --match-id)", ErrSettings, id, strings.Join(d, "; "))
	}
	return nil
}

// run restores what earlier runs counted, queues the tasks not yet
// queued and takes results until the job is over. When ctx ends the run
// stays on the broker and ctx's error is returned.
func (co *coordinator) run(ctx context.Context) error {
	defer co.lease.release()
	results, kv, st, err := co.prepare(ctx)
	if err != nil {
		return err
	}
	if err := co.loop(ctx, results); err != nil {
		if co.abandon && ctx.Err() != nil {
			actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ackTimeout)
			defer cancel()
			co.clear(actx)
		}
		return err
	}
	co.clear(ctx)
	st.State = "finished"
	if d, ok := co.job.(deciding); ok {
		st.Decision = d.decision()
	}
	co.putStatus(ctx, kv, st)
	return co.job.end()
}

// prepare sets up the results consumer, restores what earlier runs
// counted and queues the tasks not yet queued; it returns the consumer,
// the match bucket and the run's status.
func (co *coordinator) prepare(ctx context.Context) (jetstream.Consumer, jetstream.KeyValue, status, error) {
	results, err := co.c.JS.CreateOrUpdateConsumer(ctx, ResultStream, jetstream.ConsumerConfig{
		Durable: "sower-coordinator-" + co.id, FilterSubject: resultSubject(co.id),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: 5 * time.Second, MaxAckPending: 1,
		Description: "sower: the coordinator of " + co.job.kind() + " " + co.id,
	})
	if err != nil {
		return nil, nil, status{}, fmt.Errorf("the results consumer: %w", err)
	}
	// A self-play run's output says what is written: nothing to restore.
	var waiting uint64
	if !co.requeue {
		if waiting, err = co.restore(ctx, results); err != nil {
			return nil, nil, status{}, err
		}
	}
	if line := co.job.resumed(waiting); line != "" {
		fmt.Fprintln(co.out, line)
	}
	kv, err := co.c.JS.KeyValue(ctx, MatchBucket)
	if err != nil {
		return nil, nil, status{}, err
	}
	st := co.status(ctx, kv)
	if (co.requeue || !st.Published) && !co.job.over() {
		if err := co.publish(ctx); err != nil {
			return nil, nil, status{}, err
		}
		st.Published, st.State = true, "running"
		co.putStatus(ctx, kv, st)
	}
	return results, kv, st, nil
}

// loop takes results until the job is over, watching meanwhile the
// workers' notes, the broker's advisories and the queue's state.
func (co *coordinator) loop(ctx context.Context, results jetstream.Consumer) error {
	notes := make(chan progressNote, 64)
	sub, err := co.c.NC.Subscribe(progressSubject(co.id), func(msg *nats.Msg) {
		if n, ok := decodeNote(msg.Data); ok {
			select {
			case notes <- n:
			default:
			}
		}
	})
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	exhausted, unwatch, err := co.watchExhausted()
	if err != nil {
		return err
	}
	defer unwatch()
	tick := time.NewTicker(co.every)
	defer tick.Stop()
	co.progress(ctx)
	co.checkStuck(ctx, results)
	for !co.job.over() {
		select {
		case <-ctx.Done():
			fmt.Fprintf(co.out, "%s %s stays on the broker: the same command resumes it\n", co.job.kind(), co.id)
			return ctx.Err()
		case err := <-co.lease.lost:
			return err
		case n := <-notes:
			co.running[n.Pair] = n.Worker
			continue
		case <-tick.C:
			co.progress(ctx)
			co.checkStuck(ctx, results)
			if err := co.feed(ctx); err != nil {
				return err
			}
			continue
		case seq := <-exhausted:
			co.giveUp(ctx, seq)
			continue
		default:
		}
		msg, err := results.Next(jetstream.FetchMaxWait(200 * time.Millisecond))
		if errors.Is(err, jetstream.ErrMsgIteratorClosed) || errors.Is(err, nats.ErrTimeout) || errors.Is(err, jetstream.ErrNoMessages) {
			continue
		}
		if err != nil {
			if ctx.Err() == nil {
				fmt.Fprintf(co.out, "waiting for results: %v\n", err)
				sleep(ctx, time.Second)
			}
			continue
		}
		from := live
		if meta, err := msg.Metadata(); err == nil && meta.Sequence.Stream <= co.before {
			from = earlier
		}
		if err := co.take(msg.Data(), from); err != nil {
			return err
		}
		co.repair(ctx)
		if err := co.feed(ctx); err != nil {
			return err
		}
		// Written, the result is acknowledged even after Ctrl-C: else
		// it would be delivered again to the run that resumes.
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ackTimeout)
		if err := msg.DoubleAck(actx); err != nil {
			fmt.Fprintf(co.out, "acknowledging a result: %v\n", err)
		}
		cancel()
	}
	return nil
}

// repair replaces the damaged engine objects a worker reported and
// queues the tasks they failed again, when the job has any.
func (co *coordinator) repair(ctx context.Context) {
	j, ok := co.job.(repairing)
	if !ok {
		return
	}
	objects, tasks := j.repair()
	if len(tasks) == 0 {
		return
	}
	var err error
	for hash, path := range objects {
		if err = upload(ctx, co.c.JS, path, hash, co.out); err != nil {
			err = fmt.Errorf("replacing the engine object of %s: %w", path, err)
			break
		}
	}
	run := strconv.FormatInt(time.Now().UnixNano(), 36)
	for _, t := range tasks {
		var b []byte
		if err == nil {
			b, err = json.Marshal(&t)
		}
		if err == nil {
			err = co.c.publish(ctx, taskSubject(co.id, t.Pair), b, fmt.Sprintf("task.%s.%d.repair.%s", co.id, t.Pair, run))
		}
		if err != nil {
			j.repairFailed(t.Pair, err.Error())
		}
	}
}

// feed queues the tasks a feeding job has for now.
func (co *coordinator) feed(ctx context.Context) error {
	f, ok := co.job.(feeding)
	if !ok || co.job.over() {
		return nil
	}
	for _, t := range f.more() {
		b, err := json.Marshal(&t)
		if err != nil {
			return err
		}
		if err := co.c.publish(ctx, taskSubject(co.id, t.Pair), b, fmt.Sprintf("task.%s.%d.%s", co.id, t.Pair, co.stamp)); err != nil {
			return fmt.Errorf("publishing %s: %w", t.what(), err)
		}
	}
	return nil
}

// sleep waits for d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// take decodes a result and hands it to the job; a message refused is
// logged and dropped.
func (co *coordinator) take(data []byte, from origin) error {
	r, err := decodeResult(data, co.id)
	if err != nil {
		if from != restored {
			fmt.Fprintf(co.out, "refusing a message of %s %s: %v\n", co.job.kind(), co.id, err)
		}
		return nil
	}
	delete(co.running, r.Pair)
	return co.job.take(r, from)
}

// restore hands the job, as restored, the results an earlier run
// acknowledged: those up to the consumer's acknowledgement floor. It
// returns the number of results waiting beyond them (the loop takes those
// as they are delivered).
func (co *coordinator) restore(ctx context.Context, cons jetstream.Consumer) (uint64, error) {
	info, err := cons.Info(ctx)
	if err != nil {
		return 0, err
	}
	waiting := info.NumPending + uint64(max(info.NumAckPending, 0))
	floor := info.AckFloor.Stream
	if floor == 0 {
		return waiting, nil
	}
	oc, err := co.c.JS.OrderedConsumer(ctx, ResultStream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{resultSubject(co.id)}})
	if err != nil {
		return 0, err
	}
	for {
		msg, err := oc.Next(jetstream.FetchMaxWait(2 * time.Second))
		if err != nil {
			return 0, fmt.Errorf("reading the earlier results of %s %s: %w", co.job.kind(), co.id, err)
		}
		meta, err := msg.Metadata()
		if err != nil {
			return 0, err
		}
		if meta.Sequence.Stream > floor {
			return waiting, nil
		}
		if err := co.take(msg.Data(), restored); err != nil {
			return 0, err
		}
		if meta.Sequence.Stream == floor {
			return waiting, nil
		}
	}
}

// status reads the run's status.
func (co *coordinator) status(ctx context.Context, kv jetstream.KeyValue) status {
	if e, err := kv.Get(ctx, co.id+".status"); err == nil {
		return decodeStatus(e.Value())
	}
	return status{}
}

func (co *coordinator) putStatus(ctx context.Context, kv jetstream.KeyValue, st status) {
	b, _ := json.Marshal(st)
	if _, err := kv.Put(ctx, co.id+".status", b); err != nil {
		fmt.Fprintf(co.out, "storing the status: %v\n", err)
	}
}

// publish queues the job's tasks. Tasks of an earlier, interrupted
// publication are withdrawn first so that none is queued twice.
func (co *coordinator) publish(ctx context.Context) error {
	co.withdraw(ctx)
	if co.requeue {
		s, err := co.c.JS.Stream(ctx, ResultStream)
		if err != nil {
			return err
		}
		info, err := s.Info(ctx)
		if err != nil {
			return err
		}
		co.before = info.State.LastSeq
	}
	run := strconv.FormatInt(time.Now().UnixNano(), 36)
	co.stamp = run
	for _, t := range co.job.tasks() {
		b, err := json.Marshal(&t)
		if err != nil {
			return err
		}
		// The id makes a retried publication count once; its run number
		// lets a later run queue the task again after withdrawing it (the
		// broker remembers ids for its duplicate window, purges or not).
		// A broker restarted meanwhile is waited for (Client.publish).
		if err := co.c.publish(ctx, taskSubject(co.id, t.Pair), b, fmt.Sprintf("task.%s.%d.%s", co.id, t.Pair, run)); err != nil {
			return fmt.Errorf("publishing %s: %w", t.what(), err)
		}
	}
	return nil
}

// clear removes the run's tasks still queued and its task consumer.
func (co *coordinator) clear(ctx context.Context) {
	co.withdraw(ctx)
	if err := co.c.JS.DeleteConsumer(ctx, TaskStream, runConsumer(co.id)); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
		fmt.Fprintf(co.out, "removing the task consumer: %v\n", err)
	}
}

// withdraw removes the run's tasks still queued.
func (co *coordinator) withdraw(ctx context.Context) {
	s, err := co.c.JS.Stream(ctx, TaskStream)
	if err == nil {
		err = s.Purge(ctx, jetstream.WithPurgeSubject(taskSubjects(co.id)))
	}
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(co.out, "withdrawing the remaining tasks: %v\n", err)
	}
}

// workersLookup bounds the count of the workers for a progress line: a
// listing of the worker bucket begun as the broker goes down may never
// end, and would hold the coordinator's loop.
const workersLookup = 5 * time.Second

// workerNames returns the names of the workers connected (those whose
// heartbeat is in the worker bucket), sorted; none when the broker does
// not answer within workersLookup.
func (c *Client) workerNames(ctx context.Context) []string {
	kctx, cancel := context.WithTimeout(ctx, workersLookup)
	defer cancel()
	kv, err := c.JS.KeyValue(kctx, WorkerBucket)
	if err != nil {
		return nil
	}
	keys, err := kv.Keys(kctx)
	if err != nil {
		return nil
	}
	slices.Sort(keys)
	return keys
}

// progress writes the job's progress line with the workers connected
// and the tasks running.
func (co *coordinator) progress(ctx context.Context) {
	workers := len(co.c.workerNames(ctx))
	open := map[int]bool{}
	for _, t := range co.job.open() {
		open[t.Pair] = true
	}
	for n := range co.running {
		if !open[n] {
			delete(co.running, n)
		}
	}
	if line := co.job.line(workers, co.running); line != "" {
		fmt.Fprintln(co.out, line)
	}
}
