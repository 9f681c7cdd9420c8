package marks

import (
	"math"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
)

// The marks, from the best move to the worst.
const (
	Best       = "best"
	Good       = "good"
	Inaccuracy = "inaccuracy"
	Mistake    = "mistake"
	Blunder    = "blunder"
)

// Marks returns the marks in order, best first.
func Marks() []string { return []string{Best, Good, Inaccuracy, Mistake, Blunder} }

// Thresholds are the smallest losses marked an inaccuracy, a mistake and a
// blunder: in points of expected score (0 to 1) for Katro, in seeds for
// Hoyito III.
type Thresholds struct {
	Inaccuracy, Mistake, Blunder float64
}

// ThresholdsFor returns the thresholds of family f (package bench/review
// says why).
func ThresholdsFor(f board.Family) Thresholds {
	if f == board.Hoyito {
		return Thresholds{Inaccuracy: 2, Mistake: 4, Blunder: 8}
	}
	return Thresholds{Inaccuracy: 0.05, Mistake: 0.10, Blunder: 0.15}
}

// Mark returns the mark of a loss by the thresholds alone: good, an
// inaccuracy, a mistake or a blunder.
func (t Thresholds) Mark(loss float64) string {
	switch {
	case loss >= t.Blunder:
		return Blunder
	case loss >= t.Mistake:
		return Mistake
	case loss >= t.Inaccuracy:
		return Inaccuracy
	}
	return Good
}

// Outcome is a proven result for one side: a win, a draw or a loss, or
// Unproven when the score is not proven.
type Outcome int8

// The outcomes.
const (
	Unproven Outcome = iota
	ProvenLoss
	ProvenDraw
	ProvenWin
)

// Other returns the outcome for the other side when o is one side's.
func (o Outcome) Other() Outcome {
	switch o {
	case ProvenWin:
		return ProvenLoss
	case ProvenLoss:
		return ProvenWin
	}
	return o
}

// Rank returns a mark's place in Marks (0 for best, or for a mark that is
// none of them).
func Rank(m string) int {
	for i, x := range Marks() {
		if x == m {
			return i
		}
	}
	return 0
}

// worse returns the worse of two marks.
func worse(a, b string) string {
	if Rank(b) > Rank(a) {
		return b
	}
	return a
}

// Move marks a move that was not the engine's, by its loss and by the
// proven results for the mover before and after it: giving up a proven
// win for a proven draw or loss, or a proven draw for a proven loss, is a
// blunder, and giving up a proven win for an unproven position at least a
// mistake.
func Move(t Thresholds, loss float64, before, after Outcome) string {
	m := t.Mark(loss)
	switch {
	case before == ProvenWin && (after == ProvenDraw || after == ProvenLoss),
		before == ProvenDraw && after == ProvenLoss:
		return Blunder
	case before == ProvenWin && after == Unproven:
		return worse(m, Mistake)
	}
	return m
}

// View is the engine's view of a position of the game, as a review
// judges it.
type View struct {
	Side board.Side // to move
	// Value is the position's worth to the side to move: Katro its
	// expected score (0 to 1, draws counting half), Hoyito III the final
	// margin in seeds.
	Value float64
	// Outcome is the proven result for the side to move, if any.
	Outcome Outcome
	// Move is the engine's best move and Line its line, Move first
	// (none in a finished game).
	Move string
	Line []string
	// CP or Mate is the score from South's view as a record keeps it
	// (record.MoveReview), Proven whether it is a proven result, Depth
	// the search's depth (0 for a finished game).
	CP, Mate *int
	Proven   bool
	Depth    int
}

// valueFor returns the view's value to side s.
func (v *View) valueFor(f board.Family, s board.Side) float64 {
	if v.Side == s {
		return v.Value
	}
	if f == board.Hoyito {
		return -v.Value
	}
	return 1 - v.Value
}

// outcomeFor returns the view's outcome for side s.
func (v *View) outcomeFor(s board.Side) Outcome {
	if v.Side == s {
		return v.Outcome
	}
	return v.Outcome.Other()
}

// Judge reviews move played (as written), made between the positions of
// views before and after. The engine's own move is best and loses
// nothing (a difference between the two searches is theirs, not the
// move's); any other is marked by Move, with the better move and its line
// unless it is good.
func Judge(f board.Family, t Thresholds, before, after *View, played string) record.MoveReview {
	s := before.Side
	r := record.MoveReview{CP: after.CP, Mate: after.Mate, Proven: after.Proven, Depth: after.Depth}
	if played == before.Move {
		r.Mark = Best
		return r
	}
	loss := max(0, before.valueFor(f, s)-after.valueFor(f, s))
	r.Loss = RoundLoss(f, loss)
	r.Mark = Move(t, loss, before.outcomeFor(s), after.outcomeFor(s))
	if r.Mark != Good {
		r.Best = before.Move
		r.Line = append([]string(nil), before.Line...)
	}
	return r
}

// RoundLoss rounds a loss for the record: Katro to a thousandth of a
// point of expected score, Hoyito III to a hundredth of a seed.
func RoundLoss(f board.Family, loss float64) float64 {
	if f == board.Hoyito {
		return math.Round(loss*100) / 100
	}
	return math.Round(loss*1000) / 1000
}

// Counts returns the number of plies of each mark by the side that
// played them (indexed by board.Side), for plies reviewed from start
// along moves.
func Counts(start board.Position, moves []board.Move, plies []record.MoveReview) [2]map[string]int {
	c := [2]map[string]int{{}, {}}
	p := start
	for i, pr := range plies {
		if i >= len(moves) {
			break
		}
		c[p.Side()][pr.Mark]++
		p, _ = p.After(moves[i])
	}
	return c
}
