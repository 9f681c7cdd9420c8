package review

import "github.com/sower-engine/sower/board"

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

// ThresholdsFor returns the thresholds of family f (see the package
// documentation for why).
func ThresholdsFor(f board.Family) Thresholds {
	if f == board.Hoyito {
		return Thresholds{Inaccuracy: 2, Mistake: 4, Blunder: 8}
	}
	return Thresholds{Inaccuracy: 0.05, Mistake: 0.10, Blunder: 0.15}
}

// mark returns the mark of a loss.
func (t Thresholds) mark(loss float64) string {
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

// outcome is a proven result for one side: a win, a draw or a loss, or
// none when the score is not proven.
type outcome int8

const (
	unproven outcome = iota
	provenLoss
	provenDraw
	provenWin
)

// worse returns the worse of two marks.
func worse(a, b string) string {
	rank := func(m string) int {
		for i, x := range Marks() {
			if x == m {
				return i
			}
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// markMove marks a move that was not the engine's: by its loss, and by
// the proven results before and after it (see the package documentation).
func markMove(t Thresholds, loss float64, before, after outcome) string {
	m := t.mark(loss)
	switch {
	case before == provenWin && (after == provenDraw || after == provenLoss),
		before == provenDraw && after == provenLoss:
		return Blunder
	case before == provenWin && after == unproven:
		return worse(m, Mistake)
	}
	return m
}
