package search

import (
	"context"
	"fmt"
	"sync"
)

// Threads: Lazy SMP. With n threads the calling goroutine runs the main
// search and n-1 helper goroutines search the same root at the same time,
// sharing nothing but the transposition table, whose entries they read and
// write without locks (see type entry). The helpers skip some depths, by
// a pattern that differs between helpers (Stockfish's), so that the
// threads are spread over several depths at once and fill the table with
// results the main search then finds. The helpers report nothing and are
// stopped when the main search ends; the best move, the score and the
// reports are the main search's, and the node counts are all the threads'.
// With one thread nothing of this runs: the search is deterministic.

// Thread counts.
const (
	MinThreads     = 1
	MaxThreads     = 256
	DefaultThreads = 1
)

// SetThreads sets the number of threads of the next searches. It must not
// be called during a search.
func (e *Engine) SetThreads(n int) error {
	if n < MinThreads || n > MaxThreads {
		return fmt.Errorf("threads %d: want %d to %d", n, MinThreads, MaxThreads)
	}
	e.threads = n
	return nil
}

// Threads returns the number of threads searches use.
func (e *Engine) Threads() int { return max(e.threads, MinThreads) }

// team returns n helpers for the next search, allocating any missing.
func (e *Engine) team(n int) []*searcher {
	for len(e.helpers) < n {
		e.helpers = append(e.helpers, &searcher{helper: true})
	}
	return e.helpers[:max(n, 0)]
}

// startHelpers starts n helpers on the main search's root under ctx and
// returns a function that stops them and waits until they have.
func (e *Engine) startHelpers(ctx context.Context, main *searcher, lim Limits, n int) (stop func()) {
	team := e.team(n)
	main.team = team
	if len(team) == 0 {
		return func() {}
	}
	hctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i, h := range team {
		h.reset(hctx, main.tt, &main.root, main.keys, Limits{SearchMoves: lim.SearchMoves}, Callbacks{})
		h.currMovePeriod = main.currMovePeriod
		h.useTables(main.tb, main.tbEstimate)
		_ = h.useNet(main.net.network(), main.net.lazy) // the main search's network fits its board
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			h.runHelper(id)
		}(i + 1)
	}
	return func() {
		cancel()
		wg.Wait()
	}
}

// skipDepth reports whether helper id (from 1) skips depth, by
// Stockfish's pattern: when (depth + skipPhase[j]) / skipSize[j] is odd,
// j = (id-1) mod 20.
func skipDepth(id, depth int) bool {
	skipSize := [20]int{1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4}
	skipPhase := [20]int{0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7}
	j := (id - 1) % 20
	return (depth+skipPhase[j])/skipSize[j]%2 != 0
}

// runHelper is a helper's iterative deepening: the main loop without
// limits, reports or proofs, until it is stopped or reaches MaxPly.
func (s *searcher) runHelper(id int) {
	defer func() { s.published.Store(s.nodes); s.publishedTB.Store(s.tbHits) }()
	if s.root.Status(s.keys).Over() {
		return
	}
	s.genRoot()
	s.multiPV, s.pvIdx = 1, 0
	var prev Score
	for depth := 1; depth < MaxPly; depth++ {
		if skipDepth(id, depth) {
			continue
		}
		s.depthCut = false
		score := s.aspiration(depth, prev)
		if s.stopped {
			return
		}
		prev, s.iterated = score, true
	}
}

// totalTBHits returns the table hits of the main search and, as far as
// they have published them, of its helpers.
func (s *searcher) totalTBHits() uint64 {
	n := s.tbHits
	for _, h := range s.team {
		n += h.publishedTB.Load()
	}
	return n
}

// totalNodes returns the nodes of the main search and, as far as they
// have published them, of its helpers.
func (s *searcher) totalNodes() uint64 {
	n := s.nodes
	for _, h := range s.team {
		n += h.published.Load()
	}
	return n
}
