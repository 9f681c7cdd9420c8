package search

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

// endingRules are the option sets the ending tests play: every Hoyito III
// option, with the limit at the default, small (so that random games reach
// it) and off; Katro with the default and a small limit.
func endingRules(family board.Family) []board.Rules {
	if family == board.Katro {
		return []board.Rules{board.DefaultRules(), {NoCaptureLimit: 9}, {}}
	}
	var out []board.Rules
	for _, cs := range []board.CaptureSide{board.CaptureAny, board.CaptureOpponent} {
		for _, lf := range []board.LastFour{board.LastFourCapturer, board.LastFourSouth, board.LastFourNorth} {
			for _, rep := range []board.Repetition{board.RepetitionThreefold, board.RepetitionOff} {
				for _, limit := range []int{board.DefaultNoCaptureLimit, 9, 0} {
					if rep == board.RepetitionOff && limit == 0 {
						continue // refused: nothing would end a game
					}
					out = append(out, board.Rules{CaptureSide: cs, LastFour: lf, Repetition: rep, NoCaptureLimit: limit})
				}
			}
		}
	}
	return out
}

// endingCase is a position with a history, from a random game.
type endingCase struct {
	pos     board.Position
	history []uint64
}

// endingCases plays random games in v and returns every position with its
// history; a quarter of them get two more occurrences of their own key in
// the history, so that repetition ends them (Repetition threefold).
func endingCases(rng *rand.Rand, v *board.Variant, games int) []endingCase {
	var out []endingCase
	for g := 0; g < games; g++ {
		p := v.Start()
		var hist []uint64
		for ply := 0; ply < 400; ply++ {
			h := append([]uint64(nil), hist...)
			if rng.IntN(4) == 0 {
				for range 2 {
					i := rng.IntN(len(h) + 1)
					h = append(h[:i], append([]uint64{p.Key()}, h[i:]...)...)
				}
			}
			out = append(out, endingCase{p, h})
			if p.Status(hist).Over() {
				break
			}
			ms := p.LegalMoves()
			hist = append(hist, p.Key())
			p.Play(ms[rng.IntN(len(ms))])
		}
	}
	return out
}

// TestEndingAgreesWithTheOldEnds checks board.Position.Ending, and the
// scores the search and the solver make of it, against the ways the game's
// end was judged before it (kept here as reference implementations): the
// board's Status, the search's node, quiescence and convention ends, and
// the solver's, on positions of random games of every game and option set,
// with histories that repeat and clocks up to the limit.
func TestEndingAgreesWithTheOldEnds(t *testing.T) {
	if raceEnabled {
		t.Skip("no goroutines, some tenfold slower under the race detector: checked without it")
	}
	rng := rand.New(rand.NewPCG(25, 7))
	checked, over := 0, 0
	for _, name := range board.Names() {
		v0, err := board.New(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range endingRules(v0.Family()) {
			v, err := v0.WithRules(r)
			if err != nil {
				t.Fatal(err)
			}
			games := 12
			if testing.Short() {
				games = 3
			}
			for _, c := range endingCases(rng, v, games) {
				checked++
				if checkEnding(t, fmt.Sprintf("%s %+v", name, r), c) {
					over++
				}
				if t.Failed() {
					return
				}
			}
		}
	}
	t.Logf("%d positions, %d of them finished games", checked, over)
	if over == 0 || checked < 1000 {
		t.Fatalf("%d positions, %d finished: the sample misses game ends", checked, over)
	}
}

// checkEnding compares the ways of judging one position's end and reports
// whether the game is over there.
func checkEnding(t *testing.T, what string, c endingCase) bool {
	t.Helper()
	p := &c.pos
	v := p.Variant()
	rep := board.Repeats(p.Key(), c.history, 2)
	legal := len(p.LegalMoves()) > 0
	known := board.NoMoves
	if legal {
		known = board.SomeMoves
	}
	want := refStatus(p, c.history)
	if got := p.Ending(rep, known); got != want {
		t.Errorf("%s: %s: Ending %+v, Status %+v", what, p, got, want)
	}
	got := p.Ending(rep, board.MovesUnknown)
	if !got.Over() && !legal {
		got = p.Ending(rep, board.NoMoves)
	}
	if got != want {
		t.Errorf("%s: %s: Ending with the moves unknown %+v, Status %+v", what, p, got, want)
	}
	s := &searcher{family: v.Family(), limit: v.Rules().NoCaptureLimit}
	repeated := rep && v.Rules().Repetition == board.RepetitionThreefold
	for _, ply := range []int{0, 3} {
		old, oldOver := refSearchEnd(s, p, ply, repeated, legal)
		if got.Over() != oldOver || (oldOver && s.endScore(p, got, ply) != old) {
			t.Errorf("%s: %s at ply %d: the search's old end %v (%d), Ending %+v scored %d", what, p, ply, oldOver, old, got, s.endScore(p, got, ply))
		}
	}
	sv := &solver{family: v.Family(), limit: v.Rules().NoCaptureLimit, repOff: v.Rules().Repetition == board.RepetitionOff}
	sv.keys = c.history
	if old, oldOver := refSolveEnd(sv, p, legal); got.Over() != oldOver || (oldOver && got.Margin(p.Side()) != old) {
		t.Errorf("%s: %s: the solver's old end %v (%d), Ending %+v, margin %d", what, p, oldOver, old, got, got.Margin(p.Side()))
	}
	return want.Over()
}

// refStatus is the board's Status as it was written before Ending.
func refStatus(p *board.Position, history []uint64) board.Status {
	v := p.Variant()
	drawnBy := func() board.Reason {
		if lim := v.Rules().NoCaptureLimit; lim > 0 && p.Clock() >= lim {
			return board.ReasonLimit
		}
		if v.Rules().Repetition == board.RepetitionThreefold && board.Repeats(p.Key(), history, 2) {
			return board.ReasonRepeat
		}
		return board.Ongoing
	}
	seedResult := func(q *board.Position, why board.Reason) board.Status {
		st := board.Status{Reason: why, Seeds: [2]int{q.Captured(board.South), q.Captured(board.North)}}
		switch {
		case st.Seeds[0] > st.Seeds[1]:
			st.Result = board.SouthWins
		case st.Seeds[1] > st.Seeds[0]:
			st.Result = board.NorthWins
		default:
			st.Result = board.Draw
		}
		return st
	}
	if v.Family() == board.Katro {
		if !p.HasLegalMove() {
			if p.Side() == board.South {
				return board.Status{Result: board.NorthWins, Reason: board.ReasonNoMove}
			}
			return board.Status{Result: board.SouthWins, Reason: board.ReasonNoMove}
		}
		if why := drawnBy(); why != board.Ongoing {
			return board.Status{Result: board.Draw, Reason: why}
		}
		return board.Status{}
	}
	if p.OnBoard() == 0 {
		// The reason a game ended is kept in the position; Status reads it.
		return seedResult(p, p.Status(nil).Reason)
	}
	if why := drawnBy(); why != board.Ongoing {
		q := *p
		q.AwardRows(why)
		return seedResult(&q, why)
	}
	return board.Status{}
}

// refSearchEnd is the search's judgement of a game end as it was written
// before Ending: at the top of a node (an empty Hoyito III board, then the
// no-capture limit or repetition), and a Katro player without a legal move
// once the moves are made. It returns the score and whether the game ended.
func refSearchEnd(s *searcher, pos *board.Position, ply int, repeated, legal bool) (Score, bool) {
	if s.family == board.Hoyito && pos.OnBoard() == 0 {
		me := pos.Side()
		return HoyitoEnd(pos.Captured(me)-pos.Captured(me.Other()), ply), true
	}
	if (s.limit > 0 && pos.Clock() >= s.limit) || repeated {
		me := pos.Side()
		if s.family == board.Katro {
			if !pos.HasLegalMove() {
				return -KatroWin(ply), true
			}
			return 0, true
		}
		mine := pos.Captured(me) + pos.SeedsOf(me)
		theirs := pos.Captured(me.Other()) + pos.SeedsOf(me.Other())
		return HoyitoEnd(mine-theirs, ply), true
	}
	if !legal {
		return -KatroWin(ply), true
	}
	return 0, false
}

// refSolveEnd is the solver's judgement of a game end as it was written
// before Ending, as a margin for the side to move, and whether the game
// ended.
func refSolveEnd(s *solver, p *board.Position, legal bool) (int, bool) {
	if s.family == board.Hoyito && p.OnBoard() == 0 {
		me := p.Side()
		return p.Captured(me) - p.Captured(me.Other()), true
	}
	if (s.limit > 0 && p.Clock() >= s.limit) || (!s.repOff && board.Repeats(p.Key(), s.keys, 2)) {
		if s.family == board.Katro {
			if !p.HasLegalMove() {
				return -1, true
			}
			return 0, true
		}
		me := p.Side()
		return p.Captured(me) + p.SeedsOf(me) - p.Captured(me.Other()) - p.SeedsOf(me.Other()), true
	}
	if !legal {
		return -1, true
	}
	return 0, false
}
