package main

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// proofJudgeMiB is the table size of each solver of a dfpnJudge: a game's
// searches at the default budget fill a small part of it.
const proofJudgeMiB = 4

// Defaults of --adjudicate-nodes and --adjudicate-every, measured in
// docs/journal/2026-12-06-adjudication-savings.md: about as much df-pn
// work a game as 2,000-node engines' own, for a third or more of the
// plies.
const (
	defaultAdjudicateNodes = 500
	defaultAdjudicateEvery = 4
)

// dfpnJudge adjudicates Katro games by a bounded proof-number search
// (--adjudicate-proven): at the game's first ply and every every plies
// after it, each side's win is asked of df-pn within nodes nodes, with the
// game's history (so that the repetition rule and the no-capture clock
// are those of the game), and a proven win ends the game. Each game
// searches with a solver of its own, taken from a pool for the match,
// and cleared at the game's first search: its table carries over between
// the searches of one game, and a game's adjudications do not depend on
// the other games or on their order. It is safe for concurrent use.
type dfpnJudge struct {
	nodes uint64
	every int

	mu   sync.Mutex
	free []*gameProver // the solvers no game is using now
}

// gameProver is a solver and the game it last searched.
type gameProver struct {
	s *dfpn.Solver
	// keys are the history of the position it last searched, with that
	// position's key: the game's next searches have them as their
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
	gp, err := j.take(history)
	if err != nil {
		return board.None, "", false
	}
	defer j.give(gp, history, p.Key())
	var nodes uint64
	for _, attacker := range [2]board.Side{p.Side(), p.Side().Other()} {
		b, n, err := gp.s.ProveWithin(context.Background(), p, history, attacker, j.nodes, nil)
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

// take returns the solver that last searched the game history continues,
// or another, cleared, or a new one when every solver is in use.
func (j *dfpnJudge) take(history []uint64) (*gameProver, error) {
	j.mu.Lock()
	i := slices.IndexFunc(j.free, func(gp *gameProver) bool {
		return len(gp.keys) <= len(history) && slices.Equal(gp.keys, history[:len(gp.keys)])
	})
	var gp *gameProver
	switch {
	case i >= 0:
		gp = j.free[i]
		j.free = slices.Delete(j.free, i, i+1)
	case len(j.free) > 0:
		gp = j.free[len(j.free)-1]
		j.free = j.free[:len(j.free)-1]
	}
	j.mu.Unlock()
	if i >= 0 {
		return gp, nil
	}
	if gp == nil {
		s, err := dfpn.New(dfpn.Config{HashMiB: proofJudgeMiB})
		if err != nil {
			return nil, err
		}
		return &gameProver{s: s}, nil
	}
	gp.s.Clear() // another game's
	gp.keys = gp.keys[:0]
	return gp, nil
}

// give returns gp to the pool after searching the position of key after
// history.
func (j *dfpnJudge) give(gp *gameProver, history []uint64, key uint64) {
	gp.keys = append(append(gp.keys[:0], history...), key)
	j.mu.Lock()
	j.free = append(j.free, gp)
	j.mu.Unlock()
}
