package gui

import (
	"math"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/review/marks"
	"github.com/sower-engine/sower/board"
)

// hoyitoPoints is what a seed of final margin lost counts, in points of
// win chance, for a Hoyito III move's accuracy: the game's thresholds (2,
// 4 and 8 seeds for an inaccuracy, a mistake and a blunder) then fall
// near Katro's (5, 10 and 15 points).
const hoyitoPoints = 2.5

// moveAccuracy is a move's accuracy, 0 to 100, as lichess computes it
// from the mover's win chance before and after the move: drop is what
// the mover lost, in points of win chance (its expected score, draws
// counting half, from 0 to 100), and the accuracy is 103.1668 e^(−0.04354
// drop) − 3.1669, plus lichess's bonus of 1 for the search's own
// uncertainty, within 0 and 100. A move the engine chose itself (marked
// best) is 100.
func moveAccuracy(f board.Family, pr record.MoveReview) float64 {
	if pr.Mark == marks.Best {
		return 100
	}
	drop := 100 * pr.Loss
	if f == board.Hoyito {
		drop = hoyitoPoints * pr.Loss
	}
	a := 103.1668100711649*math.Exp(-0.04354415386753951*max(drop, 0)) - 3.166924740191411 + 1
	return max(0, min(100, a))
}

// accuracies is each side's accuracy over the plies reviewed (South
// first): the mean of its moves' accuracies (moveAccuracy); nil for a
// side with no move reviewed.
func accuracies(f board.Family, start board.Position, moves []board.Move, plies []record.MoveReview) [2]*float64 {
	return sideMeans(start, moves, plies, func(pr record.MoveReview) float64 { return moveAccuracy(f, pr) })
}

// moveLoss is what a move lost, in the unit the page writes losses in:
// points of win chance (0 to 100) in Katro, seeds of final margin in
// Hoyito III; 0 for the engine's own move, as its accuracy is 100.
func moveLoss(f board.Family, pr record.MoveReview) float64 {
	if pr.Mark == marks.Best {
		return 0
	}
	if f == board.Hoyito {
		return max(pr.Loss, 0)
	}
	return 100 * max(pr.Loss, 0)
}

// averageLosses is each side's average loss over the plies reviewed
// (South first), in moveLoss's unit: the mean of its moves' losses, as
// lichess's average centipawn loss; nil for a side with no move
// reviewed.
func averageLosses(f board.Family, start board.Position, moves []board.Move, plies []record.MoveReview) [2]*float64 {
	return sideMeans(start, moves, plies, func(pr record.MoveReview) float64 { return moveLoss(f, pr) })
}

// sideMeans is, for each side (South first), the mean of per over its
// moves among the plies reviewed (those with a move, from start); nil for
// a side with no move reviewed.
func sideMeans(start board.Position, moves []board.Move, plies []record.MoveReview, per func(record.MoveReview) float64) [2]*float64 {
	var sum [2]float64
	var n [2]int
	p := start
	for i, pr := range plies {
		if i >= len(moves) {
			break
		}
		sum[p.Side()] += per(pr)
		n[p.Side()]++
		p, _ = p.After(moves[i])
	}
	var mean [2]*float64
	for s := range 2 {
		if n[s] > 0 {
			m := sum[s] / float64(n[s])
			mean[s] = &m
		}
	}
	return mean
}
