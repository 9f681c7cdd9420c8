package main

import (
	"fmt"
	"slices"

	"github.com/sower-engine/sower/bench/record"
)

// report is what comparing a match with adjudication to the same match
// played out says.
type report struct {
	Games       int // games in both files
	Adjudicated int // games the first file ends by adjudication
	// Plies and PlayedPlies are the plies of all the games with
	// adjudication and played out.
	Plies, PlayedPlies int
	// Agree and Differ are the games adjudicated whose result is the one
	// played out, and those whose result is not.
	Agree  int
	Differ []string
	// Diverged are games whose moves are not those of the game played
	// out (the match was not played again game for game): they are not
	// compared.
	Diverged []int
}

// Saving returns the share of the played-out plies that adjudication
// saved.
func (r report) Saving() float64 {
	if r.PlayedPlies == 0 {
		return 0
	}
	return 1 - float64(r.Plies)/float64(r.PlayedPlies)
}

// compare matches the games of a match with adjudication to those of the
// same match without (by game number) and checks each adjudicated game
// against its game played out: the same moves up to the adjudication,
// and the same result. A game not adjudicated must be the same game in
// both. A game number in one file only is an error.
func compare(adjudicated, played []record.GameRecord) (report, error) {
	var r report
	byGame := map[int]*record.GameRecord{}
	for i := range played {
		byGame[played[i].Game] = &played[i]
	}
	if len(byGame) != len(played) || len(played) != len(adjudicated) {
		return r, fmt.Errorf("%d games adjudicated and %d played out (game numbers must match one to one)", len(adjudicated), len(played))
	}
	for i := range adjudicated {
		a := &adjudicated[i]
		b, ok := byGame[a.Game]
		if !ok {
			return r, fmt.Errorf("game %d is not among the games played out", a.Game)
		}
		r.Games++
		r.Plies += len(a.Moves)
		r.PlayedPlies += len(b.Moves)
		if !samePrefix(a.Moves, b.Moves) || (a.Termination != record.Adjudication && len(a.Moves) != len(b.Moves)) {
			r.Diverged = append(r.Diverged, a.Game)
			continue
		}
		if a.Termination != record.Adjudication {
			continue
		}
		r.Adjudicated++
		if a.Result == b.Result {
			r.Agree++
			continue
		}
		r.Differ = append(r.Differ, fmt.Sprintf("game %d: adjudicated %s at ply %d {%s}, played out %s at ply %d {%s}",
			a.Game, a.Result, len(a.Moves), a.Reason, b.Result, len(b.Moves), b.Reason))
	}
	slices.Sort(r.Diverged)
	slices.Sort(r.Differ)
	return r, nil
}

// samePrefix reports whether the moves of a are the first moves of b.
func samePrefix(a, b []record.MoveRecord) bool {
	if len(a) > len(b) {
		return false
	}
	for i := range a {
		if a[i].Move != b[i].Move {
			return false
		}
	}
	return true
}
