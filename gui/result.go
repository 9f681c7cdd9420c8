package gui

import (
	"fmt"

	"github.com/sower-engine/sower/board"
)

// resultText writes a finished game's result and why it ended, in words:
// "North wins 30-18: North made the last capture and took the seeds
// left", "Draw, 24 seeds each: both players passed in a row".
func resultText(g *board.Game) string {
	st := g.Status()
	p := g.Position()
	var who string
	switch st.Result {
	case board.SouthWins:
		who = "South wins"
	case board.NorthWins:
		who = "North wins"
	default:
		who = "Draw"
	}
	v := p.Variant()
	if v.Family() == board.Hoyito {
		if st.Seeds[0] == st.Seeds[1] {
			who += fmt.Sprintf(", %d seeds each", st.Seeds[0])
		} else {
			who += fmt.Sprintf(" %d-%d", max(st.Seeds[0], st.Seeds[1]), min(st.Seeds[0], st.Seeds[1]))
		}
	}
	return who + ": " + reasonText(g, st)
}

// reasonText says why a game ended.
func reasonText(g *board.Game, st board.Status) string {
	p := g.Position()
	v := p.Variant()
	switch st.Reason {
	case board.ReasonNoMove:
		return fmt.Sprintf("%s has no move left", p.Side())
	case board.ReasonLimit:
		return fmt.Sprintf("%d plies without a capture (the no-capture limit)%s", v.Rules().NoCaptureLimit, rowsAwarded(v))
	case board.ReasonRepeat:
		return "the same position came a third time" + rowsAwarded(v)
	case board.ReasonLastFour:
		return lastFourText(g)
	case board.ReasonBothPassed:
		return "both players passed in a row" + rowsAwarded(v)
	case board.ReasonFinished:
		return "the board is empty"
	}
	return st.Reason.String()
}

// rowsAwarded adds, in Hoyito III, where the seeds on the board went.
func rowsAwarded(v *board.Variant) string {
	if v.Family() != board.Hoyito {
		return ""
	}
	return "; each player took the seeds of their own row"
}

// lastFourText says who took the seeds left by the capture that ended a
// Hoyito III game (the LastFour rule).
func lastFourText(g *board.Game) string {
	moves := g.Moves()
	h := board.NewGame(g.Start())
	for _, m := range moves[:max(len(moves)-1, 0)] {
		h.Play(m) // legal: the game was played
	}
	q := h.Position()
	capturer := q.Side()
	switch v := q.Variant(); v.Rules().LastFour {
	case board.LastFourSouth:
		return fmt.Sprintf("%s made the last capture, which left four seeds or fewer; they went to South (LastFour south)", capturer)
	case board.LastFourNorth:
		return fmt.Sprintf("%s made the last capture, which left four seeds or fewer; they went to North (LastFour north)", capturer)
	}
	return fmt.Sprintf("%s made the last capture and took the last seeds (four or fewer)", capturer)
}
