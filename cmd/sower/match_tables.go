package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/tables"
)

// tableJudge adjudicates Hoyito III games by the endgame tables
// (--tables): a position inside them ends with the result they give under
// the game's own rules. It holds a set for every LastFour setting the
// match's games use (a traditional match plays capturer and a fixed
// player).
type tableJudge struct {
	sets []*tables.Tables
}

// openTableJudge opens the tables of dir for every rule set the match's
// games are played under: v's, and with traditional the capturer and the
// fixed LastFour sets both. A directory without tables for them is
// refused, naming the option set wanted and those the directory holds.
func openTableJudge(dir string, v *board.Variant, traditional bool) (*tableJudge, error) {
	if v.Family() != board.Hoyito {
		return nil, usagef("--tables: endgame tables exist for hoyito3 only, not %s", v.Name())
	}
	rules := []board.Rules{v.Rules()}
	if traditional {
		fixed := v.Rules()
		fixed.LastFour = board.LastFourSouth
		capturer := v.Rules()
		capturer.LastFour = board.LastFourCapturer
		rules = []board.Rules{capturer, fixed}
	}
	j := &tableJudge{}
	for _, r := range rules {
		rv, err := board.NewWithRules(v.Name(), r)
		if err != nil {
			j.close()
			return nil, err
		}
		tb, err := openTableDir("--tables", dir, rv)
		if err != nil {
			j.close()
			if held := heldTableSets(dir); len(held) > 0 {
				return nil, usagef("%v; the match's rules need %s (CaptureSide %s, LastFour %s, NoCaptureLimit %d), and %s holds only %s",
					err, tables.OptionsFor(r), r.CaptureSide, r.LastFour, r.NoCaptureLimit, dir, strings.Join(held, ", "))
			}
			return nil, err
		}
		j.sets = append(j.sets, tb)
	}
	return j, nil
}

// heldTableSets names the option sets whose 8-seed layer dir holds, such
// as "any-capturer-limit200".
func heldTableSets(dir string) []string {
	paths, _ := filepath.Glob(filepath.Join(dir, "hoyito3-*-08.sowtb"))
	var out []string
	for _, p := range paths {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), "hoyito3-"), "-08.sowtb")
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// close unmaps the tables.
func (j *tableJudge) close() {
	for _, tb := range j.sets {
		tb.Close()
	}
	j.sets = nil
}

// top returns the largest layer every set holds.
func (j *tableJudge) top() int {
	top := tables.MaxSeeds
	for _, tb := range j.sets {
		top = min(top, tb.Top())
	}
	return top
}

// judge returns the result of p, reached after the positions whose keys
// are history, when the tables know it exactly under p's rules: the final
// margin at p's clock under Repetition off; under threefold repetition the
// bounds when they meet and the clock leaves time for their distances,
// and only when no position since the last capture has occurred twice
// (then the forcing play cannot meet a third occurrence; see
// tables.ExactMargin). It is safe for concurrent use.
func (j *tableJudge) judge(p board.Position, history []uint64) (board.Result, string, bool) {
	v := p.Variant()
	i := slices.IndexFunc(j.sets, func(tb *tables.Tables) bool { return tb.Fits(v) })
	if i < 0 {
		return board.None, "", false
	}
	threefold := v.Rules().Repetition == board.RepetitionThreefold
	if threefold && secondSinceCapture(history, p.Clock()) {
		return board.None, "", false
	}
	margin, ok := j.sets[i].ExactMargin(&p)
	if !ok {
		return board.None, "", false
	}
	// margin is the mover's final seeds minus the opponent's; every seed
	// ends with one of them.
	total := p.OnBoard() + p.Captured(board.South) + p.Captured(board.North)
	mover := (total + margin) / 2
	seeds := [2]int{mover, total - mover}
	if p.Side() == board.North {
		seeds = [2]int{total - mover, mover}
	}
	res := board.Draw
	switch {
	case seeds[0] > seeds[1]:
		res = board.SouthWins
	case seeds[1] > seeds[0]:
		res = board.NorthWins
	}
	rule := "exact under Repetition off at the no-capture clock"
	if threefold {
		rule = "their bounds meet within the no-capture clock"
	}
	return res, fmt.Sprintf("tables adjudication: %d seeds on the board, the endgame tables give %d-%d (%s)",
		p.OnBoard(), seeds[0], seeds[1], rule), true
}

// secondSinceCapture reports whether a position of the stretch since the
// last capture, the last clock keys of history, occurs twice in it.
func secondSinceCapture(history []uint64, clock int) bool {
	stretch := history[len(history)-min(clock, len(history)):]
	seen := make(map[uint64]bool, len(stretch))
	for _, k := range stretch {
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}
