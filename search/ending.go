package search

import "github.com/sower-engine/sower/board"

// How the search and the solver end a game: board.Position.Ending judges
// it (the rules, the no-capture limit and repetition, with the path's
// repetitions counted by the caller); endScore and Status.Margin turn the
// result into a score; passIfStuck makes the pass of a Hoyito III player
// without a sowing.

// endScore scores a finished game for pos's side to move at ply: a Katro
// win or loss by its distance (KatroWin), a draw 0, a Hoyito III margin
// exactly (HoyitoEnd).
func (s *searcher) endScore(pos *board.Position, st board.Status, ply int) Score {
	m := st.Margin(pos.Side())
	switch {
	case s.family == board.Hoyito:
		return HoyitoEnd(m, ply)
	case m > 0:
		return KatroWin(ply)
	case m < 0:
		return -KatroWin(ply)
	}
	return 0
}
