package broker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/sower-engine/sower/bench/match"
)

// Match is a match whose pairs are played by workers.
type Match struct {
	// Config is the match as a local one would be configured (its
	// Progress, Report, JSON and PGN are written the same way); Log and
	// Traditional are not supported, Concurrency is ignored.
	Config match.Config
	// ID names the match on the broker; empty derives it from the
	// settings, so that the same command resumes the same match.
	ID string
	// AckWait is how long a task may go unacknowledged before another
	// worker gets it (0: DefaultAckWait).
	AckWait time.Duration
	// MaxDeliver is how often a task is handed out before it is given up
	// as failed (0: ten times); a pair whose workers all die is not
	// retried for ever.
	MaxDeliver int
	// ProgressEvery is how often a line shows the workers and pairs (0:
	// ten seconds).
	ProgressEvery time.Duration
}

// ErrSettings marks a match id taken by a match with other settings.
var ErrSettings = errors.New("match id taken")

// status is what the match bucket holds under "<id>.status".
type status struct {
	Published bool   `json:"published"` // every task was published once
	State     string `json:"state"`     // "running" or "finished"
	Decision  string `json:"decision,omitempty"`
}

// progressNote is what a worker publishes (core NATS, not kept) when it
// starts a pair.
type progressNote struct {
	Pair   int    `json:"pair"`
	Worker string `json:"worker"`
}

func progressSubject(id string) string { return "sower.progress." + id }

// coordinator is a match in progress.
type coordinator struct {
	m        *Match
	c        *Client
	id       string
	pairs    int
	settings Settings
	tally    *match.Tally
	done     map[int]bool   // pairs counted
	failed   map[int]string // pairs given up, with the reason
	running  map[int]string // pairs started, by worker
	out      io.Writer      // progress
}

// Run plays the match on the broker and returns its summary, as
// match.Run does for a local one. When ctx ends the match stays on the
// broker: running it again with the same settings resumes it.
func Run(ctx context.Context, c *Client, m Match) (match.Summary, error) {
	cfg := &m.Config
	if cfg.Traditional {
		return match.Summary{}, errors.New("a traditional match plays its games in sequence: it cannot be spread over workers")
	}
	if cfg.Log != nil {
		return match.Summary{}, errors.New("the engines' log is written by each worker (sower worker --log)")
	}
	if err := cfg.Validate(); err != nil {
		return match.Summary{}, err
	}
	co := &coordinator{m: &m, c: c, pairs: (cfg.Games + 1) / 2, done: map[int]bool{}, failed: map[int]string{},
		running: map[int]string{}, out: cfg.Progress}
	if co.out == nil {
		co.out = io.Discard
	}
	var programs [2]string
	var hashes [2]string
	for i, e := range cfg.Engines {
		if e.Builtin != "" {
			continue
		}
		p, err := program(e.Command[0])
		if err != nil {
			return match.Summary{}, fmt.Errorf("engine%d (%s): %v", i+1, e.Name, err)
		}
		if hashes[i], err = hashFile(p); err != nil {
			return match.Summary{}, fmt.Errorf("engine%d (%s): %v", i+1, e.Name, err)
		}
		programs[i] = p
	}
	co.settings = Settings{Version: Version, Setup: NewSetup(cfg, hashes)}
	for i := range co.settings.Setup.Engines {
		co.settings.Setup.Engines[i].Program = "" // where it lies here does not change the games
	}
	for _, o := range cfg.PairOpenings() {
		co.settings.Openings = append(co.settings.Openings, o.String())
	}
	if cfg.SPRT != nil {
		co.settings.SPRT = cfg.SPRT.String()
	}
	co.id = m.ID
	if co.id == "" {
		co.id = co.settings.ID()
	}
	if err := CheckID(co.id); err != nil {
		return match.Summary{}, err
	}
	if err := c.ensure(ctx); err != nil {
		return match.Summary{}, err
	}
	ackWait := m.AckWait
	if ackWait <= 0 {
		ackWait = DefaultAckWait
	}
	if m.MaxDeliver <= 0 {
		m.MaxDeliver = defaultMaxDeliver
	}
	if _, err := c.JS.CreateOrUpdateConsumer(ctx, TaskStream, workerConsumerConfig(ackWait, m.MaxDeliver)); err != nil {
		return match.Summary{}, fmt.Errorf("the workers' consumer: %w", err)
	}
	if err := co.claim(ctx); err != nil {
		return match.Summary{}, err
	}
	for i, p := range programs {
		if p == "" {
			continue
		}
		if err := upload(ctx, c.JS, p, hashes[i], co.out); err != nil {
			return match.Summary{}, fmt.Errorf("uploading engine%d (%s): %w", i+1, p, err)
		}
	}
	var err error
	if co.tally, err = match.NewTally(*cfg); err != nil {
		return match.Summary{}, err
	}
	return co.run(ctx)
}

// claim stores the match's settings under its id, or checks that the
// stored ones are the same.
func (co *coordinator) claim(ctx context.Context) error {
	return claim(ctx, co.c.JS, co.id, &co.settings)
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

// run restores what earlier runs counted, publishes the tasks not yet
// published and counts results until the match is over.
func (co *coordinator) run(ctx context.Context) (match.Summary, error) {
	cfg := &co.m.Config
	cons, err := co.c.JS.CreateOrUpdateConsumer(ctx, ResultStream, jetstream.ConsumerConfig{
		Durable: "sower-coordinator-" + co.id, FilterSubject: resultSubject(co.id),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: 5 * time.Second, MaxAckPending: 1,
		Description: "sower: the coordinator of match " + co.id,
	})
	if err != nil {
		return match.Summary{}, fmt.Errorf("the results consumer: %w", err)
	}
	if err := co.restore(ctx, cons); err != nil {
		return match.Summary{}, err
	}
	kv, err := co.c.JS.KeyValue(ctx, MatchBucket)
	if err != nil {
		return match.Summary{}, err
	}
	st := co.status(ctx, kv)
	if !st.Published && !co.over() {
		if err := co.publish(ctx); err != nil {
			return match.Summary{}, err
		}
		st.Published, st.State = true, "running"
		co.putStatus(ctx, kv, st)
	}
	notes := make(chan progressNote, 64)
	sub, err := co.c.NC.Subscribe(progressSubject(co.id), func(msg *nats.Msg) {
		var n progressNote
		if json.Unmarshal(msg.Data, &n) == nil {
			select {
			case notes <- n:
			default:
			}
		}
	})
	if err != nil {
		return match.Summary{}, err
	}
	defer sub.Unsubscribe()
	exhausted, unwatch, err := watchExhausted(co.c)
	if err != nil {
		return match.Summary{}, err
	}
	defer unwatch()
	every := co.m.ProgressEvery
	if every <= 0 {
		every = 10 * time.Second
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	co.progress(ctx)
	for !co.over() {
		select {
		case <-ctx.Done():
			sum := co.tally.Summary()
			fmt.Fprintf(co.out, "match %s stays on the broker: the same command resumes it\n", co.id)
			return sum, fmt.Errorf("coordinator stopped after %d games: %w", sum.Score.Games(), ctx.Err())
		case n := <-notes:
			if !co.done[n.Pair] {
				co.running[n.Pair] = n.Worker
			}
			continue
		case <-tick.C:
			co.progress(ctx)
			continue
		case seq := <-exhausted:
			giveUp(ctx, co.c, co.id, seq, co.m.MaxDeliver, co.out)
			continue
		default:
		}
		msg, err := cons.Next(jetstream.FetchMaxWait(200 * time.Millisecond))
		if errors.Is(err, jetstream.ErrMsgIteratorClosed) || errors.Is(err, nats.ErrTimeout) || errors.Is(err, jetstream.ErrNoMessages) {
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				continue
			}
			fmt.Fprintf(co.out, "waiting for results: %v\n", err)
			time.Sleep(time.Second)
			continue
		}
		if err := co.take(msg.Data(), false); err != nil {
			return co.tally.Summary(), err
		}
		if err := msg.DoubleAck(ctx); err != nil && ctx.Err() == nil {
			fmt.Fprintf(co.out, "acknowledging a result: %v\n", err)
		}
	}
	sum := co.tally.Summary()
	st.State = "finished"
	if sum.Decision != match.Continue {
		st.Decision = sum.Decision.String()
	}
	co.withdraw(ctx)
	co.putStatus(ctx, kv, st)
	if cfg.Report != nil {
		sum.WriteReport(cfg.Report)
	}
	if len(co.failed) > 0 {
		return sum, fmt.Errorf("%d of %d pairs failed (%s)", len(co.failed), co.pairs, co.failures())
	}
	return sum, nil
}

// over reports whether the match is over: decided, or every pair counted
// or given up.
func (co *coordinator) over() bool {
	return co.tally.Summary().Decision != match.Continue || len(co.done)+len(co.failed) >= co.pairs
}

// failures names the failed pairs and the first reason.
func (co *coordinator) failures() string {
	var ps []int
	for p := range co.failed {
		ps = append(ps, p)
	}
	sort.Ints(ps)
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = strconv.Itoa(p + 1)
	}
	return fmt.Sprintf("pairs %s; pair %d: %s", strings.Join(names, ", "), ps[0]+1, co.failed[ps[0]])
}

// restore counts, without writing them again, the results an earlier run
// acknowledged: those up to the consumer's acknowledgement floor.
func (co *coordinator) restore(ctx context.Context, cons jetstream.Consumer) error {
	info, err := cons.Info(ctx)
	if err != nil {
		return err
	}
	floor := info.AckFloor.Stream
	if floor == 0 {
		return nil
	}
	oc, err := co.c.JS.OrderedConsumer(ctx, ResultStream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{resultSubject(co.id)}})
	if err != nil {
		return err
	}
	for {
		msg, err := oc.Next(jetstream.FetchMaxWait(2 * time.Second))
		if err != nil {
			return fmt.Errorf("reading the match's earlier results: %w", err)
		}
		meta, err := msg.Metadata()
		if err != nil {
			return err
		}
		if meta.Sequence.Stream > floor {
			break
		}
		if err := co.take(msg.Data(), true); err != nil {
			return err
		}
		if meta.Sequence.Stream == floor {
			break
		}
	}
	if n := len(co.done); n > 0 || len(co.failed) > 0 {
		s := co.tally.Summary()
		fmt.Fprintf(co.out, "Resuming match %s: %d pairs (%d games) already played, %d failed\n", co.id, n, s.Score.Games(), len(co.failed))
	}
	return nil
}

// take counts one result; restored ones were written by an earlier run.
// A pair counted already (played twice after a redelivery) is skipped.
func (co *coordinator) take(data []byte, restored bool) error {
	var r Result
	if err := json.Unmarshal(data, &r); err != nil || r.Version != Version || r.Match != co.id {
		fmt.Fprintf(co.out, "skipping a result that is not of this match's version %d\n", Version)
		return nil
	}
	if r.Pair < 0 || r.Pair >= co.pairs || co.done[r.Pair] {
		return nil
	}
	delete(co.running, r.Pair)
	if r.Failed == "" {
		if err := co.checkRecords(&r); err != nil {
			r.Failed = err.Error()
		}
	}
	if r.Failed != "" {
		if _, seen := co.failed[r.Pair]; !seen && !restored {
			fmt.Fprintf(co.out, "Pair %d failed on worker %s: %s\n", r.Pair+1, r.Worker, r.Failed)
		}
		co.failed[r.Pair] = r.Failed
		return nil
	}
	delete(co.failed, r.Pair)
	co.done[r.Pair] = true
	for _, rec := range r.Records {
		if restored {
			co.tally.Restore(rec)
		} else if err := co.tally.Add(rec); err != nil {
			return err
		}
	}
	return nil
}

// checkRecords checks that a result holds the pair's games.
func (co *coordinator) checkRecords(r *Result) error {
	want := min(2, co.m.Config.Games-2*r.Pair)
	if len(r.Records) != want {
		return fmt.Errorf("malformed result from worker %s: %d records for pair %d, want %d", r.Worker, len(r.Records), r.Pair+1, want)
	}
	sort.Slice(r.Records, func(i, j int) bool { return r.Records[i].Game < r.Records[j].Game })
	for i, rec := range r.Records {
		if rec == nil || rec.Game != 2*r.Pair+i+1 {
			return fmt.Errorf("malformed result from worker %s: pair %d with a record of another game", r.Worker, r.Pair+1)
		}
	}
	return nil
}

// status reads the match's status.
func (co *coordinator) status(ctx context.Context, kv jetstream.KeyValue) status {
	var st status
	if e, err := kv.Get(ctx, co.id+".status"); err == nil {
		_ = json.Unmarshal(e.Value(), &st)
	}
	return st
}

func (co *coordinator) putStatus(ctx context.Context, kv jetstream.KeyValue, st status) {
	b, _ := json.Marshal(st)
	if _, err := kv.Put(ctx, co.id+".status", b); err != nil {
		fmt.Fprintf(co.out, "storing the match's status: %v\n", err)
	}
}

// publish queues a task for every pair not counted or failed. Tasks of an
// earlier, interrupted publication are withdrawn first so that none is
// queued twice.
func (co *coordinator) publish(ctx context.Context) error {
	co.withdraw(ctx)
	run := strconv.FormatInt(time.Now().UnixNano(), 36)
	for pair := range co.pairs {
		if co.done[pair] {
			continue
		}
		if _, failed := co.failed[pair]; failed {
			continue
		}
		t := Task{Version: Version, Match: co.id, Pair: pair, Setup: co.settings.Setup,
			Opening: co.settings.Openings[pair%len(co.settings.Openings)]}
		b, err := json.Marshal(&t)
		if err != nil {
			return err
		}
		// The id makes a retried publication count once; its run number
		// lets a later run queue the pair again after withdrawing it (the
		// broker remembers ids for its duplicate window, purges or not).
		// A broker restarted meanwhile is waited for (Client.publish).
		if err := co.c.publish(ctx, taskSubject(co.id, pair), b, fmt.Sprintf("task.%s.%d.%s", co.id, pair, run)); err != nil {
			return fmt.Errorf("publishing pair %d: %w", pair+1, err)
		}
	}
	return nil
}

// maxDeliveriesSubject is where the broker announces a task handed out
// MaxDeliver times without being acknowledged.
const maxDeliveriesSubject = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + TaskStream + "." + WorkerConsumer

// giveUp reports the task at seq, handed out too often without a result,
// as failed (if it is one of run id's) and removes it.
func giveUp(ctx context.Context, c *Client, id string, seq uint64, maxDeliver int, out io.Writer) {
	s, err := c.JS.Stream(ctx, TaskStream)
	if err != nil {
		return
	}
	m, err := s.GetMsg(ctx, seq)
	if err != nil || !strings.HasPrefix(m.Subject, "sower.task."+id+".") {
		return
	}
	var t Task
	if err := json.Unmarshal(m.Data, &t); err != nil || t.Match != id {
		return
	}
	r := Result{Version: Version, Match: id, Pair: t.Pair, Games: t.Games, Worker: "(none)",
		Failed: fmt.Sprintf("handed out %d times without a result: its workers died or stopped each time", maxDeliver)}
	b, _ := json.Marshal(&r)
	if _, err := c.JS.Publish(ctx, resultSubject(id), b, jetstream.WithMsgID(fmt.Sprintf("gaveup.%s.%d", id, seq))); err != nil {
		fmt.Fprintf(out, "reporting %s as failed: %v\n", t.what(), err)
		return
	}
	_ = s.DeleteMsg(ctx, seq)
}

// watchExhausted passes on the stream sequence of every task the broker
// gave up handing out.
func watchExhausted(c *Client) (<-chan uint64, func(), error) {
	ch := make(chan uint64, 64)
	sub, err := c.NC.Subscribe(maxDeliveriesSubject, func(msg *nats.Msg) {
		var a struct {
			StreamSeq uint64 `json:"stream_seq"`
		}
		if json.Unmarshal(msg.Data, &a) == nil {
			select {
			case ch <- a.StreamSeq:
			default:
			}
		}
	})
	if err != nil {
		return nil, nil, err
	}
	return ch, func() { _ = sub.Unsubscribe() }, nil
}

// withdraw removes the match's tasks still queued.
func (co *coordinator) withdraw(ctx context.Context) {
	s, err := co.c.JS.Stream(ctx, TaskStream)
	if err == nil {
		err = s.Purge(ctx, jetstream.WithPurgeSubject(taskSubjects(co.id)))
	}
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(co.out, "withdrawing the remaining tasks: %v\n", err)
	}
}

// progress writes a line with the workers connected and the pairs.
func (co *coordinator) progress(ctx context.Context) {
	workers := 0
	if kv, err := co.c.JS.KeyValue(ctx, WorkerBucket); err == nil {
		if keys, err := kv.Keys(ctx); err == nil {
			workers = len(keys)
		}
	}
	running := len(co.running)
	queued := max(co.pairs-len(co.done)-len(co.failed)-running, 0)
	fmt.Fprintf(co.out, "Match %s: %d workers; pairs %d queued, %d running, %d done, %d failed of %d\n",
		co.id, workers, queued, running, len(co.done), len(co.failed), co.pairs)
}
