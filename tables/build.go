package tables

import (
	"context"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Progress is a report of a build: the layer, the phase and how far it is.
type Progress struct {
	Seeds int    // the layer being built
	Phase string // "moves", "parents", "rounds", "clock" or "clock rounds"
	// Done and Total count positions for the moves, parents and clock
	// phases; for the rounds and clock rounds phases Done is the round
	// number and Total the positions whose bounds (or values) changed in
	// it.
	Done, Total uint64
	Elapsed     time.Duration // since the layer started
	PhaseTime   time.Duration // since the phase started
}

// BuildStats describes a built layer.
type BuildStats struct {
	Seeds     int
	Positions uint64 // entries (both halves of a fixed set)
	Edges     uint64 // same-layer moves
	Rounds    int
	// ClockRounds is the last horizon the clock rounds computed (the
	// fixed point, the start of the period of two, or the limit);
	// Changes the changes of value they recorded; Alternating the
	// positions whose value alternates with the parity of the clock.
	ClockRounds int
	Changes     uint64
	Alternating int
	Exact       uint64 // positions with Lo == Hi
	MaxDist     int
	Time        time.Duration
	Bytes       uint64 // peak working memory of the arrays, approximate
	// ClockBytes is the same for the clock rounds: the parent lists, the
	// entries, the values, supports and gathered changes, and the
	// largest round's lists.
	ClockBytes uint64
}

// The bytes the builder's arrays take, by what they hold: BuildMemory
// estimates with them, and BuildStats reports the arrays as they were with
// them.
const (
	// boundBytes is a position's share in the bounds' rounds: lo, hi,
	// dlo, dhi, capLo, capHi, cnt and term, a byte each, and its offset
	// in the parent lists, four.
	boundBytes  = 12
	parentBytes = 4 // a quiet move, as its parent's index in the parent lists
	offsetBytes = 4 // a position's offset in the parent lists
	// clockBytes is a position's share in the clock rounds: its value,
	// its support and its gathered changes.
	clockBytes  = 6
	changeBytes = 5 // an entry of a round's list of changes: the position and its old value
	workBytes   = 6 // an entry of a round's work list: the position, its new value and support
	// movesTenths is the quiet moves a position has, in tenths: about
	// 3.1 in every layer measured, 8 to 24 seeds.
	movesTenths = 31
	// listBytes is the largest round's lists of changes and work, a
	// position, in the layers measured.
	listBytes = 5
)

// BuildMemory estimates the memory that building the n-seed layer for
// opts holds at its peak, the larger of its two phases' (for a set with a
// limit): the bounds' rounds (boundBytes a position, parentBytes a quiet
// move, and the entries) and the clock rounds (the quiet moves' parent
// lists and their offsets, the entries, clockBytes a position, and the
// largest round's lists of changes and work, listBytes a position).
// BuildStats.Bytes and ClockBytes report the two phases' arrays as they
// were.
func BuildMemory(n int, opts Options) uint64 {
	p := Positions(n) * uint64(opts.halves())
	moves := p * movesTenths / 10 * parentBytes
	bounds := p*(boundBytes+EntrySize) + moves
	if opts.Limit == 0 {
		return bounds
	}
	return max(bounds, moves+p*(offsetBytes+EntrySize+clockBytes+listBytes))
}

// chunk is how many consecutive positions a worker expands at a time.
const chunk = 1 << 14

// builder holds the working arrays of one layer's build.
type builder struct {
	expander
	total    uint64 // entries: halves × n
	lo, hi   []int8
	dlo, dhi []uint8
	capLo    []int8
	capHi    []int8
	cnt      []uint8  // kids whose bound supports hi
	term     []int8   // double-pass margin, noCap if none
	off      []uint32 // parents of x are par[off[x]:off[x+1]]
	par      []uint32
	workers  int
	progress func(Progress)
	start    time.Time
	phase    time.Time // when the current phase started
}

// built is what buildLayer returns: the entries and the clock section in
// file order, and the header fields they need.
type built struct {
	entries, clk []byte
	last, period int
	changes      uint64
}

// buildLayer computes the n-seed layer; lower is the (n-4)-seed layer (nil
// for 8 seeds). The clock rounds keep their changes in a temporary file in
// dir, named after the layer's file.
func buildLayer(ctx context.Context, n int, opts Options, lower *Layer, workers int, progress func(Progress), dir string) (built, BuildStats, error) {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	b := &builder{
		expander: expander{seeds: n, anySide: opts.CaptureSide == 0, fixed: opts.Fixed, n: Positions(n), lower: lower},
		workers:  workers,
		progress: progress,
		start:    time.Now(),
	}
	b.total = b.n * uint64(opts.halves())
	if b.total >= 1<<32 {
		return built{}, BuildStats{}, fmt.Errorf("layer %d has %d positions: more than this builder indexes", n, b.total)
	}
	st := BuildStats{Seeds: n, Positions: b.total}
	if err := b.moves(ctx); err != nil {
		return built{}, st, err
	}
	edges, err := b.parents(ctx)
	if err != nil {
		return built{}, st, err
	}
	st.Edges = edges
	st.Bytes = b.total*boundBytes + edges*parentBytes
	rounds, err := b.iterate(ctx)
	if err != nil {
		return built{}, st, err
	}
	st.Rounds = rounds
	out := built{entries: make([]byte, b.total*EntrySize)}
	for x := uint64(0); x < b.total; x++ {
		st.MaxDist = max(st.MaxDist, int(b.dlo[x]), int(b.dhi[x]))
		if b.lo[x] == b.hi[x] {
			st.Exact++
		}
		o := out.entries[x*EntrySize:]
		o[0], o[1], o[2], o[3] = byte(b.lo[x]), byte(b.hi[x]), b.dlo[x], b.dhi[x]
	}
	// The bounds are packed: their working arrays go before the clock
	// rounds start.
	b.lo, b.hi, b.dlo, b.dhi, b.capLo, b.capHi, b.cnt = nil, nil, nil, nil, nil, nil, nil
	if opts.Limit > 0 {
		if err := b.clockValues(ctx, opts.Limit, filepath.Join(dir, opts.FileName(n)), &out, &st); err != nil {
			return built{}, st, err
		}
	} else {
		out.clk = make([]byte, clockIndexSize(b.total)+b.total)
		fillEmptyIndex(out.clk, b.total)
	}
	st.Time = time.Since(b.start)
	return out, st, nil
}

// clockValues runs the clock rounds and lays out their results: each
// entry's value at clock 0 and settle horizon, and the clock section. The
// changes are kept in a temporary file next to path, the layer's file.
func (b *builder) clockValues(ctx context.Context, limit int, path string, out *built, st *BuildStats) error {
	log, err := newChangeLog(path, b.total)
	if err != nil {
		return err
	}
	defer log.close()
	run, err := b.clock(ctx, limit, log.add)
	if err != nil {
		return err
	}
	st.ClockBytes = uint64(len(b.par))*parentBytes + uint64(len(b.off))*offsetBytes + uint64(len(out.entries)) + b.total*clockBytes + run.lists
	b.par, b.off = nil, nil
	for x := uint64(0); x < b.total; x++ {
		out.entries[x*EntrySize+4] = byte(run.valueAt(uint32(x), limit))
	}
	out.last, out.period, out.changes = run.last, run.period, run.changes
	st.ClockRounds, st.Changes, st.Alternating = run.last, run.changes, len(run.alt)
	out.clk, err = log.section(out.entries)
	return err
}

// fillEmptyIndex writes the index of a clock section without changes.
func fillEmptyIndex(clk []byte, total uint64) {
	off := uint64(0)
	for blk := uint64(0); blk*ClockBlock < total; blk++ {
		binary.LittleEndian.PutUint64(clk[blk*8:], off)
		off += min(ClockBlock, total-blk*ClockBlock)
	}
	binary.LittleEndian.PutUint64(clk[((total+ClockBlock-1)/ClockBlock)*8:], off)
}

// report sends a progress report if anyone listens.
func (b *builder) report(phase string, done, total uint64) {
	if b.progress != nil {
		b.progress(Progress{Seeds: b.seeds, Phase: phase, Done: done, Total: total,
			Elapsed: time.Since(b.start), PhaseTime: time.Since(b.phase)})
	}
}

// parallel runs f over the chunks of [0, b.total) on the workers, in
// order of chunks, reporting progress under phase; it stops early when ctx
// is cancelled. f gets a chunk's states [x0, x1), all of one half.
func (b *builder) parallel(ctx context.Context, phase string, f func(x0, x1 uint64)) error {
	var nextChunk, done atomic.Uint64
	var wg sync.WaitGroup
	b.phase = time.Now()
	stop, stopped := make(chan struct{}), make(chan struct{})
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	// Progress is reported from this goroutine only while the workers run,
	// then from the caller's: never from two at once.
	go func() {
		defer close(stopped)
		for {
			select {
			case <-stop:
				return
			case <-ticker.C:
				b.report(phase, done.Load(), b.total)
			}
		}
	}()
	for w := 0; w < b.workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				x0 := nextChunk.Add(chunk) - chunk
				if x0 >= b.total {
					return
				}
				x1 := min(x0+chunk, b.total)
				// A chunk never straddles the halves: n is not a
				// multiple of chunk in general, so split there.
				if h := x0 / b.n; x1 > (h+1)*b.n {
					f(x0, (h+1)*b.n)
					f((h+1)*b.n, x1)
				} else {
					f(x0, x1)
				}
				done.Add(x1 - x0)
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-stopped
	b.report(phase, done.Load(), b.total)
	return ctx.Err()
}

// each calls g for every state in [x0, x1) (one half) with its board.
func (b *builder) each(x0, x1 uint64, g func(x uint64, half int, c *cells)) {
	half := int(x0 / b.n)
	c := unrank(x0-uint64(half)*b.n, b.seeds)
	for x := x0; x < x1; x++ {
		g(x, half, &c)
		next(&c)
	}
}

// moves expands every position once: the capture bounds, the double-pass
// ends and the number of parents of each position.
func (b *builder) moves(ctx context.Context) error {
	t := b.total
	b.capLo, b.capHi = make([]int8, t), make([]int8, t)
	b.cnt, b.term = make([]uint8, t), make([]int8, t)
	b.off = make([]uint32, t+1)
	return b.parallel(ctx, "moves", func(x0, x1 uint64) {
		var e expansion
		b.each(x0, x1, func(x uint64, half int, c *cells) {
			b.expand(half, c, &e)
			b.capLo[x], b.capHi[x] = e.capLo, e.capHi
			b.cnt[x] = uint8(e.nk)
			b.term[x] = noCap
			if e.term {
				b.term[x] = e.termVal
			}
			for _, k := range e.kids[:e.nk] {
				atomic.AddUint32(&b.off[k+1], 1)
			}
		})
	})
}

// parents stores every position's parents (with one entry per move, so a
// parent that reaches a child by two moves is listed twice).
func (b *builder) parents(ctx context.Context) (uint64, error) {
	var e uint64
	for x := uint64(1); x <= b.total; x++ {
		e += uint64(b.off[x])
		if e >= 1<<32 {
			return 0, fmt.Errorf("layer %d has more than 2^32 moves: more than this builder indexes", b.seeds)
		}
		b.off[x] = uint32(e)
	}
	b.par = make([]uint32, e)
	// fill[x] counts down from off[x+1] as parents arrive; it ends at off[x].
	fill := make([]uint32, b.total)
	copy(fill, b.off[1:])
	err := b.parallel(ctx, "parents", func(x0, x1 uint64) {
		var ex expansion
		b.each(x0, x1, func(x uint64, half int, c *cells) {
			b.expand(half, c, &ex)
			for _, k := range ex.kids[:ex.nk] {
				i := atomic.AddUint32(&fill[k], ^uint32(0))
				b.par[i] = uint32(x)
			}
		})
	})
	return e, err
}
