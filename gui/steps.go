package gui

import (
	"slices"

	"github.com/sower-engine/sower/board"
)

// maxTraceLaps bounds the laps traced for the animation; a longer sowing
// is shown whole.
const maxTraceLaps = 200

// step is one moment of a sowing, for the page to animate: a hole lifted,
// a lap sown (the seeds dropped one by one into Path), or a capture. Counts
// are every hole's seeds after it, in the order of Variant.Holes.
type step struct {
	Kind   string   `json:"kind"` // "lift", "lap", "relay" (the landing hole lifted), "capture"
	Hole   string   `json:"hole"` // the hole lifted, landed in or captured
	Path   []string `json:"path,omitempty"`
	Counts []int    `json:"counts"`
	Capt   [2]int   `json:"captured"`
}

// tracer replays a sowing seed by seed, following the rule book, to
// record its laps. The rules package makes a move whole; the trace is
// only for showing it, and sowingSteps checks it against the real move.
type tracer struct {
	v      *board.Variant
	holes  []board.Move
	index  map[board.Move]int
	counts []int
	capt   [2]int
	steps  []step
}

func (t *tracer) snap(kind string, h board.Move, path []string) {
	t.steps = append(t.steps, step{Kind: kind, Hole: h.String(), Path: path, Counts: append([]int(nil), t.counts...), Capt: t.capt})
}

// sow drops n seeds one by one on the circuit after lane s and returns
// the landing lane.
func (t *tracer) sow(circuit []board.Move, s, n int) int {
	var path []string
	for range n {
		s = (s + 1) % len(circuit)
		t.counts[t.index[circuit[s]]]++
		path = append(path, circuit[s].String())
	}
	t.snap("lap", circuit[s], path)
	return s
}

func (t *tracer) lift(h board.Move) int {
	i := t.index[h]
	n := t.counts[i]
	t.counts[i] = 0
	return n
}

func (t *tracer) count(h board.Move) int { return t.counts[t.index[h]] }

// sowingSteps returns the steps of move m from the position before (in
// notation), or nil when there is nothing to show or the trace does not
// end where the rules do.
func sowingSteps(before string, v *board.Variant, m board.Move) []step {
	p, err := v.ParsePosition(before)
	if err != nil || !m.IsHole() {
		return nil
	}
	after, err := p.After(m)
	if err != nil {
		return nil
	}
	t := &tracer{v: v, index: map[board.Move]int{}, capt: [2]int{p.Captured(board.South), p.Captured(board.North)}}
	t.holes = v.Holes()
	for i, h := range t.holes {
		t.index[h] = i
		t.counts = append(t.counts, p.Count(h))
	}
	ok := false
	if v.Family() == board.Hoyito {
		ok = t.hoyito(p.Side(), m)
	} else {
		ok = t.katro(p.Side(), m)
	}
	if !ok {
		return nil
	}
	if after.OnBoard() > 0 { // not a game end that clears the board
		for i, h := range t.holes {
			if t.counts[i] != after.Count(h) {
				return nil
			}
		}
	}
	return t.steps
}

// circuit returns side s's sowing circuit.
func circuit(v *board.Variant, s board.Side) []board.Move {
	c := make([]board.Move, v.CircuitLen())
	for k := range c {
		c[k] = v.CircuitHole(s, k)
	}
	return c
}

// katro traces a Katro sowing (rule book 1.4-1.6): relay laps, and
// captures from the front rows that sow on.
func (t *tracer) katro(me board.Side, m board.Move) bool {
	v := t.v
	mine, theirs := circuit(v, me), circuit(v, me.Other())
	cols := v.Cols()
	depth := len(mine) / cols
	s := slices.Index(mine, m)
	if s < 0 {
		return false
	}
	n := t.lift(m)
	t.snap("lift", m, nil)
	rowEmpty := func(c []board.Move, d int) bool {
		for _, h := range c[d*cols : (d+1)*cols] {
			if t.count(h) > 0 {
				return false
			}
		}
		return true
	}
	for lap := 1; lap <= maxTraceLaps; lap++ {
		land := t.sow(mine, s, n)
		if t.count(mine[land]) == 1 {
			return true
		}
		s = land
		front := true
		for d := land/cols + 1; d < depth; d++ {
			front = front && rowEmpty(mine, d)
		}
		if front {
			col := mine[land].Col()
			target := board.NoMove
			for d := depth - 1; d >= 0 && target == board.NoMove; d-- {
				if !rowEmpty(theirs, d) {
					for _, h := range theirs[d*cols : (d+1)*cols] {
						if h.Col() == col {
							target = h
						}
					}
				}
			}
			if target != board.NoMove && t.count(target) > 0 {
				n = t.lift(target) + t.lift(mine[land])
				t.snap("capture", target, nil)
				empty := true
				for d := 0; d < depth; d++ {
					empty = empty && rowEmpty(theirs, d)
				}
				if empty {
					t.sow(mine, s, n)
					return true
				}
				continue
			}
		}
		n = t.lift(mine[land])
		t.snap("relay", mine[land], nil)
	}
	return false
}

// hoyito traces a Hoyito III sowing (rule book 2.4-2.6): relay laps until
// a seed lands in an empty hole, or a capture of four (the mover plays
// again).
func (t *tracer) hoyito(me board.Side, m board.Move) bool {
	v := t.v
	c := circuit(v, me)
	cols := v.Cols()
	s := slices.Index(c, m)
	if s < 0 {
		return false
	}
	n := t.lift(m)
	t.snap("lift", m, nil)
	for lap := 1; lap <= maxTraceLaps; lap++ {
		land := t.sow(c, s, n)
		k := t.count(c[land])
		if k == 1 {
			return true
		}
		if k == 4 && (v.Rules().CaptureSide == board.CaptureAny || land/cols != int(me)) {
			t.lift(c[land])
			t.capt[me] += 4
			t.snap("capture", c[land], nil)
			return true
		}
		s = land
		n = t.lift(c[land])
		t.snap("relay", c[land], nil)
	}
	return false
}
