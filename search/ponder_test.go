package search

import (
	"context"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

// TestPonderHit: a pondering search runs past its limits until the hit,
// then goes on — the same search, its depths rising without a restart —
// and ends within its clock counted from the hit.
func TestPonderHit(t *testing.T) {
	p := startPosition(t, board.NameKatro)
	lim := Limits{Depth: 3, Ponder: NewPonder()}
	e := newEngine(t)
	var infos []Info
	type outcome struct {
		res Result
		at  time.Time
	}
	done := make(chan outcome, 1)
	deep := make(chan struct{})
	go func() {
		res, err := e.Search(context.Background(), p, nil, lim, func(i Info) {
			infos = append(infos, i)
			if i.Depth == 5 {
				close(deep)
			}
		})
		if err != nil {
			t.Error(err)
		}
		done <- outcome{res, time.Now()}
	}()
	select {
	case o := <-done:
		t.Fatalf("a pondering search ended by itself: %+v", o.res)
	case <-deep: // past its depth limit
	}
	hit := time.Now()
	lim.Ponder.Hit()
	lim.Ponder.Hit() // a second hit does nothing
	o := <-done
	checkLegal(t, p, o.res.Move, "move")
	if d := o.at.Sub(hit); d > 5*time.Second { // generous for a loaded machine
		t.Errorf("ended %v after the hit of a search already past depth 3", d)
	}
	ones := 0
	for i, inf := range infos {
		if inf.Depth == 1 {
			ones++
		}
		if i > 0 && inf.Depth < infos[i-1].Depth {
			t.Errorf("depth falls from %d to %d: the search restarted", infos[i-1].Depth, inf.Depth)
		}
	}
	if ones != 1 || o.res.Info.Depth <= 3 {
		t.Errorf("%d depth-1 reports, last depth %d: want one, and pondering past depth 3", ones, o.res.Info.Depth)
	}
}

// TestPonderClockFromHit: after the hit the clock applies, counted from
// the hit: a search that pondered longer than half its planned time still
// thinks about that long after the hit. A stop while pondering answers at
// once with a legal move.
func TestPonderClockFromHit(t *testing.T) {
	if testing.Short() {
		t.Skip("takes two seconds")
	}
	p := startPosition(t, board.NameKatro)
	clock := Limits{HasClock: [2]bool{true, true}, Clock: [2]time.Duration{30 * time.Second, 30 * time.Second}}
	soft, hard := clock.budget(board.South) // 1 s and 4 s
	lim := clock
	lim.Ponder = NewPonder()
	done := make(chan time.Time, 1)
	go func() {
		res := runSearch(t, newEngine(t), p, nil, lim)
		checkLegal(t, p, res.Move, "move")
		done <- time.Now()
	}()
	time.Sleep(soft * 7 / 10) // past soft/2: a clock started with the search would end at once
	hit := time.Now()
	lim.Ponder.Hit()
	end := <-done
	if d := end.Sub(hit); d < soft*4/10 || d > hard+5*time.Second { // room for a loaded machine
		t.Errorf("ended %v after the hit; want at least %v (soft %v, hard %v)", d, soft*4/10, soft, hard)
	}
}

// TestPonderStop: a pondering search goes past its depth limit and, when
// stopped, answers with a legal move.
func TestPonderStop(t *testing.T) {
	p := startPosition(t, board.NameKatro)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lim := Limits{Depth: 2, Ponder: NewPonder()}
	res, err := newEngine(t).Search(ctx, p, nil, lim, func(i Info) {
		if i.Depth == 5 {
			cancel()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	checkLegal(t, p, res.Move, "stopped move")
	if res.Info.Depth < 5 {
		t.Errorf("pondered to depth %d only", res.Info.Depth)
	}
}

// TestPonderSkillBudget: a weakened search (Skill Level) keeps its node
// budget while it ponders and after the hit, counted from the start of the
// search, and still answers only after the hit.
func TestPonderSkillBudget(t *testing.T) {
	p := startPosition(t, board.NameKatro)
	const level = 3
	budget := SkillNodes(board.Katro, level)
	lim := Limits{Skill: &Skill{Level: level, Seed: 1}, Ponder: NewPonder()}
	e := newEngine(t)
	done := make(chan Result, 1)
	go func() {
		res, err := e.Search(context.Background(), p, nil, lim, nil)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	select {
	case res := <-done:
		t.Fatalf("a pondering search answered before the hit: %+v", res)
	case <-time.After(200 * time.Millisecond): // long enough to spend the budget
	}
	lim.Ponder.Hit()
	res := <-done
	checkLegal(t, p, res.Move, "move")
	// The budget is checked at every node; a search completes its first
	// iteration whatever the budget, which at the Katro start costs far
	// fewer nodes than the budget's slack allows.
	if res.Info.Nodes > budget+budget/2+5000 {
		t.Errorf("searched %d nodes; the level-%d budget is %d", res.Info.Nodes, level, budget)
	}
}
