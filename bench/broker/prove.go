package broker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
	"github.com/sower-engine/sower/search/dfpn/split"
)

// ProofJob is a proof whose tree (package search/dfpn/split) stays with
// the coordinator while its leaves are searched by the workers.
type ProofJob struct {
	// Tree is the proof's tree (split.Open), written to File after every
	// result taken, so that the same command resumes from there.
	Tree *split.Tree
	File string
	// Game is the game whose position is the tree's root.
	Game *board.Game
	// Pieces is the directory that keeps the certificate pieces of the
	// leaves proven, checked (default File + ".pieces"); Proof, if set,
	// is the certificate file written from them when the root is proven.
	Pieces string
	Proof  string
	// ID names the run on the broker (empty: derived from the question).
	ID string
	// HashMiB is each worker slot's df-pn table (at least 1).
	HashMiB int
	// Tasks is the most leaves out at once (0: DefaultProofTasks).
	Tasks int
	// AckWait and MaxDeliver are as for a match (0: the defaults);
	// ProgressEvery is the time between progress lines (0: ten seconds).
	AckWait       time.Duration
	MaxDeliver    int
	ProgressEvery time.Duration
	// Progress gets the progress lines and the notes on results refused.
	Progress io.Writer
	// Build is the coordinator's program (ThisBuild): only workers of
	// that build search the leaves.
	Build Build
	// TrustDisproofs enters a leaf's disproof as soon as one worker
	// reports it. Otherwise a disproof is held back, and the leaf handed
	// out again preferring another worker, until a second worker reports
	// it too; it enters unconfirmed when the worker that reported it is
	// the only one connected, or when it has been held for AckWait and
	// no other worker took the leaf meanwhile. (A worker's proof is
	// checked by its certificate; its disproof has none.)
	TrustDisproofs bool
	// Abandon withdraws the run's tasks still queued when ctx ends, as
	// at the proof's end, for a run that will not be resumed; otherwise
	// they stay queued for the next run of the same proof.
	Abandon bool
}

// DefaultProofTasks is the default number of leaves out at once.
const DefaultProofTasks = 4

// maxLeafFailures is how often a leaf may fail, or have its result
// refused, before the run stops with the reason.
const maxLeafFailures = 5

// proofJob is a proof as a coordinator's job. Its tasks are the leaves
// out: each coordinator start is a new round of task numbers, and a
// result of an earlier round is taken by its path.
type proofJob struct {
	*ProofJob
	ctx      context.Context // the run's, for the pieces' fetching and checking
	client   *Client
	setup    ProofSetup
	attacker board.Side
	out      io.Writer
	round    string
	next     int               // the round's next task number
	tasksOut map[int]*leafTask // this round's tasks waited for, by number
	byPath   map[string]int    // their numbers by path
	failures map[string]int    // failures and refusals by path
	// searchedBy names, by path, the worker whose result for the leaf
	// was entered last: the worker its children's tasks prefer. It is
	// kept in File + prefsExt (proofprefs.go).
	searchedBy map[string]string
	// held is, by path, a leaf's disproof held back (TrustDisproofs).
	held map[string]*heldDisproof
	// names are the workers connected, as looked up at namesAt
	// (connected).
	names    []string
	namesAt  time.Time
	err      error // what stopped the run
	started  time.Time
	searched uint64 // the tree's nodes when the run started
}

// heldDisproof is a leaf's disproof waiting for another worker's: the
// workers that reported it and when the first did.
type heldDisproof struct {
	by    map[string]bool
	since time.Time
}

// leafTask is a task out and when it was queued.
type leafTask struct {
	task  Task
	since time.Time
}

// Prove runs the proof on the broker's workers until the tree's root is
// settled, and then writes the certificate (Proof) when it is proven.
// Run again after an interruption it goes on from the tree file, queueing
// the leaves afresh. Every result is checked before it enters the tree:
// it must name a leaf of the tree and its position, and a leaf proven must
// come with a certificate piece, fetched from the proof store, that
// proves it by the rules (board/cert). A result refused hands its leaf
// out again.
func Prove(ctx context.Context, c *Client, job ProofJob) error {
	if err := job.Build.check(); err != nil {
		return err
	}
	if job.Tree == nil || job.Game == nil || job.File == "" {
		return errors.New("a proof needs its tree, its tree file and its game")
	}
	if job.HashMiB < 1 {
		return fmt.Errorf("a proof's table of %d MiB: want at least 1", job.HashMiB)
	}
	j := &proofJob{ProofJob: &job, ctx: ctx, client: c, attacker: job.Tree.Attacker(), out: job.Progress,
		failures: map[string]int{}, searchedBy: map[string]string{}, held: map[string]*heldDisproof{},
		started: time.Now(), searched: job.Tree.Searched()}
	if j.out == nil {
		j.out = io.Discard
	}
	if j.Tasks <= 0 {
		j.Tasks = DefaultProofTasks
	}
	if j.Pieces == "" {
		j.Pieces = j.File + ".pieces"
	}
	j.loadPrefs()
	j.setup = NewProofSetup(job.Game, j.attacker)
	if j.ID == "" {
		j.ID = "proof-" + idOf(&j.setup)
	}
	co := &coordinator{c: c, id: j.ID, job: j, ackWait: job.AckWait, maxDeliver: job.MaxDeliver,
		every: job.ProgressEvery, out: j.out, requeue: true, abandon: job.Abandon}
	if err := co.start(ctx, &j.setup); err != nil {
		return err
	}
	return co.run(ctx)
}

// RunID returns the id Prove gives the proof of attacker's win at the end
// of game when none is given.
func RunID(game *board.Game, attacker board.Side) string {
	s := NewProofSetup(game, attacker)
	return "proof-" + idOf(&s)
}

func (j *proofJob) kind() string { return "proof" }

// tasks starts a new round: the tasks of earlier rounds are withdrawn,
// and their results, if they come, are taken by their leaf's path.
func (j *proofJob) tasks() []Task {
	j.round = strconv.FormatInt(time.Now().UnixNano(), 36)
	j.next = 0
	j.tasksOut, j.byPath = map[int]*leafTask{}, map[string]int{}
	return j.more()
}

// more hands out the most-proving leaves not out, up to Tasks out.
func (j *proofJob) more() []Task {
	var ts []Task
	isOut := func(k string) bool { _, ok := j.byPath[k]; return ok }
	for len(j.tasksOut) < j.Tasks && !j.over() {
		leaf, ok := j.Tree.Next(isOut)
		if !ok {
			break
		}
		path := split.PathKey(leaf.Path)
		t := Task{Version: Version, Match: j.ID, Pair: j.next, Proof: &ProofTask{
			ProofSetup: j.setup, Sower: j.Build.Version, Build: j.Build.SHA256, HashMiB: j.HashMiB,
			Round: j.round, Path: path, Position: leaf.Pos.String(), Budget: leaf.Budget, Prefer: j.preferred(leaf.Path),
		}}
		if h := j.held[path]; h != nil {
			t.Proof.Prefer = j.confirmer(h)
		}
		j.next++
		j.tasksOut[t.Pair] = &leafTask{task: t, since: time.Now()}
		j.byPath[path] = t.Pair
		ts = append(ts, t)
	}
	return ts
}

// preferred returns the worker whose table most likely holds the work
// on the leaf at path: the one that searched it last, or else its
// parent; "" when none is known (no run of the proof entered either).
func (j *proofJob) preferred(path []board.Move) string {
	if w, ok := j.searchedBy[split.PathKey(path)]; ok {
		return w
	}
	if len(path) == 0 {
		return ""
	}
	return j.searchedBy[split.PathKey(path[:len(path)-1])]
}

// release forgets task n of this round: its leaf may be handed out again.
func (j *proofJob) release(n int) {
	if lt, ok := j.tasksOut[n]; ok {
		delete(j.byPath, lt.task.Proof.Path)
		delete(j.tasksOut, n)
	}
}

// mine returns the number of this round's task that r answers, or -1.
func (j *proofJob) mine(r *Result) int {
	if lt, ok := j.tasksOut[r.Pair]; ok && r.Proof.Round == j.round && r.Proof.Path == lt.task.Proof.Path {
		return r.Pair
	}
	return -1
}

// take checks a result and enters it in the tree, which is then written
// to its file; a result refused is noted and its leaf handed out again.
// Only a failure to write the tree or a piece is returned.
func (j *proofJob) take(r *Result, from origin) error {
	if r.Proof == nil {
		fmt.Fprintf(j.out, "refusing a result from worker %s: not the answer to a proof task\n", r.Worker)
		return nil
	}
	n := j.mine(r)
	if n >= 0 {
		j.release(n)
	}
	leaf := leafName(r.Proof.Path)
	if r.Failed != "" {
		if n >= 0 {
			j.fault(r.Proof.Path, fmt.Sprintf("proof task %d (%s) failed on worker %s: %s", n, leaf, r.Worker, r.Failed))
		}
		return nil
	}
	err := j.enter(r.Proof, r.Worker)
	var keep *keepError
	var held *heldError
	switch {
	case errors.As(err, &held):
		if held.note != "" {
			fmt.Fprintln(j.out, held.note)
		}
		return nil
	case err == nil:
		if j.searchedBy[r.Proof.Path] != r.Worker {
			j.searchedBy[r.Proof.Path] = r.Worker
			if err := j.savePrefs(); err != nil {
				fmt.Fprintf(j.out, "the workers' preferences are not kept (a restarted coordinator hands leaves to any worker): %v\n", err)
			}
		}
		return nil
	case errors.As(err, &keep):
		return keep.err
	case errors.Is(err, split.ErrNotOpen):
		return nil // settled or expanded meanwhile: nothing to learn
	}
	j.fault(r.Proof.Path, fmt.Sprintf("refusing the result for %s from worker %s: %v", leaf, r.Worker, err))
	return nil
}

// fault notes a leaf's failure or refused result; a leaf that fails too
// often stops the run.
func (j *proofJob) fault(path, note string) {
	j.failures[path]++
	if k := j.failures[path]; k >= maxLeafFailures {
		j.err = fmt.Errorf("%s failed %d times; the last time: %s", leafName(path), k, note)
		return
	}
	fmt.Fprintf(j.out, "%s; the leaf is handed out again\n", note)
}

// keepError is a failure to keep a result checked (the tree file or a
// piece cannot be written): it stops the run.
type keepError struct{ err error }

func (e *keepError) Error() string { return e.err.Error() }

// heldError is a disproof held back until another worker reports it
// (ProofJob.TrustDisproofs): not a fault of the worker. Its note, if any,
// is for the progress lines.
type heldError struct{ note string }

func (e *heldError) Error() string { return "a disproof held back" }

// enter checks a result of worker's against the tree and enters it: the
// path must lead to a leaf of the tree, at the position the result
// names; a proven leaf's piece is fetched and checked, and kept, before
// the tree is changed and written; a disproof may be held back
// (holdDisproof).
func (j *proofJob) enter(pr *ProofResult, worker string) error {
	root := j.Game.Position()
	var path []board.Move
	if pr.Path != "" {
		var err error
		if path, err = root.Variant().ParseMoves(pr.Path); err != nil {
			return fmt.Errorf("path %q: %v", pr.Path, err)
		}
	}
	pos, history, ok := j.Tree.Position(path)
	if !ok {
		return fmt.Errorf("path %q: not a position of the tree", pr.Path)
	}
	if pr.Position != pos.String() {
		return fmt.Errorf("it names the position %q, but the leaf is %s", pr.Position, pos.String())
	}
	b := dfpn.Bounds{PN: pr.PN, DN: pr.DN, Plies: pr.Plies, OnPath: pr.OnPath}
	if pr.PN != 0 && pr.DN == 0 && !j.TrustDisproofs {
		if !j.Tree.IsOpenLeaf(path) {
			return split.ErrNotOpen
		}
		if err := j.holdDisproof(pr.Path, worker); err != nil {
			return err
		}
	}
	if pr.PN == 0 {
		if !j.Tree.IsOpenLeaf(path) {
			j.dropPiece(pr.Piece) // not needed: the leaf is settled or expanded
			return split.ErrNotOpen
		}
		data, err := j.fetchPiece(pr.Piece, pos, history)
		if err != nil {
			return err
		}
		if err := j.keepPiece(pr.Piece, data); err != nil {
			return &keepError{err}
		}
	}
	if err := j.Tree.Record(path, b, pr.Nodes); err != nil {
		return err
	}
	if err := j.Tree.SaveFile(j.File); err != nil {
		return &keepError{fmt.Errorf("writing the tree: %w", err)}
	}
	if h := j.held[pr.Path]; h != nil && (pr.PN == 0 || pr.DN == 0) {
		if pr.PN == 0 {
			fmt.Fprintf(j.out, "the disproof of %s from %s was false: worker %s proved it, and its certificate holds\n", leafName(pr.Path), workerList(h.by), worker)
		}
		delete(j.held, pr.Path)
	}
	if pr.PN == 0 {
		j.dropPiece(pr.Piece)
	}
	return nil
}

// holdDisproof counts worker's disproof of the leaf at path and returns a
// *heldError while the disproof is to be held back (TrustDisproofs): it
// enters once two workers have reported it, or unconfirmed (noted) when
// its worker is the only one connected, or when it has been held for
// AckWait and reported again by the same worker (no other took the
// leaf).
func (j *proofJob) holdDisproof(path, worker string) error {
	h := j.held[path]
	if h == nil {
		h = &heldDisproof{by: map[string]bool{}, since: time.Now()}
		j.held[path] = h
	}
	again := h.by[worker]
	h.by[worker] = true
	if len(h.by) >= 2 {
		return nil
	}
	// Looked up afresh: a worker connected since the last lookup may
	// confirm the disproof.
	names := j.client.workerNames(j.ctx)
	j.names, j.namesAt = names, time.Now()
	switch {
	case len(names) == 1 && names[0] == worker:
		fmt.Fprintf(j.out, "the disproof of %s from worker %s enters unconfirmed: no other worker is connected\n", leafName(path), worker)
		return nil
	case again && time.Since(h.since) >= j.holdFor():
		fmt.Fprintf(j.out, "the disproof of %s from worker %s enters unconfirmed: no other worker took the leaf in %s\n", leafName(path), worker, j.holdFor())
		return nil
	case again:
		return &heldError{}
	}
	return &heldError{fmt.Sprintf("the disproof of %s from worker %s is held until another worker confirms it; the leaf is handed out again", leafName(path), worker)}
}

// holdFor is how long a disproof is held for another worker's.
func (j *proofJob) holdFor() time.Duration {
	if j.AckWait > 0 {
		return j.AckWait
	}
	return DefaultAckWait
}

// confirmer returns the worker a held disproof's leaf prefers: the first
// worker connected that has not reported it ("" if none).
func (j *proofJob) confirmer(h *heldDisproof) string {
	for _, w := range j.connected() {
		if !h.by[w] {
			return w
		}
	}
	return ""
}

// namesFresh is how long connected reuses its lookup of the workers.
const namesFresh = time.Second

// connected returns the names of the workers connected, looked up in the
// broker's store at most once in namesFresh: a round may hand out many
// held leaves, each asking which worker it prefers.
func (j *proofJob) connected() []string {
	if j.namesAt.IsZero() || time.Since(j.namesAt) >= namesFresh {
		j.names, j.namesAt = j.client.workerNames(j.ctx), time.Now()
	}
	return j.names
}

// workerList names the workers of a set, sorted.
func workerList(by map[string]bool) string {
	names := make([]string, 0, len(by))
	for w := range by {
		names = append(names, w)
	}
	sort.Strings(names)
	if len(names) == 1 {
		return "worker " + names[0]
	}
	return "workers " + strings.Join(names, ", ")
}

// open returns this round's tasks waited for.
func (j *proofJob) open() []Task {
	ts := make([]Task, 0, len(j.tasksOut))
	for _, lt := range j.tasksOut {
		ts = append(ts, lt.task)
	}
	return ts
}

// over reports whether the root is settled or the run stopped.
func (j *proofJob) over() bool { return j.err != nil || j.Tree.Settled() }

// line describes the tree and what each worker is proving.
func (j *proofJob) line(workers int, running map[int]string) string {
	pn, dn := j.Tree.Root()
	nodes := j.Tree.Searched()
	rate := float64(nodes-j.searched) / max(time.Since(j.started).Seconds(), 1e-3)
	var b strings.Builder
	fmt.Fprintf(&b, "Proof %s: root pn %s dn %s; %d positions, %d open leaves; %d nodes searched (%.0f nodes/s this run); %d workers, %d leaves out",
		j.ID, number(pn), number(dn), j.Tree.Size(), j.Tree.OpenLeaves(), nodes, rate, workers, len(j.tasksOut))
	ns := make([]int, 0, len(j.tasksOut))
	for n := range j.tasksOut {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	for _, n := range ns {
		lt := j.tasksOut[n]
		who := "queued"
		if w, ok := running[n]; ok {
			who = "worker " + w
		}
		fmt.Fprintf(&b, "\n  %s: %s within %d nodes, out %s", who, leafName(lt.task.Proof.Path), lt.task.Proof.Budget, time.Since(lt.since).Round(time.Second))
	}
	return b.String()
}

// number writes a proof or disproof number.
func number(n uint32) string {
	if n >= dfpn.Infinity {
		return "inf"
	}
	return strconv.FormatUint(uint64(n), 10)
}

func (j *proofJob) resumed(uint64) string { return "" }

// end returns what stopped the run, or writes the certificate of a root
// proven when Proof is set.
func (j *proofJob) end() error {
	if j.err != nil {
		return j.err
	}
	if pn, _ := j.Tree.Root(); pn != 0 || j.Proof == "" {
		return nil
	}
	return j.writeProof()
}
