package tables

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// maxAlternating is the most changes of a round that the check for a
// period of two keeps for the next round.
const maxAlternating = 1 << 22

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
	// recomputed; lists the most bytes a round's lists of changes and
	// of work held.
	changes, work, lists uint64
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
// mover's moves of a capture (the four plus the lower layer's value at a
// fresh clock, or the game-ending award), the double-pass end (term), or
// −V_{h−1} of a quiet child (or of the pass).
//
// Round h reads the values of round h−1 and looks only at the parents of
// the positions that changed in round h−1: a position none of whose
// children changed keeps its value. It keeps, for every position, the
// number of its moves that give it its value (its support; a capture
// counts as one that never changes), and gathers for each parent the
// changes of its children: the best new candidate among them, and how
// many of its supporting moves they leave or join. A parent whose best
// new candidate beats its value takes it; one whose support stays above
// zero keeps its value; only one that loses its last support makes its
// moves again (by sowing). The rounds stop at a fixed point (a round that
// changes nothing: every later round is the same), when a round brings
// back the values of the round two before (then they alternate forever),
// or at the limit. change, if not nil, receives each round's changes (the
// positions, in increasing order, and their new values).
func (b *builder) clock(ctx context.Context, limit int, change func(h int, xs []uint32, vs []int8) error) (clockRun, error) {
	t := b.total
	v := make([]int8, t)
	sup := make([]uint8, t)
	if err := b.parallel(ctx, "clock", func(x0, x1 uint64) {
		b.each(x0, x1, func(x uint64, _ int, c *cells) {
			v[x] = int8(c.rowSum(0) - c.rowSum(1))
		})
	}); err != nil {
		return clockRun{}, err
	}
	// Round 1: every position's moves, against the row margins.
	nv := make([]int8, t)
	if err := b.parallel(ctx, "clock", func(x0, x1 uint64) {
		for x := x0; x < x1; x++ {
			nv[x], sup[x] = b.value(uint32(x), v)
		}
	}); err != nil {
		return clockRun{}, err
	}
	run := clockRun{work: t}
	var changed, prevChanged, work []uint32
	var old, prevOld, vs, nvs []int8
	var nsup []uint8
	for x := range v {
		if nv[x] != v[x] {
			changed, old = append(changed, uint32(x)), append(old, v[x])
			v[x] = nv[x]
		}
	}
	nv = nil
	lastReport := time.Now()
	prevKept := false
	acc := make([]kidChanges, t)
	queued := make([]uint64, (t+63)/64) // bit set of the work list
	for h := 1; ; h++ {
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
		if h >= 2 && prevKept && alternates(changed, prevChanged, prevOld, v) {
			run.period = 2
			run.alt = make(map[uint32]int8, len(changed))
			for i, x := range changed {
				run.alt[x] = old[i]
			}
			break
		}
		if h == limit {
			break
		}
		if err := ctx.Err(); err != nil {
			return run, err
		}
		if h+1 > maxHorizon {
			return run, fmt.Errorf("layer %d still changes at horizon %d: more than the format records", b.seeds, h+1)
		}
		// Round h+1: the children's changes, gathered at their parents.
		work = b.gather(changed, old, v, acc, queued, work[:0])
		run.work += uint64(len(work))
		run.lists = max(run.lists, uint64(len(changed))*changeBytes+uint64(len(work))*workBytes)
		if cap(nvs) < len(work) {
			nvs, nsup = make([]int8, len(work)), make([]uint8, len(work))
		}
		nvs, nsup = nvs[:len(work)], nsup[:len(work)]
		b.forEach(len(work), func(i int) {
			x := work[i]
			nvs[i], nsup[i] = b.decide(x, v, sup[x], acc[x])
		})
		// The period of two is looked for only among rounds of few
		// changes (as it ends the rounds early, missing it costs only
		// rounds), so that the largest rounds are not held twice.
		prevKept = len(changed) <= maxAlternating
		if prevKept {
			prevChanged = append(prevChanged[:0], changed...)
			prevOld = append(prevOld[:0], old...)
		}
		changed, old = changed[:0], old[:0]
		for i, x := range work {
			sup[x] = nsup[i]
			if nvs[i] != v[x] {
				changed, old = append(changed, x), append(old, v[x])
				v[x] = nvs[i]
			}
		}
	}
	if run.period == 0 {
		run.period = 1
	}
	run.final = v
	return run, nil
}

// kidChanges gathers, for one parent, the changes of its children in the
// last round: the best new candidate (a changed child's new value, negated)
// and how many moves reach it (best is noCap before the first), and the
// change in the number of moves that give the parent its value.
type kidChanges struct {
	best  int8
	bestN uint8
	delta int8 // moves that now give the value, less those that no longer do
}

// gather collects the changes of the positions xs (their values before in
// old, after in v) at their parents, and returns the parents (appended to
// work, each once, in increasing order). A parent listed twice for a child
// (two moves to it) counts twice, as it does in its support.
func (b *builder) gather(xs []uint32, old, v []int8, acc []kidChanges, queued []uint64, work []uint32) []uint32 {
	for i, c := range xs {
		was, now := -old[i], -v[c]
		for _, p := range b.par[b.off[c]:b.off[c+1]] {
			w, bit := p/64, uint64(1)<<(p%64)
			a := &acc[p]
			if queued[w]&bit == 0 {
				queued[w] |= bit
				work = append(work, p)
				*a = kidChanges{best: noCap}
			}
			switch {
			case now > a.best:
				a.best, a.bestN = now, 1
			case now == a.best:
				a.bestN++
			}
			if was == v[p] {
				a.delta--
			}
			if now == v[p] {
				a.delta++
			}
		}
	}
	for _, p := range work {
		queued[p/64] = 0
	}
	slices.Sort(work)
	return work
}

// decide returns the new value and support of x from its value v[x], its
// support s and its children's changes a; it makes x's moves again only
// when x's value lost every move that gave it.
func (b *builder) decide(x uint32, v []int8, s uint8, a kidChanges) (int8, uint8) {
	if a.best > v[x] {
		return a.best, a.bestN
	}
	if n := int(s) + int(a.delta); n > 0 {
		return v[x], uint8(n)
	}
	return b.value(x, v)
}

// alternates reports whether this round brought back the values of the
// round two before: the same positions changed in both rounds, and each
// now has (in v) the value it had before the last round (prevOld). A
// position that changed only in this round differs from two rounds ago;
// one that changed only in the last round differs too. Both lists are in
// increasing order.
func alternates(changed, prevChanged []uint32, prevOld []int8, v []int8) bool {
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

// value returns V_h(x) from the children's values v at h−1, and its
// support: the moves that reach it (a capture that does counts once, and
// so does the double-pass end; neither ever changes).
func (b *builder) value(x uint32, v []int8) (int8, uint8) {
	if t := b.term[x]; t != noCap {
		return t, 1
	}
	var e expansion
	half := int(uint64(x) / b.n)
	c := unrank(uint64(x)-uint64(half)*b.n, b.seeds)
	b.expand(half, &c, &e)
	best := e.capV
	for _, k := range e.kids[:e.nk] {
		best = max(best, -v[k])
	}
	var n uint8
	if e.capV == best {
		n++
	}
	for _, k := range e.kids[:e.nk] {
		if -v[k] == best {
			n++
		}
	}
	return best, n
}
