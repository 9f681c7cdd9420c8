package tables

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// maxHorizon is the largest horizon a change can be recorded at (one
// byte). Every layer measured settles long before it (at most about 100
// plies), so a build that needs more stops with an error.
const maxHorizon = 255

// clockRun is the result of the clock rounds of one layer (see
// builder.clock).
type clockRun struct {
	// last is the last horizon computed; period is 1 when the values
	// are the same at every horizon from last on (a fixed point, or the
	// limit was reached), 2 when they alternate from last−1 on with the
	// parity of the horizon (V_h = V_{h−2} for h > last).
	last, period int
	// final holds every position's value at horizon last.
	final []int8
	// alt holds, for the positions whose value alternates (period 2),
	// the value at horizon last−1.
	alt map[uint32]int8
	// changes counts the changes over all rounds; work the positions
	// recomputed.
	changes, work uint64
}

// valueAt returns x's value at horizon h ≥ last−1 from the run.
func (r *clockRun) valueAt(x uint32, h int) int8 {
	if r.period == 2 && (h-r.last)%2 != 0 {
		if v, ok := r.alt[x]; ok {
			return v
		}
	}
	return r.final[x]
}

// clock computes the exact values under Repetition off, V_h for h = 0,
// 1, … limit plies left before the no-capture limit ends the game: V_0 is
// the row margin (each side adds its own row), and V_h the best over the
// mover's moves of a capture (capV: the four plus the lower layer's value
// at a fresh clock, or the game-ending award), the double-pass end (term),
// or −V_{h−1} of a quiet child (or of the pass). Round h reads the values
// of round h−1 and recomputes (by sowing) only the parents of the
// positions that changed in round h−1: a position none of whose children
// changed keeps its value. The rounds stop at a fixed point (a round that
// changes nothing: every later round is the same), when a round brings
// back the values of the round two before (then they alternate forever),
// or at the limit. change, if not nil, receives each round's changes (the
// positions, in increasing order, and their new values).
func (b *builder) clock(ctx context.Context, limit int, change func(h int, xs []uint32, vs []int8) error) (clockRun, error) {
	t := b.total
	v := make([]int8, t)
	if err := b.parallel(ctx, "clock", func(x0, x1 uint64) {
		b.each(x0, x1, func(x uint64, _ int, c *cells) {
			v[x] = int8(c.rowSum(0) - c.rowSum(1))
		})
	}); err != nil {
		return clockRun{}, err
	}
	run := clockRun{}
	lastReport := time.Now()
	queued := make([]uint64, (t+63)/64) // bit set of the next work list
	var work, changed, prevChanged []uint32
	var nv, old, prevOld, vs []int8
	for h := 1; h <= limit; h++ {
		if err := ctx.Err(); err != nil {
			return run, err
		}
		if h > maxHorizon {
			return run, fmt.Errorf("layer %d still changes at horizon %d: more than the format records", b.seeds, h)
		}
		n := len(work)
		if h == 1 {
			n = int(t) // every position
		}
		run.work += uint64(n)
		if cap(nv) < n {
			nv = make([]int8, n)
		}
		nv = nv[:n]
		at := func(i int) uint32 {
			if h == 1 {
				return uint32(i)
			}
			return work[i]
		}
		b.forEach(n, func(i int) { nv[i] = b.value(at(i), v) })
		changed, old = changed[:0], old[:0]
		for i := 0; i < n; i++ {
			if x := at(i); nv[i] != v[x] {
				changed, old = append(changed, x), append(old, v[x])
				v[x] = nv[i]
			}
		}
		if change != nil {
			vs = vs[:0]
			for _, x := range changed {
				vs = append(vs, v[x])
			}
			if err := change(h, changed, vs); err != nil {
				return run, err
			}
		}
		run.changes += uint64(len(changed))
		run.last = h
		if time.Since(lastReport) >= time.Second {
			lastReport = time.Now()
			b.report("clock rounds", uint64(h), uint64(len(changed)))
		}
		if len(changed) == 0 {
			break
		}
		if h >= 2 && alternates(changed, old, prevChanged, prevOld, v) {
			run.period = 2
			run.alt = make(map[uint32]int8, len(changed))
			for i, x := range changed {
				run.alt[x] = old[i]
			}
			break
		}
		work = b.parentsOf(changed, work[:0], queued)
		prevChanged = append(prevChanged[:0], changed...)
		prevOld = append(prevOld[:0], old...)
	}
	if run.period == 0 {
		run.period = 1
	}
	run.final = v
	return run, nil
}

// parentsOf appends the parents of the positions xs to work, each once
// and in increasing order (which keeps the next round's reads close
// together), using queued (all clear, and left so) as a bit set.
func (b *builder) parentsOf(xs []uint32, work []uint32, queued []uint64) []uint32 {
	for _, c := range xs {
		for _, p := range b.par[b.off[c]:b.off[c+1]] {
			w, bit := p/64, uint64(1)<<(p%64)
			if queued[w]&bit == 0 {
				queued[w] |= bit
				work = append(work, p)
			}
		}
	}
	for _, p := range work {
		queued[p/64] = 0
	}
	slices.Sort(work)
	return work
}

// alternates reports whether this round brought back the values of the
// round two before: the same positions changed in both rounds, and each
// now has the value it had before the last round. (A position that changed
// only in this round differs from two rounds ago; one that changed only in
// the last round differs too.) Both lists are in increasing order.
func alternates(changed []uint32, old []int8, prevChanged []uint32, prevOld []int8, v []int8) bool {
	if len(changed) != len(prevChanged) {
		return false
	}
	for i, x := range changed {
		if prevChanged[i] != x || prevOld[i] != v[x] {
			return false
		}
	}
	return true
}

// value returns V_h(x) from the children's values v at h−1.
func (b *builder) value(x uint32, v []int8) int8 {
	if t := b.term[x]; t != noCap {
		return t
	}
	var e expansion
	half := int(uint64(x) / b.n)
	c := unrank(uint64(x)-uint64(half)*b.n, b.seeds)
	b.expand(half, &c, &e)
	best := e.capV
	for _, k := range e.kids[:e.nk] {
		best = max(best, -v[k])
	}
	return best
}
