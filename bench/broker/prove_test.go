package broker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
	"github.com/sower-engine/sower/internal/sowertest"
	"github.com/sower-engine/sower/search/dfpn"
	"github.com/sower-engine/sower/search/dfpn/split"
)

// proofGame returns a new game at the start of a Katro board.
func proofGame(t *testing.T, name string) *board.Game {
	t.Helper()
	v, err := board.New(name)
	if err != nil {
		t.Fatal(err)
	}
	return board.NewGame(v.Start())
}

// proofJobFor opens (or reads back) the tree of attacker's win at game's
// position in dir, leaves of leafNodes nodes, and returns its job.
func proofJobFor(t *testing.T, dir string, game *board.Game, attacker board.Side, leafNodes uint64, progress *sowertest.SyncBuffer) ProofJob {
	t.Helper()
	file := filepath.Join(dir, "tree.split")
	tr, _, err := split.Open(file, game.Position(), game.History(), split.Options{Attacker: attacker, LeafNodes: leafNodes})
	if err != nil {
		t.Fatal(err)
	}
	return ProofJob{Tree: tr, File: file, Game: game, Proof: filepath.Join(dir, "proof.cert"), ID: "p", HashMiB: 4,
		Tasks: 3, AckWait: time.Second, ProgressEvery: 200 * time.Millisecond, Progress: progress, Build: testBuild}
}

// localVerdict solves the game's position with one df-pn solver and
// reports whether attacker wins.
func localVerdict(t *testing.T, game *board.Game, attacker board.Side) bool {
	t.Helper()
	s, err := dfpn.New(dfpn.Config{HashMiB: 16})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := s.ProveWithin(context.Background(), game.Position(), game.History(), attacker, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b.PN == 0
}

// checkProof verifies the certificate the job wrote, by the rules.
func checkProof(t *testing.T, job ProofJob, attacker board.Side) {
	t.Helper()
	f, err := os.Open(job.Proof)
	if err != nil {
		t.Fatalf("no certificate: %v", err)
	}
	defer f.Close()
	st, err := cert.Verify(context.Background(), f, job.Game.Position(), cert.Options{History: job.Game.History()})
	if err != nil {
		t.Fatalf("the joined certificate is refused: %v", err)
	}
	if st.Winner != attacker {
		t.Fatalf("the certificate proves %s's win, want %s's", st.Winner, attacker)
	}
}

// TestSolveDistributed proves both sides' questions at katro-4x4's start
// with two workers in process, leaves small enough that the tree is
// expanded: each answer is the local solver's, the proven side's joined
// certificate verifies, and the disproven side's disproofs waited for the
// second worker's.
func TestSolveDistributed(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for i := range 2 {
		w := &Worker{Name: []string{"w1", "w2"}[i], CacheDir: t.TempDir(), Build: testBuild}
		defer serveWorker(ctx, t, srv, w)()
	}
	game := proofGame(t, board.NameKatro4x4)
	sides := []board.Side{board.South, board.North}
	if testing.Short() {
		sides = sides[:1] // the proven side: the certificate joined
	}
	for _, attacker := range sides {
		want := localVerdict(t, game, attacker)
		var progress sowertest.SyncBuffer
		job := proofJobFor(t, t.TempDir(), game, attacker, 100, &progress)
		job.ID = "p-" + strings.ToLower(attacker.String())
		if err := Prove(ctx, dial(t, srv), job); err != nil {
			t.Fatalf("%s: %v\n%s", attacker, err, progress.String())
		}
		pn, dn := job.Tree.Root()
		if (pn == 0) != want || (pn != 0 && dn != 0) {
			t.Fatalf("%s's win: the distributed proof says pn %d dn %d, the local solver won=%v\n%s", attacker, pn, dn, want, progress.String())
		}
		t.Logf("%s's win: pn %d dn %d, %d positions, %d nodes", attacker, pn, dn, job.Tree.Size(), job.Tree.Searched())
		if job.Tree.Size() == 1 {
			t.Errorf("%s: the tree was not expanded: the test checks too little", attacker)
		}
		if pn == 0 {
			checkProof(t, job, attacker)
		} else if _, err := os.Stat(job.Proof); err == nil {
			t.Errorf("%s: a certificate written for a question disproven", attacker)
		}
		if dn == 0 && !strings.Contains(progress.String(), "is held until another worker confirms it") {
			t.Errorf("%s: disproven with no disproof held for the other worker's:\n%s", attacker, progress.String())
		}
	}
}

// startProof runs Prove on its own connection until it returns, on the
// returned channel.
func startProof(ctx context.Context, t *testing.T, srv *Server, job ProofJob) <-chan error {
	t.Helper()
	c := dial(t, srv)
	done := make(chan error, 1)
	go func() { done <- Prove(ctx, c, job) }()
	return done
}

// finishProof waits for a proof started by startProof, then checks its
// verdict against the local solver's and, when proven, its certificate.
func finishProof(t *testing.T, done <-chan error, job ProofJob, progress *sowertest.SyncBuffer) {
	t.Helper()
	if err := <-done; err != nil {
		t.Fatalf("Prove: %v\n%s", err, progress.String())
	}
	attacker := job.Tree.Attacker()
	want := localVerdict(t, job.Game, attacker)
	pn, _ := job.Tree.Root()
	if (pn == 0) != want {
		t.Fatalf("%s's win: the distributed proof says proven=%v, the local solver %v\n%s", attacker, pn == 0, want, progress.String())
	}
	if pn == 0 {
		checkProof(t, job, attacker)
	}
}

// takeTask takes the next task of run from the queue as a worker would,
// waiting for it.
func takeTask(ctx context.Context, t *testing.T, c *Client, run string) (jetstream.Msg, *Task) {
	t.Helper()
	cons := tasksOf(ctx, c, run)
	for ctx.Err() == nil {
		msg, task, err := nextTask(cons)
		if err != nil {
			t.Fatal(err)
		}
		if msg != nil {
			return msg, task
		}
	}
	t.Fatal("no task before the test's deadline")
	return nil, nil
}

// answerTask answers the task taken in msg as worker would, with p, and
// acknowledges the message.
func answerTask(ctx context.Context, t *testing.T, c *Client, msg jetstream.Msg, task *Task, worker string, p *ProofResult) {
	t.Helper()
	b, _ := json.Marshal(&Result{Version: Version, Match: task.Match, Pair: task.Pair, Worker: worker, Proof: p})
	if _, err := c.JS.Publish(ctx, resultSubject(task.Match), b); err != nil {
		t.Fatal(err)
	}
	_ = msg.DoubleAck(ctx)
}

// TestSolveWorkerKilled: a worker takes the root's task and dies without
// a word; after the task's AckWait the broker hands it to a live worker,
// and the proof ends as the local one.
func TestSolveWorkerKilled(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var progress sowertest.SyncBuffer
	job := proofJobFor(t, t.TempDir(), proofGame(t, board.NameKatro4x4), board.South, 100, &progress)
	done := startProof(ctx, t, srv, job)
	c := dial(t, srv)
	msg, task := takeTask(ctx, t, c, job.ID)
	if task.Proof == nil || task.Proof.Path != "" {
		t.Fatalf("the first task is not the root's: %+v", task)
	}
	// The dead worker never answers; a live one starts.
	var workerOut sowertest.SyncBuffer
	defer serveWorker(ctx, t, srv, &Worker{Name: "live", CacheDir: t.TempDir(), Build: testBuild, Progress: &workerOut})()
	finishProof(t, done, job, &progress)
	if meta, err := msg.Metadata(); err != nil || meta.NumDelivered != 1 {
		t.Fatalf("the dead worker's delivery: %v %+v", err, meta)
	}
	if !strings.Contains(workerOut.String(), "proof task 0 (the root) of p searched") {
		t.Errorf("the live worker did not search the root's task handed out again:\n%s", workerOut.String())
	}
}

// TestSolveResumed stops the coordinator once its tree file holds an
// expanded tree, then runs it again from the file: the proof goes on
// from there and ends as the local one.
func TestSolveResumed(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	game := proofGame(t, board.NameKatro4x4)
	var progress sowertest.SyncBuffer
	job := proofJobFor(t, dir, game, board.South, 100, &progress)
	first, stop := context.WithCancel(ctx)
	done := startProof(first, t, srv, job)
	// One worker, stopped as soon as the tree file holds an expanded
	// tree, so that the first coordinator has work left.
	stopWorker := serveWorker(ctx, t, srv, &Worker{Name: "w", CacheDir: t.TempDir(), Build: testBuild})
	var read *split.Tree
	for read == nil || read.Size() == 1 {
		select {
		case err := <-done:
			t.Fatalf("the proof ended before it was stopped: %v\n%s", err, progress.String())
		case <-time.After(20 * time.Millisecond):
		}
		tr, ok, err := split.Open(job.File, game.Position(), game.History(), split.Options{Attacker: board.South})
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			read = tr
		}
	}
	stopWorker()
	stop()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the stopped coordinator: %v\n%s", err, progress.String())
	}
	if job.Tree.Settled() {
		t.Skip("the tree was settled before the coordinator stopped: nothing to resume")
	}
	again := proofJobFor(t, dir, game, board.South, 0, &progress)
	if again.Tree.Size() == 1 {
		t.Fatalf("the tree read back has only its root")
	}
	resumedFrom := again.Tree.Searched()
	defer serveWorker(ctx, t, srv, &Worker{Name: "w2", CacheDir: t.TempDir(), Build: testBuild})()
	finishProof(t, startProof(ctx, t, srv, again), again, &progress)
	if again.Tree.Searched() <= resumedFrom {
		t.Errorf("the resumed proof searched nothing: %d nodes before, %d after", resumedFrom, again.Tree.Searched())
	}
}

// TestSolveUntrustedResults answers the root's task with a forged result
// before the workers start: each is refused, naming why, the root is
// handed out again, and the proof ends as the local one.
func TestSolveUntrustedResults(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	game := proofGame(t, board.NameKatro4x4)
	// A certificate of South's win at the root: a true piece, but not of
	// the question asked (North's win).
	southPiece := southCertificate(t, game)
	cases := []struct {
		name   string
		forge  func(c *Client, p *ProofResult)
		refuse string
	}{
		{"wrong position", func(c *Client, p *ProofResult) {
			p.Position, p.PN, p.DN = "1,2,2,2/2,2,2,2/2,2,2,2/2,2,2,3 S 0", 0, dfpn.Infinity
			p.Piece = storePiece(ctx, t, c, southPiece)
		}, "but the leaf is"},
		{"false proven", func(c *Client, p *ProofResult) {
			p.PN, p.DN, p.Piece = 0, dfpn.Infinity, storePiece(ctx, t, c, southPiece)
		}, "proves South's win, not North's"},
		{"proven without a piece in the store", func(c *Client, p *ProofResult) {
			p.PN, p.DN, p.Piece = 0, dfpn.Infinity, strings.Repeat("ab", 32)
		}, "is not in the proof store"},
		{"damaged piece", func(c *Client, p *ProofResult) {
			name := storePiece(ctx, t, c, southPiece)
			obs, err := c.JS.ObjectStore(ctx, ProofBucket)
			if err != nil {
				t.Fatal(err)
			}
			damaged := append([]byte(nil), southPiece...)
			damaged[len(damaged)/2] ^= 0x20
			if _, err := obs.PutBytes(ctx, name, damaged); err != nil {
				t.Fatal(err)
			}
			p.PN, p.DN, p.Piece = 0, dfpn.Infinity, name
		}, "is damaged"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var progress sowertest.SyncBuffer
			job := proofJobFor(t, t.TempDir(), game, board.North, 100, &progress)
			job.ID = strings.ReplaceAll(tc.name, " ", "-")
			done := startProof(ctx, t, srv, job)
			c := dial(t, srv)
			msg, task := takeTask(ctx, t, c, job.ID)
			p := &ProofResult{Round: task.Proof.Round, Path: task.Proof.Path, Position: task.Proof.Position, PN: 3, DN: 4, Nodes: 10}
			tc.forge(c, p)
			answerTask(ctx, t, c, msg, task, "rogue", p)
			stopWorker := serveWorker(ctx, t, srv, &Worker{Name: "w", CacheDir: t.TempDir(), Build: testBuild})
			finishProof(t, done, job, &progress)
			stopWorker()
			out := progress.String()
			if !strings.Contains(out, "refusing the result for the root from worker rogue") || !strings.Contains(out, tc.refuse) {
				t.Errorf("the forged result was not refused with %q:\n%s", tc.refuse, out)
			}
		})
	}
}

// TestSolveFalseDisproof answers the root's task with a false disproof
// of South's win (katro-4x4's start, which South wins) before the worker
// starts: the disproof is held until another worker confirms it, the
// worker proves the root instead, and the proof ends as the local one.
// With TrustDisproofs the same answer enters at once and the proof ends
// disproven: what the confirmation prevents.
func TestSolveFalseDisproof(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	game := proofGame(t, board.NameKatro4x4)
	for _, trust := range []bool{false, true} {
		var progress sowertest.SyncBuffer
		job := proofJobFor(t, t.TempDir(), game, board.South, 100, &progress)
		job.ID = fmt.Sprint("trust-", trust)
		job.TrustDisproofs = trust
		done := startProof(ctx, t, srv, job)
		c := dial(t, srv)
		msg, task := takeTask(ctx, t, c, job.ID)
		answerTask(ctx, t, c, msg, task, "rogue", &ProofResult{Round: task.Proof.Round, Path: task.Proof.Path,
			Position: task.Proof.Position, PN: dfpn.Infinity, DN: 0, Nodes: 10})
		if trust {
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if _, dn := job.Tree.Root(); dn != 0 {
				t.Errorf("trusted: the false disproof did not enter (dn %d)", dn)
			}
			continue
		}
		stopWorker := serveWorker(ctx, t, srv, &Worker{Name: "w", CacheDir: t.TempDir(), Build: testBuild})
		finishProof(t, done, job, &progress)
		stopWorker()
		if out := progress.String(); !strings.Contains(out, "the disproof of the root from worker rogue is held until another worker confirms it") {
			t.Errorf("no note of the disproof held:\n%s", out)
		}
	}
}

// southCertificate returns a certificate of South's win at the game's
// position.
func southCertificate(t *testing.T, game *board.Game) []byte {
	t.Helper()
	s, err := dfpn.New(dfpn.Config{HashMiB: 16})
	if err != nil {
		t.Fatal(err)
	}
	oracle := func(q *board.Position) (board.Move, bool) {
		m, _, ok := s.WinningMove(context.Background(), q)
		return m, ok
	}
	var buf bytes.Buffer
	if _, err := cert.Write(context.Background(), &buf, game.Position(), board.South, oracle, cert.Options{History: game.History(), Format: cert.FormatCompact}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// storePiece puts data in the proof store and returns its name.
func storePiece(ctx context.Context, t *testing.T, c *Client, data []byte) string {
	t.Helper()
	name, err := putPiece(ctx, c.JS, data)
	if err != nil {
		t.Fatal(err)
	}
	return name
}

// TestSolveOtherBuild: a worker of another build refuses every task,
// naming both builds, and the proof stops with that reason once the root
// has failed too often.
func TestSolveOtherBuild(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	other := Build{Version: testBuild.Version, SHA256: strings.Repeat("1", 64)}
	defer serveWorker(ctx, t, srv, &Worker{Name: "other", CacheDir: t.TempDir(), Build: other})()
	var progress sowertest.SyncBuffer
	job := proofJobFor(t, t.TempDir(), proofGame(t, board.NameKatro4x4), board.South, 100, &progress)
	err := <-startProof(ctx, t, srv, job)
	want := "this worker is sower test (build 111111111111); the proof's leaves are searched by sower test (build 000000000000)"
	if err == nil || !strings.Contains(err.Error(), "the root failed 5 times") || !strings.Contains(err.Error(), want) {
		t.Fatalf("Prove: %v\n%s", err, progress.String())
	}
	if pn, dn := job.Tree.Root(); pn == 0 || dn == 0 {
		t.Errorf("the tree was settled by a worker of another build: pn %d dn %d", pn, dn)
	}
}

// TestSolvePreferredWorkerGone: the root's result comes from a worker
// that then is gone, so the root's children prefer it; the live worker
// hands each back once and then searches it, and the proof ends as the
// local one.
func TestSolvePreferredWorkerGone(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var progress sowertest.SyncBuffer
	job := proofJobFor(t, t.TempDir(), proofGame(t, board.NameKatro4x4), board.South, 100, &progress)
	done := startProof(ctx, t, srv, job)
	c := dial(t, srv)
	msg, task := takeTask(ctx, t, c, job.ID)
	// Open numbers after the whole leaf budget: the root is expanded next.
	p := &ProofResult{Round: task.Proof.Round, Path: task.Proof.Path, Position: task.Proof.Position, PN: 3, DN: 4, Nodes: 100}
	answerTask(ctx, t, c, msg, task, "gone", p)
	var workerOut sowertest.SyncBuffer
	defer serveWorker(ctx, t, srv, &Worker{Name: "live", CacheDir: t.TempDir(), Build: testBuild, Progress: &workerOut})()
	finishProof(t, done, job, &progress)
	out := workerOut.String()
	if !strings.Contains(out, "handed back once for worker gone") || !strings.Contains(out, "searched (slot 1)") {
		t.Errorf("the live worker did not hand back the tasks preferring the worker gone, then search them:\n%s", out)
	}
}

// TestSolveStalledSearch: a worker whose search hangs while its process
// lives stops telling the broker the task is in progress, so that after
// AckWait a live worker searches it, and the proof ends as the local one.
func TestSolveStalledSearch(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var progress sowertest.SyncBuffer
	job := proofJobFor(t, t.TempDir(), proofGame(t, board.NameKatro4x4), board.South, 100, &progress)
	done := startProof(ctx, t, srv, job)
	// The stalled worker takes the root's task, alone, and its one slot
	// hangs in it until the test ends.
	var stuckOut sowertest.SyncBuffer
	stuck := &Worker{Name: "stuck", CacheDir: t.TempDir(), Build: testBuild, Progress: &stuckOut}
	stuck.stall = func(ctx context.Context) { <-ctx.Done() }
	defer serveWorker(ctx, t, srv, stuck)()
	var liveOut sowertest.SyncBuffer
	for !strings.Contains(stuckOut.String(), "started") {
		select {
		case <-ctx.Done():
			t.Fatal("the worker that stalls took no task")
		case <-time.After(20 * time.Millisecond):
		}
	}
	defer serveWorker(ctx, t, srv, &Worker{Name: "live", CacheDir: t.TempDir(), Build: testBuild, Progress: &liveOut})()
	finishProof(t, done, job, &progress)
	if !strings.Contains(liveOut.String(), "proof task 0 (the root) of p searched") {
		t.Errorf("the live worker did not search the stalled root's task:\n%s", liveOut.String())
	}
	if !strings.Contains(stuckOut.String(), "the search has made no progress for") {
		t.Errorf("the stalled worker did not say its search stopped:\n%s", stuckOut.String())
	}
}

// TestSolveBrokerRestarted stops the broker once the root's result is in
// the tree and starts it again on the same address and store, while
// every search after the root's waits for it: the coordinator and the
// workers reconnect, and the proof ends as the local one with a
// certificate that verifies.
func TestSolveBrokerRestarted(t *testing.T) {
	o := ServerOptions{Listen: freeAddr(t), Dir: filepath.Join(t.TempDir(), "js")}
	srv, err := Serve(o)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	game := proofGame(t, board.NameKatro4x4)
	var progress sowertest.SyncBuffer
	job := proofJobFor(t, dir, game, board.South, 100, &progress)
	cc, err := Dial(ClientOptions{URL: srv.URL(), Log: &progress})
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	done := make(chan error, 1)
	go func() { done <- Prove(ctx, cc, job) }()
	// Every search after the first (the root's) waits until the broker
	// is back.
	var searches atomic.Int32
	back := make(chan struct{})
	wait := func(ctx context.Context) {
		if searches.Add(1) > 1 {
			select {
			case <-back:
			case <-ctx.Done():
			}
		}
	}
	var workersOut sowertest.SyncBuffer
	for _, name := range []string{"w1", "w2"} {
		w := &Worker{Name: name, CacheDir: t.TempDir(), Build: testBuild, stall: wait, Progress: &workersOut}
		defer serveWorker(ctx, t, srv, w)()
	}
	defer func() {
		if t.Failed() {
			t.Logf("the workers:\n%s", workersOut.String())
		}
	}()
	for {
		tr, ok, err := split.Open(job.File, game.Position(), game.History(), split.Options{Attacker: board.South})
		if err != nil {
			t.Fatal(err)
		}
		if ok && tr.Searched() > 0 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the proof ended before the broker was restarted: %v\n%s", err, progress.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	srv.Close()
	time.Sleep(300 * time.Millisecond)
	if srv, err = Serve(o); err != nil {
		t.Fatal(err)
	}
	close(back)
	finishProof(t, done, job, &progress)
	if job.Tree.Size() == 1 {
		t.Errorf("the tree was not expanded: the test checks too little")
	}
}

// TestSolveLatePieceDropped: a proven result for a leaf settled before
// it came is not entered, and its piece is removed from the proof store.
func TestSolveLatePieceDropped(t *testing.T) {
	_, c := readyBroker(t, t.TempDir())
	ctx := context.Background()
	game := proofGame(t, board.NameKatro4x4)
	var out sowertest.SyncBuffer
	job := proofJobFor(t, t.TempDir(), game, board.South, 100, &out)
	if err := job.Tree.Record(nil, dfpn.Bounds{PN: 0, DN: dfpn.Infinity}, 1); err != nil {
		t.Fatal(err)
	}
	j := &proofJob{ProofJob: &job, ctx: ctx, client: c, attacker: board.South, out: &out,
		failures: map[string]int{}, searchedBy: map[string]string{}, round: "r"}
	name := storePiece(ctx, t, c, southCertificate(t, game))
	r := &Result{Version: Version, Match: job.ID, Worker: "late", Proof: &ProofResult{
		Round: "r", Path: "", Position: game.Position().String(), PN: 0, DN: dfpn.Infinity, Nodes: 5, Piece: name}}
	if err := j.take(r, live); err != nil {
		t.Fatal(err)
	}
	if job.Tree.Searched() != 1 || out.String() != "" {
		t.Errorf("the late result was entered or refused: %d nodes in the tree; %q", job.Tree.Searched(), out.String())
	}
	obs, err := c.JS.ObjectStore(ctx, ProofBucket)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := obs.GetInfo(ctx, name); !errors.Is(err, jetstream.ErrObjectNotFound) {
		t.Errorf("the late result's piece is still in the proof store: %v", err)
	}
}

// TestSolvePreferencesKept: the root's result comes from worker "first",
// so its children's tasks prefer it; the coordinator is stopped and
// started again from its files, and the children's tasks it hands out
// still prefer "first". A damaged preferences file is set aside with a
// note, and the tasks prefer no one.
func TestSolvePreferencesKept(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	game := proofGame(t, board.NameKatro4x4)
	var progress sowertest.SyncBuffer
	job := proofJobFor(t, dir, game, board.South, 100, &progress)
	first, stop := context.WithCancel(ctx)
	done := startProof(first, t, srv, job)
	c := dial(t, srv)
	msg, task := takeTask(ctx, t, c, job.ID)
	p := &ProofResult{Round: task.Proof.Round, Path: task.Proof.Path, Position: task.Proof.Position, PN: 3, DN: 4, Nodes: 100}
	answerTask(ctx, t, c, msg, task, "first", p)
	// The root's children are handed out preferring "first".
	msg, task = takeTask(ctx, t, c, job.ID)
	_ = msg.Nak()
	if task.Proof.Path == "" || task.Proof.Prefer != "first" {
		t.Fatalf("before the restart: a task for %q preferring %q, want a child of the root preferring first", task.Proof.Path, task.Proof.Prefer)
	}
	stop()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the stopped coordinator: %v\n%s", err, progress.String())
	}

	restart := func(id string) *Task {
		again := proofJobFor(t, dir, game, board.South, 0, &progress)
		again.ID = id
		run, stop := context.WithCancel(ctx)
		done := startProof(run, t, srv, again)
		defer func() { stop(); <-done }()
		msg, task := takeTask(ctx, t, c, again.ID)
		_ = msg.Nak()
		return task
	}
	if task := restart("p2"); task.Proof.Path == "" || task.Proof.Prefer != "first" {
		t.Errorf("after the restart: a task for %q preferring %q, want a child of the root preferring first", task.Proof.Path, task.Proof.Prefer)
	}
	if err := os.WriteFile(filepath.Join(dir, "tree.split.workers"), []byte(`{"version": 1, "workers": {`), 0o644); err != nil {
		t.Fatal(err)
	}
	if task := restart("p3"); task.Proof.Prefer != "" {
		t.Errorf("with a damaged file: a task preferring %q", task.Proof.Prefer)
	}
	if out := progress.String(); !strings.Contains(out, "setting aside "+filepath.Join(dir, "tree.split.workers")) {
		t.Errorf("no note on the damaged file:\n%s", out)
	}
}
