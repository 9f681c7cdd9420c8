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

// bopt is one move's outcome: a same-layer child, or a known value.
type bopt struct {
	kid    int // index of the child, or -1
	lo, hi int // the mover's value when kid < 0
	sl, sh int // the mover's stop-anywhere bounds when kid < 0
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
	var opts [][]bopt
	for i := 0; i < len(pos); i++ {
		p := pos[i]
		me := p.Side()
		var os []bopt
		for _, m := range p.LegalMoves() {
			c := p
			if !c.Play(m) {
				t.Fatalf("%s: legal move %s does not play", p, m)
			}
			gain := c.Captured(me) - p.Captured(me) - (c.Captured(me.Other()) - p.Captured(me.Other()))
			switch {
			case c.OnBoard() == 0: // the game ended
				os = append(os, bopt{kid: -1, lo: gain, hi: gain, sl: gain, sh: gain})
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
				os = append(os, bopt{kid: -1, lo: gain + v.lo, hi: gain + v.hi,
					sl: gain + max(v.lo, v.sl), sh: gain + min(v.hi, v.sh)})
			default:
				os = append(os, bopt{kid: add(c)})
			}
		}
		opts = append(opts, os)
	}
	lo, hi := make([]int, len(pos)), make([]int, len(pos))
	dlo, dhi := make([]int, len(pos)), make([]int, len(pos))
	sl, sh := make([]int, len(pos)), make([]int, len(pos))
	for i := range pos {
		lo[i], hi[i] = -n, n
		sl[i], sh[i] = n, -n
	}
	nlo, nhi := make([]int, len(pos)), make([]int, len(pos))
	nsl, nsh := make([]int, len(pos)), make([]int, len(pos))
	for k := 1; ; k++ {
		changed := false
		for i, os := range opts {
			l, h := -1000, -1000
			a, b := -1000, -1000
			for _, o := range os {
				if o.kid < 0 {
					l, h = max(l, o.lo), max(h, o.hi)
					a, b = max(a, o.sl), max(b, o.sh)
				} else {
					l, h = max(l, -hi[o.kid]), max(h, -lo[o.kid])
					a, b = max(a, -sh[o.kid]), max(b, -sl[o.kid])
				}
			}
			nlo[i], nhi[i] = l, h
			if l != lo[i] {
				dlo[i], changed = k, true
			}
			if h != hi[i] {
				dhi[i], changed = k, true
			}
			if !stops {
				continue
			}
			stop := rowMargin(&pos[i])
			nsl[i], nsh[i] = min(a, stop), max(b, stop)
			if nsl[i] != sl[i] || nsh[i] != sh[i] {
				changed = true
			}
		}
		lo, nlo = nlo, lo
		hi, nhi = nhi, hi
		if stops {
			sl, nsl = nsl, sl
			sh, nsh = nsh, sh
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
		out[k] = bval{lo[i], hi[i], dlo[i], dhi[i], sl[i], sh[i]}
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
