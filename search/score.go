package search

import (
	"fmt"

	"github.com/sower-engine/sower/board"
)

// Score is a search score from the side to move's point of view. Scores
// that no static evaluation reaches are decisive: a proven game end.
//
//   - Katro: a win in p plies scores Mate-p, a loss -(Mate-p); faster wins
//     score higher. The UCI form is "mate n", n counting the side to move's
//     moves, negative when it loses.
//   - Hoyito III: a proven end by a margin of m seeds (m ≠ 0) at ply p
//     scores ±(ProvenWin + 256·m − p): any proven win beats any unproven
//     score, a bigger margin beats a smaller one, and a faster end breaks
//     ties. The UCI form is the margin in hundredths of a seed, "cp 100·m".
//     A proven line proves its margin as a minimum for the winner: it is
//     exact when the search resolved every line, and Info.Bound says when
//     it is not. A proven draw scores 0.
//   - Otherwise, hundredths of a seed (the evaluation's unit).
type Score int32

// Score bounds and markers.
const (
	// MaxPly is the deepest ply the search reaches.
	MaxPly = 128
	// Infinity bounds every score.
	Infinity Score = 32000
	// Mate is the score of a Katro win at the root.
	Mate Score = 31000
	// ProvenWin is the base of proven Hoyito III wins.
	ProvenWin Score = 16000
	// DecisiveMin is the smallest decisive score: evaluations stay below.
	DecisiveMin Score = ProvenWin - MaxPly
)

// KatroWin returns the score of a Katro win in ply plies.
func KatroWin(ply int) Score { return Mate - Score(ply) }

// HoyitoEnd returns the score of a Hoyito III game that ends at ply ply
// with the side to move ahead by margin seeds (negative when behind).
func HoyitoEnd(margin, ply int) Score {
	switch {
	case margin > 0:
		return ProvenWin + Score(256*margin-ply)
	case margin < 0:
		return -(ProvenWin + Score(-256*margin-ply))
	}
	return 0
}

// Decisive reports whether s is a proven win or loss.
func (s Score) Decisive() bool { return s >= DecisiveMin || s <= -DecisiveMin }

// abs returns |s|.
func (s Score) abs() Score {
	if s < 0 {
		return -s
	}
	return s
}

// MatePlies returns the plies to the end of a decisive Katro score.
func (s Score) MatePlies() int { return int(Mate - s.abs()) }

// Margin returns the seed margin of a decisive Hoyito III score, negative
// when the side to move loses.
func (s Score) Margin() int {
	m := int((s.abs() - ProvenWin + 255) / 256)
	if s < 0 {
		return -m
	}
	return m
}

// UCI writes the score as the protocol does: "cp <x>" or "mate <n>".
func (s Score) UCI(f board.Family) string {
	if !s.Decisive() {
		return fmt.Sprintf("cp %d", s)
	}
	if f == board.Hoyito {
		return fmt.Sprintf("cp %d", 100*s.Margin())
	}
	p := s.MatePlies()
	if s > 0 {
		return fmt.Sprintf("mate %d", (p+1)/2)
	}
	return fmt.Sprintf("mate %d", -p/2)
}

// Text writes the score for people, in the notation every command and
// the page share (docs/cli.md, "Scores"), from the side to move's point of
// view: "+2.31" (seeds: hundredths as decimals), "#9" for a Katro win in
// 9 moves (the protocol's mate 9), "#-9" for a loss; a Hoyito III result
// is its final margin in seeds ("+8.00").
func (s Score) Text(f board.Family) string {
	switch {
	case !s.Decisive():
		return fmt.Sprintf("%+.2f", float64(s)/100)
	case f == board.Hoyito:
		return fmt.Sprintf("%+.2f", float64(s.Margin()))
	}
	p := s.MatePlies()
	if s > 0 {
		return fmt.Sprintf("#%d", (p+1)/2)
	}
	return fmt.Sprintf("#-%d", p/2)
}

// toTT converts a decisive score from "from the root" to "from this node"
// for the transposition table, so that a stored win keeps its distance
// when reached at another ply; fromTT converts it back when it is loaded.
func toTT(s Score, ply int) Score {
	switch {
	case s >= DecisiveMin:
		return s + Score(ply)
	case s <= -DecisiveMin:
		return s - Score(ply)
	}
	return s
}

func fromTT(s Score, ply int) Score {
	switch {
	case s >= DecisiveMin:
		return s - Score(ply)
	case s <= -DecisiveMin:
		return s + Score(ply)
	}
	return s
}
