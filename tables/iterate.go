package tables

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// maxRounds is the most rounds a distance byte can count.
const maxRounds = 255

// iterate computes the bounds by rounds of value iteration that touch only
// the positions whose children changed (see the package comment). Round k
// computes, for every position, the bounds of the game cut off after k
// plies (the cut-off being the worst outcome for whoever forces), from
// those of round k-1: lo_k(x) = max(capture lo, max over quiet kids of
// -hi_{k-1}(kid)) and hi_k(x) = max(capture hi, max over kids of
// -lo_{k-1}(kid)). lo only rises and hi only falls; a position's distance
// is the last round that changed its bound.
//
// A fall of a kid's hi raises its parent's lo directly (lo(parent) is at
// least -hi(kid)). A rise of lo(kid) lowers hi(parent) only when the kid
// was one of the moves that gave hi(parent) its value: cnt counts those,
// and the parent's moves are made again (by sowing) when the count reaches
// zero.
func (b *builder) iterate(ctx context.Context) (int, error) {
	t, n := b.total, int8(b.seeds)
	b.phase = time.Now()
	b.lo, b.hi = make([]int8, t), make([]int8, t)
	b.dlo, b.dhi = make([]uint8, t), make([]uint8, t)
	var clX []uint32 // positions whose lo changed in the last round
	var clOld []int8 // ... and their lo before it
	var ch []uint32  // positions whose hi changed in the last round
	// Round 1: captures, and the positions whose every move captures.
	for x := uint64(0); x < t; x++ {
		b.lo[x], b.hi[x] = -n, n
		if c := b.capLo[x]; c != noCap && c > -n {
			b.lo[x], b.dlo[x] = c, 1
			clX, clOld = append(clX, uint32(x)), append(clOld, -n)
		}
		if b.cnt[x] == 0 && b.capHi[x] != noCap && b.capHi[x] < n {
			b.hi[x], b.dhi[x] = b.capHi[x], 1
			ch = append(ch, uint32(x))
		}
	}
	b.report("rounds", 1, uint64(len(clX)+len(ch)))
	var nclX []uint32
	var nclOld []int8
	var nch, recompute []uint32
	type hiUpdate struct {
		x   uint32
		hi  int8
		cnt uint8
	}
	var ups []hiUpdate
	round := 1
	lastReport := time.Now()
	for k := 2; ; k++ {
		if err := ctx.Err(); err != nil {
			return round, err
		}
		if k > maxRounds {
			return round, fmt.Errorf("layer %d needs more than %d rounds: distances do not fit the format", b.seeds, maxRounds)
		}
		nclX, nclOld, nch, recompute, ups = nclX[:0], nclOld[:0], nch[:0], recompute[:0], ups[:0]
		// A: kids whose lo rose take their support from their parents' hi.
		for i, c := range clX {
			old := -clOld[i]
			for _, p := range b.par[b.off[c]:b.off[c+1]] {
				if b.hi[p] == old {
					if b.cnt[p]--; b.cnt[p] == 0 {
						recompute = append(recompute, p)
					}
				}
			}
		}
		// The parents that lost their last support make their moves again,
		// reading the kids' lo of round k-1.
		if cap(ups) < len(recompute) {
			ups = make([]hiUpdate, len(recompute))
		}
		ups = ups[:len(recompute)]
		b.forEach(len(recompute), func(i int) {
			var e expansion
			x := recompute[i]
			half := int(uint64(x) / b.n)
			c := unrank(uint64(x)-uint64(half)*b.n, b.seeds)
			b.expand(half, &c, &e)
			h := b.capHi[x]
			for _, kd := range e.kids[:e.nk] {
				h = max(h, -b.lo[kd])
			}
			var m uint8
			for _, kd := range e.kids[:e.nk] {
				if -b.lo[kd] == h {
					m++
				}
			}
			ups[i] = hiUpdate{x, h, m}
		})
		// B: kids whose hi fell raise their parents' lo.
		for _, c := range ch {
			v := -b.hi[c]
			for _, p := range b.par[b.off[c]:b.off[c+1]] {
				if v > b.lo[p] {
					nclX, nclOld = append(nclX, p), append(nclOld, b.lo[p])
					b.lo[p], b.dlo[p] = v, uint8(k)
				}
			}
		}
		// C: the new hi of the parents made again.
		for _, u := range ups {
			b.cnt[u.x] = u.cnt
			if u.hi != b.hi[u.x] {
				b.hi[u.x], b.dhi[u.x] = u.hi, uint8(k)
				nch = append(nch, u.x)
			}
		}
		// The double-pass ends are reached in two plies.
		if k == 2 {
			for x := uint64(0); x < t; x++ {
				v := b.term[x]
				if v == noCap {
					continue
				}
				if v > b.lo[x] {
					nclX, nclOld = append(nclX, uint32(x)), append(nclOld, b.lo[x])
					b.lo[x], b.dlo[x] = v, 2
				}
				if v < b.hi[x] {
					b.hi[x], b.dhi[x] = v, 2
					nch = append(nch, uint32(x))
				}
			}
		}
		if len(nclX)+len(nch) == 0 {
			return round, nil
		}
		round = k
		if time.Since(lastReport) >= time.Second {
			lastReport = time.Now()
			b.report("rounds", uint64(k), uint64(len(nclX)+len(nch)))
		}
		clX, nclX = nclX, clX
		clOld, nclOld = nclOld, clOld
		ch, nch = nch, ch
	}
}

// forEach calls f(i) for i in [0, n) on the builder's workers.
func (b *builder) forEach(n int, f func(i int)) {
	if n < 1024 || b.workers == 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	per := (n + b.workers - 1) / b.workers
	for w := 0; w < b.workers; w++ {
		lo, hi := w*per, min((w+1)*per, n)
		if lo >= hi {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				f(i)
			}
		}()
	}
	wg.Wait()
}
