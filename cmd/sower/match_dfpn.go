package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// proofJudgeMiB is the table size of each solver of a dfpnJudge: a game's
// searches at the default budget fill a small part of it.
const proofJudgeMiB = 4

// Defaults of --adjudicate-nodes and --adjudicate-every, measured in
// docs/journal/2026-12-06-adjudication-savings.md: with engines of 2,000
// and 4,000 nodes a move, the search costs a match about a quarter more
// processor time and saves 21% (Katro 6x6) to 38% (katro-4x6) of its
// plies after four random plies; 1,000 nodes at every ply save 32% and
// 49% for more than twice the time.
const (
	defaultAdjudicateNodes = 500
	defaultAdjudicateEvery = 4
)

// dfpnJudge adjudicates Katro games by a bounded proof-number search
// (--adjudicate-proven): at the game's first ply and every every plies
// after it, each side's win is asked of df-pn within nodes nodes, with the
// game's history (so that the repetition rule and the no-capture clock
// are those of the game), and a proven win ends the game. A judge serves
// one game worker (match.Config.NewProven): its games come one at a time,
// each move in order, and it keeps its solver's table from one search of
// a game to the next, cleared at each game's first search, so that a
// game's adjudications depend neither on the other games nor on their
// order. It is not safe for concurrent use.
type dfpnJudge struct {
	nodes uint64
	every int
	s     *dfpn.Solver // made at the first search
	// keys are the history of the position last searched, with that
	// position's key: the same game's next searches have them as their
	// history's start.
	keys []uint64
}

// newDfpnJudge returns a judge that searches nodes nodes for each
// side's win, at the first ply and every every plies after it.
func newDfpnJudge(nodes uint64, every int) *dfpnJudge {
	return &dfpnJudge{nodes: nodes, every: every}
}

// judge returns the result of p, reached after the positions whose keys
// are history, when df-pn proves a side's win within the budget.
func (j *dfpnJudge) judge(p board.Position, history []uint64) (board.Result, string, bool) {
	if p.Variant().Family() != board.Katro || (len(history)-1)%j.every != 0 {
		return board.None, "", false
	}
	if err := j.ready(history); err != nil {
		return board.None, "", false
	}
	j.keys = append(append(j.keys[:0], history...), p.Key())
	var nodes uint64
	for _, attacker := range [2]board.Side{p.Side(), p.Side().Other()} {
		b, n, err := j.s.ProveWithin(context.Background(), p, history, attacker, j.nodes, nil)
		nodes += n
		if err != nil {
			return board.None, "", false
		}
		if b.PN == 0 {
			res := board.SouthWins
			if attacker == board.North {
				res = board.NorthWins
			}
			return res, fmt.Sprintf("proof adjudication: df-pn proves %s wins within %d plies (%d nodes)", attacker, b.Plies, nodes), true
		}
	}
	return board.None, "", false
}

// ready makes the solver at the first search, and clears its table when
// history does not continue the game last searched.
func (j *dfpnJudge) ready(history []uint64) error {
	if j.s == nil {
		s, err := dfpn.New(dfpn.Config{HashMiB: proofJudgeMiB})
		if err != nil {
			return err
		}
		j.s = s
		return nil
	}
	if len(j.keys) > len(history) || !slices.Equal(j.keys, history[:len(j.keys)]) {
		j.s.Clear() // another game's
	}
	return nil
}
