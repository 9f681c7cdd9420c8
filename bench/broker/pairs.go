package broker

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/sower-engine/sower/bench/record"
)

// pairBook is the book-keeping a match and a tournament share: their
// tasks (each a pair of games, numbered from 0), which are counted, which
// failed and why, and which are queued again after a worker refused a
// damaged engine object.
type pairBook struct {
	id       string // the run, as tasks name it
	n        int    // tasks
	done     map[int]bool
	failed   map[int]string    // tasks given up, with the reason
	objects  map[string]string // the engine programs here, by SHA-256
	requeued map[int]bool      // tasks queued again after a damaged object was replaced
	repairs  []int             // tasks whose object is to be replaced and that are to be queued again
	out      io.Writer
	// task returns task n as it is queued, and what names it in messages
	// ("Pair 3", "Pair 2 of pairing 1 (a vs b)").
	task func(n int) Task
	what func(n int) string
}

// newPairBook returns the book of n tasks, writing its messages to out.
func newPairBook(n int, out io.Writer) pairBook {
	if out == nil {
		out = io.Discard
	}
	return pairBook{n: n, done: map[int]bool{}, failed: map[int]string{}, objects: map[string]string{}, requeued: map[int]bool{}, out: out}
}

// tasks returns a task for every pair neither counted nor failed.
func (b *pairBook) tasks() []Task {
	var ts []Task
	for n := range b.n {
		if _, failed := b.failed[n]; !failed && !b.done[n] {
			ts = append(ts, b.task(n))
		}
	}
	return ts
}

// open returns the tasks neither counted nor failed, by number.
func (b *pairBook) open() []Task {
	var ts []Task
	for n := range b.n {
		if _, failed := b.failed[n]; !failed && !b.done[n] {
			ts = append(ts, Task{Version: Version, Match: b.id, Pair: n})
		}
	}
	return ts
}

// take counts one result with count, once: a result for a task out of
// range is refused, one for a task counted already skipped; one that
// check refuses makes the task failed. A task a worker refused for a
// damaged engine object is queued again once. restored says the result
// was written by an earlier run: nothing is said of it.
func (b *pairBook) take(r *Result, from origin, check func(*Result) error, count func(*Result) error) error {
	restored := from == restored
	if r.Pair >= b.n {
		if !restored {
			fmt.Fprintf(b.out, "refusing a result from worker %s for task %d of %d\n", r.Worker, r.Pair+1, b.n)
		}
		return nil
	}
	if b.done[r.Pair] {
		return nil
	}
	if r.Failed == "" {
		if err := check(r); err != nil {
			r.Failed = fmt.Sprintf("malformed result from worker %s: %v", r.Worker, err)
		}
	}
	if r.Failed != "" && r.Corrupt != "" && from == live && b.objects[r.Corrupt] != "" && !b.requeued[r.Pair] {
		fmt.Fprintf(b.out, "%s failed on worker %s: %s; replacing the object and queueing the pair again\n", b.what(r.Pair), r.Worker, r.Failed)
		b.requeued[r.Pair] = true
		b.repairs = append(b.repairs, r.Pair)
		return nil
	}
	if r.Failed != "" {
		if _, seen := b.failed[r.Pair]; !seen && !restored {
			fmt.Fprintf(b.out, "%s failed on worker %s: %s\n", b.what(r.Pair), r.Worker, r.Failed)
		}
		b.failed[r.Pair] = r.Failed
		return nil
	}
	delete(b.failed, r.Pair)
	b.done[r.Pair] = true
	return count(r)
}

// repair returns the engine programs to check and store again (path by
// SHA-256) and the tasks to queue again, once each: the pairs a worker
// refused because an engine object was damaged or missing.
func (b *pairBook) repair() (map[string]string, []Task) {
	var ts []Task
	for _, n := range b.repairs {
		if !b.done[n] {
			ts = append(ts, b.task(n))
		}
	}
	b.repairs = nil
	return b.objects, ts
}

// repairFailed gives up a pair whose object could not be replaced.
func (b *pairBook) repairFailed(n int, reason string) {
	if !b.done[n] {
		fmt.Fprintf(b.out, "%s failed: %s\n", b.what(n), reason)
		b.failed[n] = reason
	}
}

// finished reports whether every task is counted or given up.
func (b *pairBook) finished() bool { return len(b.done)+len(b.failed) >= b.n }

// queued returns the tasks neither counted, failed nor running.
func (b *pairBook) queued(running map[int]string) int {
	return max(b.n-len(b.done)-len(b.failed)-len(running), 0)
}

// failures returns the error that names the failed pairs, or nil.
func (b *pairBook) failures() error {
	if len(b.failed) == 0 {
		return nil
	}
	var ns []int
	for n := range b.failed {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	names := make([]string, len(ns))
	for i, n := range ns {
		names[i] = strconv.Itoa(n + 1)
	}
	return fmt.Errorf("%d of %d pairs failed (pairs %s; %s: %s)", len(b.failed), b.n, strings.Join(names, ", "), strings.ToLower(b.what(ns[0])[:1])+b.what(ns[0])[1:], b.failed[ns[0]])
}

// outputs are a run's outputs (its JSON and its PGN) as its tally writes
// them: a record an output holds already is not written to it again.
type outputs []*output

// output is one of the outputs.
type output struct {
	w    io.Writer
	held func(rec *record.GameRecord) bool // nil: the output holds nothing yet
	skip bool                              // the record being written is held
}

func (o *output) Write(p []byte) (int, error) {
	if o.skip {
		return len(p), nil
	}
	return o.w.Write(p)
}

// filter puts the outputs between json and pgn and their writers: json
// and pgn are left writing through them. written and pgnWritten say
// what each holds already.
func filter(json, pgn *io.Writer, written, pgnWritten func(rec *record.GameRecord) bool) outputs {
	var outs outputs
	for _, o := range []struct {
		w    *io.Writer
		held func(rec *record.GameRecord) bool
	}{{json, written}, {pgn, pgnWritten}} {
		if *o.w != nil {
			out := &output{w: *o.w, held: o.held}
			outs = append(outs, out)
			*o.w = out
		}
	}
	return outs
}

// held reports whether every output holds rec already, and sets up
// those that do to pass it over. A run without outputs holds nothing.
func (outs outputs) held(rec *record.GameRecord) bool {
	all := len(outs) > 0
	for _, o := range outs {
		o.skip = o.held != nil && o.held(rec)
		all = all && o.skip
	}
	return all
}
