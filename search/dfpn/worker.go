package dfpn

import (
	"time"

	"github.com/sower-engine/sower/board"
)

// worker is one thread of a search: its line, its stack of frames and its
// count of nodes. The main worker polls the context and reports progress;
// helpers only search, until the search halts.
type worker struct {
	*Solver
	helper  bool
	frames  []frame
	path    []uint64
	base    int
	onPath  pathFilter
	nodes   uint64 // nodes this thread searched in this search
	flushed uint64 // of them, added to the Solver's count
	stop    bool
	root    result
	// cache is the thread's estimate cache, for the variant cacheFor.
	cache    estimates
	cacheFor *board.Variant
}

// newWorker returns a worker of s (its frames come with its first search).
func newWorker(s *Solver, helper bool) worker {
	return worker{Solver: s, helper: helper}
}

// setup readies the worker for a search with the game's history.
func (w *worker) setup(history []uint64) {
	if w.frames == nil {
		w.frames = make([]frame, MaxDepth) // on the first search
	}
	if w.cacheFor != w.v && !w.noEstimates {
		w.cache.clear()
		w.cacheFor = w.v
	}
	w.stop = false
	w.nodes, w.flushed = 0, 0
	w.base = len(history)
	if cap(w.path) < w.base+MaxDepth {
		w.path = make([]uint64, w.base+MaxDepth)
	}
	w.path = w.path[:w.base+MaxDepth]
	copy(w.path, history)
	w.onPath = pathFilter{}
	for _, k := range history {
		w.onPath.add(k ^ w.salt)
	}
	for i := range w.base {
		w.path[i] ^= w.salt
	}
	w.root = result{pn: 1, dn: 1}
}

// run searches root until it is proven or disproven or the search stops,
// and returns its numbers.
func (w *worker) run(root board.Position) result {
	key := root.Key() ^ w.salt
	r := w.root
	for !w.stop {
		r = w.mid(&root, key, 0, maxPN, maxPN)
		w.root = r
		if r.pn == 0 || r.dn == 0 {
			if w.helper {
				w.finish(r)
			}
			break
		}
	}
	w.flush()
	return r
}

// flush adds the nodes searched since the last flush to the Solver's count.
func (w *worker) flush() {
	w.count.Add(w.nodes - w.flushed)
	w.flushed = w.nodes
}

// poll counts the nodes, checks for the search's end (the main thread: also
// cancellation and the node budget) and reports progress when it is due.
func (w *worker) poll() {
	w.flush()
	if w.halt.Load() {
		w.stop = true
	}
	if w.helper {
		return
	}
	if w.ctx.Err() != nil || (w.maxNodes > 0 && w.count.Load() >= w.maxNodes) {
		w.stop = true
		w.halt.Store(true)
	}
	if now := time.Now(); now.Sub(w.last) >= w.every {
		w.last = now
		w.progress()
	}
}

// repeated reports whether key occurs on the line to the node at ply (its
// ancestors and itself) or in the history, with the ply of the occurrence
// (-1 for the history).
func (w *worker) repeated(key uint64, ply int) (int32, bool) {
	if !w.onPath.has(key) {
		return 0, false
	}
	for i := w.base + ply; i >= 0; i-- {
		if w.path[i] == key {
			return int32(i - w.base), true
		}
	}
	return 0, false
}

// pathFilter counts the keys on the current line in 4096 cells, so that
// most positions are known to be off the line without a scan.
type pathFilter [4096]uint16

func (f *pathFilter) add(k uint64)      { f[k>>52]++ }
func (f *pathFilter) remove(k uint64)   { f[k>>52]-- }
func (f *pathFilter) has(k uint64) bool { return f[k>>52] != 0 }
