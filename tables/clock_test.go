package tables

import (
	"fmt"
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
	memo map[uint64]int8 // by exactKey
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
	if v, ok := s.memo[k]; ok {
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
	s.memo[k] = int8(best)
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
// board, quickBoards) at several clocks with the recursion's; and, for the limit 24 except with -short, 1,000 random
// 12-seed positions with up to 12 plies left (more would make the
// recursion slow).
func TestValuesAgreeWithRecursion(t *testing.T) {
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
				s := &exact{memo: map[uint64]int8{}}
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
				const samples = 1000
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
	type opt struct{ kid, val int } // kid < 0: a known value
	var opts [][]opt
	for i := 0; i < len(pos); i++ {
		p := pos[i]
		me := p.Side()
		var os []opt
		for _, m := range p.LegalMoves() {
			c := p
			c.Play(m)
			gain := c.Captured(me) - p.Captured(me) - (c.Captured(me.Other()) - p.Captured(me.Other()))
			switch {
			case c.OnBoard() == 0:
				os = append(os, opt{-1, gain})
			case c.OnBoard() < n:
				v, ok := lower[keyOf(&c)]
				if !ok {
					t.Fatalf("%s: capture %s leads to %s, not in the layer below", &p, m, &c)
				}
				os = append(os, opt{-1, gain + v})
			default:
				os = append(os, opt{add(c), 0})
			}
		}
		opts = append(opts, os)
	}
	cur, next := make([]int, len(pos)), make([]int, len(pos))
	for i := range pos {
		cur[i] = rowMargin(&pos[i])
	}
	out := make(map[bkey][]int, len(pos))
	record := func(h int) {
		for j, want := range horizons {
			if want != h {
				continue
			}
			for k, i := range idx {
				if out[k] == nil {
					out[k] = make([]int, len(horizons))
				}
				out[k][j] = cur[i]
			}
		}
	}
	record(0)
	for h := 1; h <= limit; h++ {
		for i, os := range opts {
			best := -1000
			for _, o := range os {
				if o.kid < 0 {
					best = max(best, o.val)
				} else {
					best = max(best, -cur[o.kid])
				}
			}
			next[i] = best
		}
		cur, next = next, cur
		record(h)
	}
	return out
}

// TestValuesAgreeWithSweeps compares the values of the default limit with
// the Jacobi sweeps: every 8-seed position (both sides to move; with -short
// every seventh board, quickBoards) at several clocks, for every option set, and, in a full run, 1,000 random 12-seed
// positions of the default set; with SOWER_SWEEP_ALL set, 500 of each
// other set's too (several minutes each, too slow for every run).
func TestValuesAgreeWithSweeps(t *testing.T) {
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
