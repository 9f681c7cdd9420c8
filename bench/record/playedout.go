package record

import (
	"fmt"
	"slices"
)

// PlayedOut is what comparing a match's games with those of the same
// match played out without adjudication says (ComparePlayedOut).
type PlayedOut struct {
	Games       int // games compared
	Adjudicated int // games ended by adjudication
	// Plies and PlayedPlies are the plies of all the games, with
	// adjudication and played out.
	Plies, PlayedPlies int
	// Agree counts the adjudicated games whose result is the one played
	// out.
	Agree int
	// Differ are the games that are not as played out, by game number:
	// an adjudicated result that differs, or moves that do not follow
	// the game played out.
	Differ []Difference
}

// Difference is a game of a match that is not as the same game played
// out.
type Difference struct {
	Game int
	// Diverged is set when the moves are not those of the game played
	// out (the match was not played again game for game), and the
	// results were not compared.
	Diverged bool
	Detail   string // what differs, for a person
}

// Saving returns the share of the played-out plies that adjudication
// saved.
func (p PlayedOut) Saving() float64 {
	if p.PlayedPlies == 0 {
		return 0
	}
	return 1 - float64(p.Plies)/float64(p.PlayedPlies)
}

// ComparePlayedOut compares the games of a match with adjudication to
// those of the same match played out (matched by game number, and by
// pairing in a tournament): an adjudicated game must be the first moves
// of its game played out, with that game's result; any other game must
// be the same game. The games must be the same in both, number for
// number: a game in one only is an error.
func ComparePlayedOut(adjudicated, played []GameRecord) (PlayedOut, error) {
	var p PlayedOut
	type key struct{ game, pairing int }
	byGame := map[key]*GameRecord{}
	for i := range played {
		b := &played[i]
		if byGame[key{b.Game, b.Pairing}] != nil {
			return p, fmt.Errorf("game %d is recorded twice among the games played out", b.Game)
		}
		byGame[key{b.Game, b.Pairing}] = b
	}
	if len(played) != len(adjudicated) {
		return p, fmt.Errorf("%d games with adjudication and %d played out: want the same games in both", len(adjudicated), len(played))
	}
	for i := range adjudicated {
		a := &adjudicated[i]
		b, ok := byGame[key{a.Game, a.Pairing}]
		if !ok {
			return p, fmt.Errorf("game %d is not among the games played out", a.Game)
		}
		delete(byGame, key{a.Game, a.Pairing})
		p.Games++
		p.Plies += len(a.Moves)
		p.PlayedPlies += len(b.Moves)
		if a.Termination == Adjudication {
			p.Adjudicated++
		}
		if d, ok := playedOutDifference(a, b); ok {
			p.Differ = append(p.Differ, d)
		} else if a.Termination == Adjudication {
			p.Agree++
		}
	}
	slices.SortFunc(p.Differ, func(x, y Difference) int { return x.Game - y.Game })
	return p, nil
}

// playedOutDifference returns what differs between game a and the same
// game played out, b, if anything does.
func playedOutDifference(a, b *GameRecord) (Difference, bool) {
	d := Difference{Game: a.Game}
	switch {
	case !samePrefix(a.Moves, b.Moves):
		d.Diverged = true
		d.Detail = fmt.Sprintf("game %d: its moves leave those played out at ply %d", a.Game, commonPlies(a.Moves, b.Moves)+1)
	case a.Termination != Adjudication && len(a.Moves) != len(b.Moves):
		d.Diverged = true
		d.Detail = fmt.Sprintf("game %d: ended at ply %d {%s}, played out to ply %d {%s}", a.Game, len(a.Moves), a.Reason, len(b.Moves), b.Reason)
	case a.Result != b.Result:
		what := "ended"
		if a.Termination == Adjudication {
			what = "adjudicated"
		}
		d.Detail = fmt.Sprintf("game %d: %s %s at ply %d {%s}, played out %s at ply %d {%s}",
			a.Game, what, a.Result, len(a.Moves), a.Reason, b.Result, len(b.Moves), b.Reason)
	default:
		return d, false
	}
	return d, true
}

// samePrefix reports whether the moves of a are the first moves of b.
func samePrefix(a, b []MoveRecord) bool {
	return len(a) <= len(b) && commonPlies(a, b) == len(a)
}

// commonPlies returns the number of first moves a and b share.
func commonPlies(a, b []MoveRecord) int {
	n := 0
	for n < len(a) && n < len(b) && a[n].Move == b[n].Move {
		n++
	}
	return n
}
