package tables

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// This file checks the exact values under Repetition off against two
// solvers of its own that share nothing with the builder but the rules:
// a memoised recursion over (board, side to move, clock, after a pass)
// that makes its moves with the board package and lets Position.Status
// end the game, for small no-capture limits; and, for the default limit,
// Jacobi sweeps over the clock on the brute-force solver's graph of
// absolute positions.

// exact is the memoised recursion. Its values are from the side to move's
// view, relative to the capture totals of the position: the margin of the
// seeds on the board.
type exact struct {
	memo memo // by exactKey
}

// memo is an open-addressing hash table from exactKey to a value: a Go map
// of millions of entries was most of the recursion's time.
type memo struct {
	keys  []uint64 // exactKey+1; 0 is an empty slot
	vals  []int8
	n     int
	shift uint
}

// slot returns the slot of k: where it is, or the empty slot where it goes.
func (m *memo) slot(k uint64) int {
	mask := len(m.keys) - 1
	for i := int((k + 1) * 0x9e3779b97f4a7c15 >> m.shift); ; i = (i + 1) & mask {
		if m.keys[i] == 0 || m.keys[i] == k+1 {
			return i
		}
	}
}

func (m *memo) get(k uint64) (int8, bool) {
	if m.n == 0 {
		return 0, false
	}
	i := m.slot(k)
	return m.vals[i], m.keys[i] != 0
}

func (m *memo) put(k uint64, v int8) {
	if 2*(m.n+1) > len(m.keys) {
		old, oldVals := m.keys, m.vals
		size := max(1<<16, 2*len(old))
		m.keys, m.vals, m.n = make([]uint64, size), make([]int8, size), 0
		m.shift = uint(64 - bits.TrailingZeros(uint(size)))
		for i, ok := range old {
			if ok != 0 {
				m.put(ok-1, oldVals[i])
			}
		}
	}
	i := m.slot(k)
	if m.keys[i] == 0 {
		m.n++
	}
	m.keys[i], m.vals[i] = k+1, v
}

// exactKey packs what decides a value into a map key: the board along
// the circuit from a1 (4 bits a hole: the layers tested have at most 12
// seeds), the side to move, whether the last ply was a pass, and the
// clock.
func exactKey(p *board.Position) uint64 {
	circ, _ := p.Circuit(board.South)
	var k uint64
	for _, s := range circ[:Holes] {
		k = k<<4 | uint64(s)
	}
	k = k<<1 | uint64(p.Side())
	k <<= 1
	if p.AfterPass() {
		k |= 1
	}
	return k<<8 | uint64(p.Clock())
}

func (s *exact) value(p board.Position) int {
	if p.OnBoard() > 15 || p.Clock() > 255 {
		panic("exact: the key holds at most 15 seeds and a clock of 255")
	}
	k := exactKey(&p)
	if v, ok := s.memo.get(k); ok {
		return int(v)
	}
	me, opp := p.Side(), p.Side().Other()
	if st := p.Status(nil); st.Over() {
		return st.Seeds[me] - st.Seeds[opp] - (p.Captured(me) - p.Captured(opp))
	}
	best := -1000
	for _, m := range p.LegalMoves() {
		q := p
		q.Play(m)
		v := q.Captured(me) - p.Captured(me) - (q.Captured(opp) - p.Captured(opp))
		if q.Side() == me {
			v += s.value(q)
		} else {
			v -= s.value(q)
		}
		best = max(best, v)
	}
	s.memo.put(k, int8(best))
	return best
}

// quickBoards returns the boards with n seeds that a test checks: every
// one, or with -short every seventh (the quick check's sample, spread
// over the whole layer by the order of allBoards).
func quickBoards(n int) [][Holes]uint8 {
	all := allBoards(n)
	if !testing.Short() {
		return all
	}
	var some [][Holes]uint8
	for i := 0; i < len(all); i += 7 {
		some = append(some, all[i])
	}
	return some
}

// fenAt is fen with a clock.
func fenAt(c *[Holes]uint8, side board.Side, clock int) string {
	f := fen(c, side)
	return strings.TrimSuffix(f, " 0") + fmt.Sprintf(" %d", clock)
}

// offRules returns rules r with Repetition off and the limit given.
func offRules(r board.Rules, limit int) board.Rules {
	r.Repetition, r.NoCaptureLimit = board.RepetitionOff, limit
	return r
}

// TestValuesAgreeWithRecursion builds the 8-seed layer of every option set
// for the limits 6 and 10 (and 24 for the default set), and compares the
// value of every position (both sides to move; with -short every seventh
// board, quickBoards) at several clocks with the recursion's; and, for the limit 24 except with -short, 500 random
// 12-seed positions with up to 12 plies left (more would make the
// recursion slow).
func TestValuesAgreeWithRecursion(t *testing.T) {
	t.Parallel() // the package's three longest tests, side by side
	for _, rs := range ruleSets {
		for _, limit := range []int{6, 10, 24} {
			if limit == 24 && rs.name != "default" {
				continue
			}
			t.Run(fmt.Sprintf("%s/limit%d", rs.name, limit), func(t *testing.T) {
				top := 8
				if limit == 24 && !testing.Short() {
					top = 12 // a build of its own: not in a quick check
				}
				r := offRules(rs.rules, limit)
				tb, v := buildSet(t, r, top)
				s := &exact{}
				check := func(c *[Holes]uint8, side board.Side, clock int) bool {
					p, err := v.ParsePosition(fenAt(c, side, clock))
					if err != nil {
						t.Fatal(err)
					}
					got, ok := tb.Value(&p)
					if !ok {
						t.Fatalf("%s: no value", &p)
					}
					if want := s.value(p); got != want {
						t.Errorf("%s: tables say %d, the recursion %d", &p, got, want)
						return false
					}
					return true
				}
				bad := 0
				for _, c := range quickBoards(8) {
					for _, side := range []board.Side{board.South, board.North} {
						for _, clock := range []int{0, limit / 2, limit - 1} {
							if !check(&c, side, clock) {
								bad++
							}
						}
					}
					if bad > 5 {
						t.Fatal("too many disagreements")
					}
				}
				if top < 12 {
					return
				}
				rng := rand.New(rand.NewPCG(17, uint64(limit)))
				const samples = 500
				for i := 0; i < samples && bad <= 5; i++ {
					c := randomBoard(rng, 12)
					if !check(&c, board.Side(rng.IntN(2)), limit-1-rng.IntN(12)) {
						bad++
					}
				}
			})
		}
	}
}

// clockSweeps computes V_h for h = 0 … limit on the brute-force graph of
// the states reachable from starts by quiet moves, by Jacobi sweeps over
// every state at once; lower holds the layer below's values at a fresh
// clock (nil for 8 seeds). It returns each state's values at the horizons
// asked for.
func clockSweeps(t testing.TB, starts []board.Position, lower map[bkey]int, limit int, horizons []int) map[bkey][]int {
	t.Helper()
	idx := map[bkey]int{}
	var pos []board.Position
	add := func(p board.Position) int {
		k := keyOf(&p)
		if i, ok := idx[k]; ok {
			return i
		}
		idx[k] = len(pos)
		pos = append(pos, p)
		return len(pos) - 1
	}
	for _, p := range starts {
		add(p)
	}
	n := starts[0].OnBoard()
	// The moves, flattened: state i's are kid[off[i]:off[i+1]], a kid
	// below 0 being a known value (val).
	var kid, val []int32
	off := []int32{0}
	for i := 0; i < len(pos); i++ {
		p := pos[i]
		me := p.Side()
		for _, m := range p.LegalMoves() {
			c := p
			c.Play(m)
			gain := c.Captured(me) - p.Captured(me) - (c.Captured(me.Other()) - p.Captured(me.Other()))
			switch {
			case c.OnBoard() == 0:
				kid, val = append(kid, -1), append(val, int32(gain))
			case c.OnBoard() < n:
				v, ok := lower[keyOf(&c)]
				if !ok {
					t.Fatalf("%s: capture %s leads to %s, not in the layer below", &p, m, &c)
				}
				kid, val = append(kid, -1), append(val, int32(gain+v))
			default:
				kid, val = append(kid, int32(add(c))), append(val, 0)
			}
		}
		off = append(off, int32(len(kid)))
	}
	// Values are margins of at most the seeds on the board: int8 keeps
	// the sweeps' arrays in the cache.
	cur, next := make([]int8, len(pos)), make([]int8, len(pos))
	for i := range pos {
		cur[i] = int8(rowMargin(&pos[i]))
	}
	got := make([]int, len(pos)*len(horizons)) // state i's at got[i*len(horizons):]
	record := func(h int) {
		for j, want := range horizons {
			if want == h {
				for i, v := range cur {
					got[i*len(horizons)+j] = int(v)
				}
			}
		}
	}
	record(0)
	for h := 1; h <= limit; h++ {
		for i := range cur {
			best := -1000
			for e := off[i]; e < off[i+1]; e++ {
				if k := kid[e]; k < 0 {
					best = max(best, int(val[e]))
				} else {
					best = max(best, -int(cur[k]))
				}
			}
			next[i] = int8(best)
		}
		cur, next = next, cur
		record(h)
	}
	out := make(map[bkey][]int, len(idx))
	for k, i := range idx {
		out[k] = got[i*len(horizons) : (i+1)*len(horizons)]
	}
	return out
}

// TestValuesAgreeWithSweeps compares the values of the default limit with
// the Jacobi sweeps: every 8-seed position (both sides to move; with -short
// every seventh board, quickBoards) at several clocks, for every option set, and, in a full run, 1,000 random 12-seed
// positions of the default set; with SOWER_SWEEP_ALL set, 500 of each
// other set's too (several minutes each, too slow for every run).
func TestValuesAgreeWithSweeps(t *testing.T) {
	t.Parallel() // the package's three longest tests, side by side
	const limit = board.DefaultNoCaptureLimit
	horizons := []int{1, 2, 3, 5, 8, 13, 30, 60, 100, 150, 199, 200}
	for _, rs := range ruleSets {
		t.Run(rs.name, func(t *testing.T) {
			top := 12
			if testing.Short() || (rs.name != "default" && os.Getenv("SOWER_SWEEP_ALL") == "") {
				top = 8
			}
			r := offRules(rs.rules, limit)
			tb, v := buildSet(t, r, top)
			var starts8 []board.Position
			for _, c := range quickBoards(8) {
				for _, s := range []board.Side{board.South, board.North} {
					starts8 = append(starts8, position(t, v, &c, s))
				}
			}
			want8 := clockSweeps(t, starts8, nil, limit, horizons)
			compare := func(want map[bkey][]int, starts []board.Position) {
				t.Helper()
				bad := 0
				for _, p := range starts {
					w := want[keyOf(&p)]
					for j, h := range horizons {
						q, err := v.ParsePosition(strings.TrimSuffix(p.String(), " 0") + fmt.Sprintf(" %d", limit-h))
						if err != nil {
							t.Fatal(err)
						}
						e, _ := tb.Probe(&q)
						got, ok := tb.Value(&q)
						if !ok || got != w[j] {
							if bad++; bad <= 5 {
								t.Errorf("%s: tables say %d (ok %v), the sweeps %d", &q, got, ok, w[j])
							}
						}
						if h == limit && (got < e.Lo || got > e.Hi || got != e.Value) {
							t.Errorf("%s: value at clock 0 %d, entry %+v: outside the bounds or not the entry's", &q, got, e)
						}
					}
				}
				if bad > 0 {
					t.Errorf("%d disagreements", bad)
				}
			}
			compare(want8, starts8)
			if top < 12 {
				return
			}
			lower := make(map[bkey]int, len(want8))
			for k, w := range want8 {
				lower[k] = w[len(horizons)-1]
			}
			rng := rand.New(rand.NewPCG(12, 200))
			samples := 500
			if rs.name == "default" {
				samples = 1000
			}
			starts := make([]board.Position, samples)
			for i := range starts {
				c := randomBoard(rng, 12)
				starts[i] = position(t, v, &c, board.Side(rng.IntN(2)))
			}
			compare(clockSweeps(t, starts, lower, limit, horizons), starts)
		})
	}
}

// TestClockRoundsSettle checks what the builder reports of the default
// set's 8- and 12-seed layers: each reaches a fixed point before the limit
// (the horizon published in docs/tables.md comes from this), and its
// values at clock 0 lie inside the bounds, as they must.
func TestClockRoundsSettle(t *testing.T) {
	got := builtStats(t, OptionsFor(board.DefaultRules()), 12)
	if len(got) != 2 {
		t.Fatalf("%d layers reported, want 2", len(got))
	}
	for _, st := range got {
		t.Logf("%d seeds: fixed from horizon %d, %d changes, %d alternating", st.Seeds, st.ClockRounds, st.Changes, st.Alternating)
		if st.ClockRounds >= board.DefaultNoCaptureLimit || st.Alternating != 0 || st.Changes == 0 {
			t.Errorf("%d seeds: clock rounds %d, %d alternating, %d changes: want a fixed point before the limit", st.Seeds, st.ClockRounds, st.Alternating, st.Changes)
		}
	}
}

// TestMoveValuesSatisfyTheRecursion checks Moves' values at random clocks
// in the 8- and 12-seed layers (8 only with -short): the position's value
// is the best of its moves' and at least one keeps it.
func TestMoveValuesSatisfyTheRecursion(t *testing.T) {
	top := 12
	if testing.Short() {
		top = 8 // the 12-seed layer is a build of its own
	}
	tb, v := buildSet(t, offRules(board.DefaultRules(), 30), top)
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 2000; i++ {
		n := 8 + 4*rng.IntN(2)*(top-8)/4
		c := randomBoard(rng, n)
		p, err := v.ParsePosition(fenAt(&c, board.Side(rng.IntN(2)), rng.IntN(30)))
		if err != nil {
			t.Fatal(err)
		}
		want, ok := tb.Value(&p)
		if !ok {
			t.Fatalf("%s: no value", &p)
		}
		_, ms, err := tb.Moves(&p)
		if err != nil {
			t.Fatalf("%s: %v", &p, err)
		}
		best, keeps := -1000, 0
		for _, m := range ms {
			best = max(best, m.Value)
			if m.KeepsValue {
				keeps++
			}
		}
		if best != want || keeps == 0 {
			t.Fatalf("%s: value %d; moves give %d, %d keep it: %+v", &p, want, best, keeps, ms)
		}
	}
}
