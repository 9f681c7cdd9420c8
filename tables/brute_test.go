package tables

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// This file is an independent solver for the tests: it keeps absolute
// positions (both sides to move, and whether the last ply was a pass) in a
// map, makes moves with the board package, and runs plain value iteration
// over every position at once (Jacobi sweeps from the worst value for
// whoever forces) until nothing changes. It shares nothing with the
// builder but the definition of the values.
//
// It also computes, for TestStopAnywhere, the bounds that hold wherever
// the repetition and no-capture rules stop the cycling: the game may end
// at any position of a quiet stretch, each side keeping its row (rule book
// 2.6), so the side to move can force at least sl by keeping every
// position it reaches at a row margin of at least sl until a capture
// worth at least as much; sh is the same for the opponent. They are the
// greatest and least fixed points of the recursion below, iterated from
// the best value for whoever forces.

// bkey is a brute-force state: the board along the circuit from a1, the
// side to move and whether the last ply was a pass.
type bkey struct {
	c      [Holes]uint8
	side   board.Side
	passed bool
}

func keyOf(p *board.Position) bkey {
	circ, _ := p.Circuit(board.South)
	var k bkey
	copy(k.c[:], circ[:Holes])
	k.side, k.passed = p.Side(), p.AfterPass()
	return k
}

// pair is a state's two values side by side (one cache line per child
// read): the bounds lo and hi, or the stop-anywhere bounds sl and sh.
// Values are margins of at most the seeds on the board, so int8 holds
// them.
type pair struct{ a, b int8 }

// bestOf is the mover's pair over its moves: a move below 0 has the known
// pair known[-m-1] (the game ended, or a capture into the layer below),
// another its child's pair in vals seen from the other side (negated and
// swapped).
func bestOf(moves []int32, known, vals []pair) pair {
	l, h := int8(-128), int8(-128)
	for _, c := range moves {
		p := pair{}
		if c < 0 {
			p = known[-c-1]
		} else {
			v := vals[c]
			p = pair{-v.b, -v.a}
		}
		l, h = max(l, p.a), max(h, p.b)
	}
	return pair{l, h}
}

// bval is the solver's answer for a state: the tables' bounds and
// distances, and the stop-anywhere bounds.
type bval struct{ lo, hi, dlo, dhi, sl, sh int }

// rowMargin is what the side to move of p keeps if the game stops at p:
// its row's seeds minus the opponent's.
func rowMargin(p *board.Position) int {
	me := p.Side()
	return p.SeedsOf(me) - p.SeedsOf(me.Other())
}

// brute solves the states reachable by quiet moves from starts (all with
// the same seeds on the board); lower holds the solved layer below. It
// computes the stop-anywhere bounds only when stops is set (they take
// more sweeps to converge); otherwise they are left at their starting
// values, which no caller then reads.
func brute(t testing.TB, starts []board.Position, lower map[bkey]bval, stops bool) map[bkey]bval {
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
	if n > 100 {
		t.Fatalf("%d seeds: the brute force keeps values in int8", n)
	}
	// The moves, flattened: state i's are kid[off[i]:off[i+1]], a kid
	// below 0 standing for the known bounds known[-kid-1] and
	// stop-anywhere bounds knownStop[-kid-1].
	var kid []int32
	var known, knownStop []pair
	off := []int32{0}
	for i := 0; i < len(pos); i++ {
		p := pos[i]
		me := p.Side()
		for _, m := range p.LegalMoves() {
			c := p
			if !c.Play(m) {
				t.Fatalf("%s: legal move %s does not play", p, m)
			}
			gain := c.Captured(me) - p.Captured(me) - (c.Captured(me.Other()) - p.Captured(me.Other()))
			switch {
			case c.OnBoard() == 0: // the game ended
				g := int8(gain)
				known, knownStop = append(known, pair{g, g}), append(knownStop, pair{g, g})
				kid = append(kid, int32(-len(known)))
			case c.OnBoard() < n: // a capture: the mover again, in the layer below
				if c.Side() != me {
					t.Fatalf("%s: capture %s hands the move over", p, m)
				}
				v, ok := lower[keyOf(&c)]
				if !ok {
					t.Fatalf("%s: capture %s leads to %s, not in the layer below", p, m, c)
				}
				// After a capture the clock starts again and no earlier
				// position can recur, so both kinds of bound hold.
				known = append(known, pair{int8(gain + v.lo), int8(gain + v.hi)})
				knownStop = append(knownStop, pair{int8(gain + max(v.lo, v.sl)), int8(gain + min(v.hi, v.sh))})
				kid = append(kid, int32(-len(known)))
			default:
				kid = append(kid, int32(add(c)))
			}
		}
		off = append(off, int32(len(kid)))
	}
	// cur holds lo and hi, stop sl and sh.
	cur, next := make([]pair, len(pos)), make([]pair, len(pos))
	stop, nstop := make([]pair, len(pos)), make([]pair, len(pos))
	dlo, dhi := make([]int16, len(pos)), make([]int16, len(pos))
	for i := range pos {
		cur[i] = pair{int8(-n), int8(n)}
		stop[i] = pair{int8(n), int8(-n)}
	}
	for k := 1; ; k++ {
		changed := false
		for i := range pos {
			moves := kid[off[i]:off[i+1]]
			next[i] = bestOf(moves, known, cur)
			if next[i].a != cur[i].a {
				dlo[i], changed = int16(k), true
			}
			if next[i].b != cur[i].b {
				dhi[i], changed = int16(k), true
			}
			if !stops {
				continue
			}
			best := bestOf(moves, knownStop, stop)
			margin := int8(rowMargin(&pos[i]))
			nstop[i] = pair{min(best.a, margin), max(best.b, margin)}
			if nstop[i] != stop[i] {
				changed = true
			}
		}
		cur, next = next, cur
		if stops {
			stop, nstop = nstop, stop
		}
		if !changed {
			break
		}
		if k > 1000 {
			t.Fatal("value iteration does not converge")
		}
	}
	out := make(map[bkey]bval, len(pos))
	for k, i := range idx {
		out[k] = bval{int(cur[i].a), int(cur[i].b), int(dlo[i]), int(dhi[i]), int(stop[i].a), int(stop[i].b)}
	}
	return out
}

// fen returns the notation of a board given along the circuit from a1,
// with the seeds off the board given to South.
func fen(c *[Holes]uint8, side board.Side) string {
	var b strings.Builder
	for col := 0; col < Row; col++ {
		if col > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, c[Holes-1-col])
	}
	b.WriteByte('/')
	n := 0
	for col := 0; col < Row; col++ {
		if col > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, c[col])
	}
	for _, k := range c {
		n += int(k)
	}
	fmt.Fprintf(&b, " %c %d 0 0", side.Letter(), 48-n)
	return b.String()
}

// position returns the board position of board c (along the circuit from
// a1) with side to move.
func position(t testing.TB, v *board.Variant, c *[Holes]uint8, side board.Side) board.Position {
	t.Helper()
	p, err := v.ParsePosition(fen(c, side))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// allBoards lists every board with n seeds, by recursion (not by rank).
func allBoards(n int) [][Holes]uint8 {
	var out [][Holes]uint8
	var c [Holes]uint8
	var rec func(i, left int)
	rec = func(i, left int) {
		if i == Holes-1 {
			c[i] = uint8(left)
			out = append(out, c)
			return
		}
		for k := 0; k <= left; k++ {
			c[i] = uint8(k)
			rec(i+1, left-k)
		}
	}
	rec(0, n)
	return out
}

// bruteLayer solves every position of the n-seed layer, both sides to
// move; stops is passed on to brute.
func bruteLayer(t testing.TB, v *board.Variant, n int, lower map[bkey]bval, stops bool) map[bkey]bval {
	var starts []board.Position
	for _, c := range allBoards(n) {
		for _, s := range []board.Side{board.South, board.North} {
			starts = append(starts, position(t, v, &c, s))
		}
	}
	return brute(t, starts, lower, stops)
}
