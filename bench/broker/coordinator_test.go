package broker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sower-engine/sower/bench/selfplay"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/internal/sowertest"
	"github.com/sower-engine/sower/search"
)

// waitConsumer waits for the task consumer of run id.
func waitConsumer(ctx context.Context, t *testing.T, c *Client, id string) jetstream.Consumer {
	t.Helper()
	for ctx.Err() == nil {
		if cons, err := c.JS.Consumer(ctx, TaskStream, runConsumer(id)); err == nil {
			return cons
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no task consumer for %s", id)
	return nil
}

// gameText is what a self-play game holds, as text to compare.
func gameText(d *selfplay.GameData) string {
	var b strings.Builder
	fmt.Fprintf(&b, "game %d plies %d nodes %d result %v:", d.Game, d.Plies, d.Nodes, d.Status.Result)
	for _, r := range d.Records {
		fmt.Fprintf(&b, " %d %s %d %v;", r.Ply, r.Pos.String(), r.Score, r.Result)
	}
	return b.String()
}

// TestSelfPlayFailedThenDelivered runs self-play over the broker with a
// worker that reports the first batch failed and then delivers it: every
// game is written exactly once, and the games are those of a local run.
func TestSelfPlayFailedThenDelivered(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	c, wc := dial(t, srv), dial(t, srv)
	v, err := board.New(board.NameHoyito3)
	if err != nil {
		t.Fatal(err)
	}
	cfg := selfplay.DatagenConfig{Variant: v, Games: 8, Limits: search.Limits{Nodes: 60}, Engine: selfplay.DefaultEngine(1), RandomPlies: 2, Seed: 3, Concurrency: 1}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	local := map[int]string{}
	lcfg := cfg
	lcfg.Each = func(d selfplay.GameData) error { local[d.Game] = gameText(&d); return nil }
	if err := selfplay.Datagen(ctx, lcfg); err != nil {
		t.Fatal(err)
	}

	// The worker: tasks in order, the first one failed, then delivered.
	wctx, stopWorker := context.WithCancel(ctx)
	worked := make(chan error, 1)
	go func() { worked <- fakeWorker(wctx, wc) }()
	got, written := map[int]string{}, map[int]int{}
	cfg.Each = func(d selfplay.GameData) error { got[d.Game] = gameText(&d); written[d.Game]++; return nil }
	var progress sowertest.SyncBuffer
	err = Datagen(ctx, c, DatagenJob{Config: cfg, ID: "late", Batch: 2, Progress: &progress, Build: testBuild})
	stopWorker()
	if werr := <-worked; werr != nil {
		t.Errorf("the worker: %v", werr)
	}
	if err != nil {
		t.Fatalf("Datagen: %v\n%s", err, progress.String())
	}
	if !strings.Contains(progress.String(), "failed on worker w: a fault") {
		t.Errorf("the failure was not seen:\n%s", progress.String())
	}
	for g := range cfg.Games {
		if written[g] != 1 {
			t.Errorf("game %d written %d times", g, written[g])
		}
		if got[g] != local[g] {
			t.Errorf("game %d differs from the local run's:\n%s\n%s", g, got[g], local[g])
		}
	}
}

// fakeWorker plays the self-play tasks of run "late" in order until ctx
// ends, reporting the first one failed before it delivers it.
func fakeWorker(ctx context.Context, c *Client) error {
	cons := tasksOf(ctx, c, "late")
	for first := true; ctx.Err() == nil; {
		msg, task, err := nextTask(cons)
		if err != nil {
			return err
		}
		if msg == nil {
			continue
		}
		if first {
			first = false
			b, _ := json.Marshal(&Result{Version: Version, Match: task.Match, Pair: task.Pair, Worker: "w", Games: task.Games, Failed: "a fault"})
			if _, err := c.JS.Publish(ctx, resultSubject(task.Match), b); err != nil {
				if ctx.Err() != nil {
					return nil // stopped once the run was over
				}
				return fmt.Errorf("publishing: %w", err)
			}
		}
		data, err := playDatagen(ctx, task, testBuild)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return fmt.Errorf("playing: %w", err)
		}
		b, _ := json.Marshal(&Result{Version: Version, Match: task.Match, Pair: task.Pair, Worker: "w", Games: task.Games, Data: data})
		if _, err := c.JS.Publish(ctx, resultSubject(task.Match), b); err != nil {
			if ctx.Err() != nil {
				return nil // stopped once the run was over: a task handed out again
			}
			return fmt.Errorf("publishing: %w", err)
		}
		_ = msg.DoubleAck(ctx)
	}
	return nil
}

// tasksOf waits for the task consumer of run and returns it (nil when
// ctx ends first).
func tasksOf(ctx context.Context, c *Client, run string) jetstream.Consumer {
	for ctx.Err() == nil {
		if cons, err := c.JS.Consumer(ctx, TaskStream, runConsumer(run)); err == nil {
			return cons
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

// nextTask waits a moment for a task of cons and decodes it; it returns
// a nil message when none came.
func nextTask(cons jetstream.Consumer) (jetstream.Msg, *Task, error) {
	if cons == nil {
		return nil, nil, nil
	}
	msg, err := cons.Next(jetstream.FetchMaxWait(200 * time.Millisecond))
	if err != nil {
		return nil, nil, nil
	}
	task, err := decodeTask(msg.Data())
	if err != nil {
		return nil, nil, fmt.Errorf("task: %w", err)
	}
	return msg, task, nil
}

// serveWorker runs w on a connection of its own to srv until the returned
// function stops it and waits for it.
func serveWorker(ctx context.Context, t *testing.T, srv *Server, w *Worker) func() {
	t.Helper()
	wc := dial(t, srv)
	wctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- w.Serve(wctx, wc) }()
	return func() { stop(); <-served }
}

// stopOnceQueued runs match m's coordinator until its task consumer holds
// tasks tasks and the match's status records them published, stops it,
// and returns the consumer.
func stopOnceQueued(ctx context.Context, t *testing.T, c *Client, m Match, tasks uint64) jetstream.Consumer {
	t.Helper()
	first, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { _, err := Run(first, c, m); done <- err }()
	cons := waitConsumer(ctx, t, c, m.ID)
	// Queued, and recorded as published: a coordinator stopped between
	// the two queues its tasks again when it resumes (rightly: it cannot
	// know they were), which is not what the callers test.
	for published := false; ; time.Sleep(20 * time.Millisecond) {
		info, err := cons.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !published {
			if kv, err := c.JS.KeyValue(ctx, MatchBucket); err == nil {
				if e, err := kv.Get(ctx, m.ID+".status"); err == nil {
					published = decodeStatus(e.Value()).Published
				}
			}
		}
		if published && info.NumPending == tasks {
			break
		}
	}
	stop()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the stopped coordinator: %v", err)
	}
	return cons
}

// TestExhaustedWhileDown hands a match's task out until its deliveries
// are used up while its coordinator is stopped, so that the broker's
// advisory reaches no one: the resumed coordinator finds it from the
// stream's state and reports the pair as failed instead of waiting.
func TestExhaustedWhileDown(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	c := dial(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	m := Match{Config: builtinMatch(t, 2), ID: "down", AckWait: 200 * time.Millisecond, MaxDeliver: 2, Build: testBuild}
	cons := stopOnceQueued(ctx, t, c, m, 1)
	// Its workers take the task and die, twice; a healthy worker then
	// gets nothing.
	for range 2 {
		if _, err := cons.Next(jetstream.FetchMaxWait(2 * time.Second)); err != nil {
			t.Fatalf("a delivery: %v", err)
		}
		time.Sleep(2 * m.AckWait)
	}
	if msg, err := cons.Next(jetstream.FetchMaxWait(500 * time.Millisecond)); err == nil {
		t.Fatalf("delivered a third time: %s", msg.Subject())
	}
	var progress sowertest.SyncBuffer
	m.Config.Progress = &progress
	_, err := Run(ctx, c, m)
	if err == nil || !strings.Contains(err.Error(), "1 of 1 pairs failed") || !strings.Contains(err.Error(), "handed out 2 times") {
		t.Errorf("the resumed coordinator: %v\n%s", err, progress.String())
	}
}

// TestSecondCoordinatorRefused starts a match's coordinator twice: the
// second is refused at once, naming the match. Once the first stops the
// match resumes at once; a coordinator of another machine that died
// holds the match until its claim lapses.
func TestSecondCoordinatorRefused(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	c := dial(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	m := Match{Config: builtinMatch(t, 2), ID: "twice", Build: testBuild}
	// start runs a coordinator until the returned function stops it,
	// which returns its error.
	start := func() func() error {
		rctx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { _, err := Run(rctx, c, m); done <- err }()
		return func() error { stop(); return <-done }
	}
	leases := func() jetstream.KeyValue {
		for ctx.Err() == nil {
			if kv, err := c.JS.KeyValue(ctx, LeaseBucket); err == nil {
				return kv
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatal("no lease bucket")
		return nil
	}
	held := func(kv jetstream.KeyValue) {
		for ctx.Err() == nil {
			if _, err := kv.Get(ctx, "twice"); err == nil {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatal("the match was not claimed")
	}
	stopFirst := start()
	kv := leases()
	held(kv)
	if _, err := Run(ctx, c, m); !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), "match twice") {
		t.Errorf("the second coordinator: %v", err)
	}
	if err := stopFirst(); !errors.Is(err, context.Canceled) {
		t.Errorf("the first coordinator: %v", err)
	}
	stopThird := start()
	held(kv)
	if err := stopThird(); !errors.Is(err, context.Canceled) {
		t.Errorf("the coordinator resuming: %v", err)
	}

	if testing.Short() {
		return
	}
	b, _ := json.Marshal(holder{Host: "elsewhere", PID: 1, Since: time.Now()})
	if _, err := kv.Put(ctx, "twice", b); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(ctx, c, m); !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), "elsewhere") {
		t.Errorf("a coordinator of another machine holds the match: %v", err)
	}
	lapsed := time.Now().Add(leaseTTL + 5*time.Second)
	for {
		if _, err := kv.Get(ctx, "twice"); errors.Is(err, jetstream.ErrKeyNotFound) {
			break
		}
		if time.Now().After(lapsed) {
			t.Fatalf("the claim of a dead coordinator has not lapsed after %v", leaseTTL+5*time.Second)
		}
		time.Sleep(100 * time.Millisecond)
	}
	stopLast := start()
	held(kv)
	if err := stopLast(); !errors.Is(err, context.Canceled) {
		t.Errorf("the coordinator after the claim lapsed: %v", err)
	}
}

// TestWorkerRefusesTask queues tasks no coordinator sends: the worker
// refuses each with a failure report naming why, and goes on.
func TestWorkerRefusesTask(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	c := dial(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := c.ensure(ctx); err != nil {
		t.Fatal(err)
	}
	// Run "gone" has a task of its own: the slot keeps the players of
	// run "odd" from one of its tasks to the next.
	for _, run := range []string{"odd", "gone"} {
		if _, err := c.JS.CreateOrUpdateConsumer(ctx, TaskStream, jetstream.ConsumerConfig{
			Durable: runConsumer(run), FilterSubject: taskSubjects(run), AckPolicy: jetstream.AckExplicitPolicy,
		}); err != nil {
			t.Fatal(err)
		}
	}
	results, err := c.JS.CreateOrUpdateConsumer(ctx, ResultStream, jetstream.ConsumerConfig{
		Durable: "test", FilterSubject: resultSubject("*"), AckPolicy: jetstream.AckNonePolicy,
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg := builtinMatch(t, 20)
	setup := NewSetup(&cfg, [2]string{})
	setup.Sower, setup.Build = testBuild.Version, testBuild.SHA256
	encode := func(task Task) string { b, _ := json.Marshal(&task); return string(b) }
	noHash := setup
	noHash.Engines[0].Builtin = ""
	noBuild := setup
	noBuild.Sower, noBuild.Build = "", ""
	otherBuild := setup
	otherBuild.Build = strings.Repeat("1", 64)
	missing := setup
	missing.Engines[0] = Engine{Name: "gone", SHA256: strings.Repeat("a", 64)}
	tasks := map[string]string{
		`{"v":1,"match":"odd","pair":0}`:                                                         "task version 1",
		`{"v":6,"match":"other","pair":1,"datagen":{"games":4},"games":[1]}`:                     "a task of other in the queue of odd",
		`{"v":6,"match":"odd","pair":2,"datagen":{"games":4},"games":[1,1]}`:                     "game 1 twice",
		`{"v":6,"match":"odd","pair":2,"setup":{"games":2}}`:                                     "pair 3 of a match of 2 games",
		`{"v":6,"match":"odd","pair":7,"setup":{"games":2},"tournament":{"pairing":2,"pair":1}}`: "pair 2 of a match of 2 games",
		`{"v":6,"match":"odd","pair":8,"setup":{"games":2},"tournament":{"pairing":0,"pair":0}}`: "pairing 0 of a tournament",
		encode(Task{Version: Version, Match: "odd", Pair: 3, Setup: noHash}):                     "engine1: \"\" is not a SHA-256",
		encode(Task{Version: Version, Match: "odd", Pair: 4, Setup: setup, Opening: "no"}):       "the opening \"no\"",
		encode(Task{Version: Version, Match: "odd", Pair: 5, Setup: noBuild}):                    "a built-in player in a task that names no build",
		encode(Task{Version: Version, Match: "odd", Pair: 6, Setup: otherBuild}):                 "this worker is sower test (build 000000000000); the run's games are played by sower test (build 111111111111)",
	}
	if _, err := c.JS.Publish(ctx, taskSubject("gone", 0), []byte(encode(Task{Version: Version, Match: "gone", Setup: missing}))); err != nil {
		t.Fatal(err)
	}
	n := 0
	for task := range tasks {
		if _, err := c.JS.Publish(ctx, taskSubject("odd", n), []byte(task)); err != nil {
			t.Fatal(err)
		}
		n++
	}
	tasks["(gone)"] = "is not in the engine store"
	var progress sowertest.SyncBuffer
	w := &Worker{Name: "w", CacheDir: t.TempDir(), Progress: &progress, Build: testBuild}
	wctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- w.Serve(wctx, dial(t, srv)) }()
	var reasons, corrupt []string
	for len(reasons) < len(tasks) && ctx.Err() == nil {
		msg, err := results.Next(jetstream.FetchMaxWait(time.Second))
		if err != nil {
			continue
		}
		var r Result // as sent: its games may be those of the task refused
		if err := json.Unmarshal(msg.Data(), &r); err != nil || r.Failed == "" || r.Worker != "w" {
			t.Fatalf("a result %s: %v", msg.Data(), err)
		}
		reasons = append(reasons, r.Failed)
		if r.Corrupt != "" {
			corrupt = append(corrupt, r.Corrupt)
		}
	}
	stop()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if len(corrupt) != 1 || corrupt[0] != missing.Engines[0].SHA256 {
		t.Errorf("the objects named as corrupt: %v, want the missing one", corrupt)
	}
	all := strings.Join(reasons, "\n")
	for _, want := range tasks {
		if !strings.Contains(all, want) {
			t.Errorf("no failure %q among:\n%s\nworker:\n%s", want, all, progress.String())
		}
	}
}

// cancelWriter cancels a context at its first write: Ctrl-C the moment a
// record is written.
type cancelWriter struct{ cancel context.CancelFunc }

func (w cancelWriter) Write(p []byte) (int, error) {
	w.cancel()
	return len(p), nil
}

// TestAckSurvivesInterrupt interrupts a coordinator the moment it writes
// a result's records: the result is still acknowledged, so that the run
// that resumes does not get it again.
func TestAckSurvivesInterrupt(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	c := dial(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	w := &Worker{Name: "w", CacheDir: t.TempDir(), Build: testBuild}
	defer serveWorker(ctx, t, srv, w)()

	rctx, interrupt := context.WithCancel(ctx)
	cfg := builtinMatch(t, 4)
	cfg.JSON = cancelWriter{interrupt}
	if _, err := Run(rctx, c, Match{Config: cfg, ID: "ack", Build: testBuild}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v", err)
	}
	cons, err := c.JS.Consumer(ctx, ResultStream, "sower-coordinator-ack")
	if err != nil {
		t.Fatal(err)
	}
	info := cons.CachedInfo()
	if info.NumAckPending != 0 || info.AckFloor.Stream == 0 {
		t.Errorf("the result written was not acknowledged: %d pending, floor %d", info.NumAckPending, info.AckFloor.Stream)
	}
}

// testBuild stands for the program in tests that play self-play tasks in
// process: the coordinator and the fake worker name the same build.
var testBuild = Build{Version: "test", SHA256: strings.Repeat("0", 64)}

// TestBuiltinOtherBuild plays a match of built-in players on a worker of
// another build: the worker refuses its pair, naming both builds, and
// the coordinator reports the pair failed instead of counting games its
// own built-in players might have played otherwise.
func TestBuiltinOtherBuild(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	other := Build{Version: testBuild.Version, SHA256: strings.Repeat("1", 64)}
	var workerOut sowertest.SyncBuffer
	w := &Worker{Name: "other", CacheDir: t.TempDir(), Progress: &workerOut, Build: other}
	defer serveWorker(ctx, t, srv, w)()
	sum, err := Run(ctx, dial(t, srv), Match{Config: builtinMatch(t, 2), ID: "builds", Build: testBuild})
	want := "this worker is sower test (build 111111111111); the run's games are played by sower test (build 000000000000)"
	if err == nil || !strings.Contains(err.Error(), "1 of 1 pairs failed") || !strings.Contains(err.Error(), want) {
		t.Errorf("Run: %v\nworker:\n%s", err, workerOut.String())
	}
	if n := sum.Score.Games(); n != 0 {
		t.Errorf("%d games counted", n)
	}
	if _, err := Run(ctx, dial(t, srv), Match{Config: builtinMatch(t, 2), ID: "unknown"}); err == nil || !strings.Contains(err.Error(), "build is not known") {
		t.Errorf("Run without a build: %v", err)
	}
}

// TestResumeCountsWaitingResults stops a match's coordinator once its
// tasks are queued; a worker then plays both pairs while no coordinator
// runs. The coordinator that resumes says so at once, counting the
// results waiting for it (as it does for one delivered to a coordinator
// killed before acknowledging it), and ends with every game.
func TestResumeCountsWaitingResults(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	c := dial(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	m := Match{Config: builtinMatch(t, 4), ID: "waiting", Build: testBuild}
	stopOnceQueued(ctx, t, c, m, 2)
	w := &Worker{Name: "w", CacheDir: t.TempDir(), Build: testBuild}
	stopWorker := serveWorker(ctx, t, srv, w)
	results, err := c.JS.Stream(ctx, ResultStream)
	if err != nil {
		t.Fatal(err)
	}
	for {
		info, err := results.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if info.State.Msgs == 2 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("%d results after a minute, want 2", info.State.Msgs)
		}
		time.Sleep(50 * time.Millisecond)
	}
	stopWorker()
	var progress sowertest.SyncBuffer
	m.Config.Progress = &progress
	sum, err := Run(ctx, c, m)
	if err != nil {
		t.Fatalf("the resumed coordinator: %v\n%s", err, progress.String())
	}
	if want := "Resuming match waiting: 0 pairs (0 games) already played, 0 failed, results of earlier runs still to collect: 2"; !strings.Contains(progress.String(), want) {
		t.Errorf("progress lacks %q:\n%s", want, progress.String())
	}
	if n := sum.Score.Games(); n != 4 {
		t.Errorf("%d games counted, want 4", n)
	}
}
