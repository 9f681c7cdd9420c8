package review

import (
	"github.com/sower-engine/sower/bench/review/marks"
	"github.com/sower-engine/sower/board"
)

// The marks, from the best move to the worst (package bench/review/marks,
// which marks moves without a search).
const (
	Best       = marks.Best
	Good       = marks.Good
	Inaccuracy = marks.Inaccuracy
	Mistake    = marks.Mistake
	Blunder    = marks.Blunder
)

// Marks returns the marks in order, best first.
func Marks() []string { return marks.Marks() }

// Thresholds are the smallest losses marked an inaccuracy, a mistake and a
// blunder: in points of expected score (0 to 1) for Katro, in seeds for
// Hoyito III.
type Thresholds = marks.Thresholds

// ThresholdsFor returns the thresholds of family f (see the package
// documentation for why).
func ThresholdsFor(f board.Family) Thresholds { return marks.ThresholdsFor(f) }
