package match

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// ResignRule ends a game both engines agree is decided: when the loser's
// engine has scored its position at −Score or below, and the winner's
// its own at Score or above, for Moves consecutive moves each, as
// cutechess-cli's -resign does with twosided=true. Scores are in
// centi-seeds (cp) from the mover's point of view; a mate score counts
// as beyond any margin.
type ResignRule struct {
	Moves int `json:"movecount"`
	Score int `json:"score"`
}

// DrawRule ends a game both engines score near zero: |score| at most
// Score for Moves consecutive moves each, counting only moves after the
// game's first Ply plies, as cutechess-cli's -draw does (with plies for
// its full moves: a Hoyito III turn may be several plies). A mate score
// is never near zero.
type DrawRule struct {
	Ply   int `json:"ply"`
	Moves int `json:"movecount"`
	Score int `json:"score"`
}

// ParseResign reads "movecount=K score=S" (key=value, spaces or commas).
func ParseResign(s string) (ResignRule, error) {
	var r ResignRule
	err := parseRule(s, "resign", "movecount=K score=CP", map[string]*int{"movecount": &r.Moves, "score": &r.Score})
	if err == nil && (r.Moves < 1 || r.Score < 1) {
		err = fmt.Errorf("resign %q: want movecount and score, both above 0", s)
	}
	return r, err
}

// ParseDraw reads "ply=P movecount=K score=S" (ply defaults to 0).
func ParseDraw(s string) (DrawRule, error) {
	var d DrawRule
	err := parseRule(s, "draw", "ply=P movecount=K score=CP", map[string]*int{"ply": &d.Ply, "movecount": &d.Moves, "score": &d.Score})
	if err == nil && (d.Moves < 1 || d.Score < 0) {
		err = fmt.Errorf("draw %q: want movecount above 0 and score 0 or more", s)
	}
	return d, err
}

// parseRule reads the key=value fields of an adjudication rule into
// fields, each a whole number of 0 or more.
func parseRule(s, what, want string, fields map[string]*int) error {
	pairs, err := timecontrol.KeyValues(s, what, want)
	if err != nil {
		return err
	}
	for _, kv := range pairs {
		p, ok := fields[strings.ToLower(kv[0])]
		if !ok {
			return fmt.Errorf("%s %q: unknown key %q (want %s)", what, s, kv[0], want)
		}
		n, err := strconv.ParseUint(kv[1], 10, 31)
		if err != nil {
			return fmt.Errorf("%s %q: %s=%q is not a whole number", what, s, kv[0], kv[1])
		}
		*p = int(n)
	}
	return nil
}

// String writes the rule as ParseResign reads it.
func (r ResignRule) String() string { return fmt.Sprintf("movecount=%d score=%d", r.Moves, r.Score) }

// String writes the rule as ParseDraw reads it.
func (d DrawRule) String() string {
	return fmt.Sprintf("ply=%d movecount=%d score=%d", d.Ply, d.Moves, d.Score)
}

// adjudicator follows a game's scores for the adjudication rules.
type adjudicator struct {
	resign *ResignRule
	draw   *DrawRule
	plies  int
	// Consecutive moves of each side's engine scoring its position lost,
	// won, and near zero.
	lost, won, level [2]int
}

// scoreOf reads an engine's score, from the mover's view, as a number
// of centi-seeds: a mate is worth more than any margin. ok is false when
// the engine gave none.
func scoreOf(info client.Info) (cp int, mate, ok bool) {
	switch {
	case !info.HasScore:
		return 0, false, false
	case info.IsMate && info.Mate > 0:
		return 1 << 30, true, true
	case info.IsMate:
		return -(1 << 30), true, true
	}
	return info.CP, false, true
}

// add counts a move side's engine made with info its last report, and
// returns the result the rules adjudicate and why, when they do.
func (a *adjudicator) add(side board.Side, info client.Info) (board.Result, string, bool) {
	a.plies++
	cp, mate, ok := scoreOf(info)
	step := func(n *int, hold bool) {
		if ok && hold {
			*n++
		} else {
			*n = 0
		}
	}
	if r := a.resign; r != nil {
		step(&a.lost[side], cp <= -r.Score)
		step(&a.won[side], cp >= r.Score)
		for _, w := range []board.Side{board.South, board.North} {
			if a.won[w] >= r.Moves && a.lost[w.Other()] >= r.Moves {
				res := board.SouthWins
				if w == board.North {
					res = board.NorthWins
				}
				return res, fmt.Sprintf("resign adjudication: both engines scored %s ahead by %d or more for %d moves each", w, r.Score, r.Moves), true
			}
		}
	}
	if d := a.draw; d != nil {
		step(&a.level[side], a.plies > d.Ply && !mate && cp >= -d.Score && cp <= d.Score)
		if a.level[board.South] >= d.Moves && a.level[board.North] >= d.Moves {
			return board.Draw, fmt.Sprintf("draw adjudication: both engines scored within %d of zero for %d moves each after ply %d", d.Score, d.Moves, d.Ply), true
		}
	}
	return board.None, "", false
}
