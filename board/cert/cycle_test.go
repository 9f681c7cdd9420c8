package cert_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
)

// findCycle explores the positions reachable from p, depth first, up to
// budget positions, and returns the first cycle it meets: its positions
// and the moves that lead from each to the next, the last back to the
// first.
func findCycle(p board.Position, budget int) ([]board.Position, []board.Move) {
	type frame struct {
		p     board.Position
		moves []board.Move
		next  int
	}
	state := map[string]int{noClock(&p): 1} // 1 on the line, 2 explored
	stack := []frame{{p: p, moves: p.LegalMoves()}}
	for len(stack) > 0 && budget > 0 {
		f := &stack[len(stack)-1]
		if f.next == len(f.moves) {
			state[noClock(&f.p)] = 2
			stack = stack[:len(stack)-1]
			continue
		}
		f.next++
		c, _ := f.p.After(f.moves[f.next-1])
		k := noClock(&c)
		switch state[k] {
		case 1:
			var ps []board.Position
			var ms []board.Move
			for i := range stack {
				if len(ps) > 0 || noClock(&stack[i].p) == k {
					ps = append(ps, stack[i].p)
					ms = append(ms, stack[i].moves[stack[i].next-1])
				}
			}
			return ps, ms
		case 0:
			state[k] = 1
			budget--
			stack = append(stack, frame{p: c, moves: c.LegalMoves()})
		}
	}
	return nil, nil
}

// TestCycle builds a certificate by hand from a cycle of the game, found by
// search from a late katro-4x4 position, along which one side (the loser)
// has a single legal move: the other side's positions on the cycle are
// listed with the cycle's moves, so the loser can go round for ever.
// Verify refuses it as a cycle, and Write refuses an oracle that plays it.
func TestCycle(t *testing.T) {
	v, _ := board.NewWithRules(board.NameKatro4x4, board.Rules{})
	start, err := v.ParsePosition("3,1,2,1/0,1,1,1/3,7,2,1/3,1,3,2 S 0")
	if err != nil {
		t.Fatal(err)
	}
	ps, ms := findCycle(start, 200000)
	if ps == nil {
		t.Fatal("no cycle found")
	}
	forced := [2]bool{true, true}
	for _, p := range ps {
		if len(p.LegalMoves()) > 1 {
			forced[p.Side()] = false
		}
	}
	loser := board.North
	if !forced[loser] {
		loser = board.South
	}
	if !forced[loser] {
		t.Fatalf("neither side has a single move all along the cycle of %d plies", len(ps))
	}
	winner := loser.Other()
	var ls []string
	moves := map[string]board.Move{}
	first := ""
	for i, p := range ps {
		if p.Side() == winner {
			ls = append(ls, noClock(&p)+"\t"+ms[i].String())
			moves[noClock(&p)] = ms[i]
			if first == "" {
				first = noClock(&p)
			}
		}
	}
	t.Logf("a cycle of %d plies; %s has a single move all along it", len(ps), loser)
	want := "cycle: position " + first + " (line 1) is reached again from itself: the loser could repeat it"
	if _, err := verify(ps[0], join(ls)); err == nil || err.Error() != want {
		t.Errorf("Verify: %v, want %q", err, want)
	}
	oracle := func(p *board.Position) (board.Move, bool) { m, ok := moves[noClock(p)]; return m, ok }
	_, err = cert.Write(context.Background(), &bytes.Buffer{}, ps[0], winner, oracle, cert.Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "cycle: position "+first+" (line 5) is reached again from itself") {
		t.Errorf("Write: %v", err)
	}
}
