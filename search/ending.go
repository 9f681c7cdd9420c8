package search

import "github.com/sower-engine/sower/board"

// How the search and the solver end a game: board.Position.Ending judges
// it (the rules, the no-capture limit and repetition, with the path's
// repetitions counted by the caller); endScore and Status.Margin turn the
// result into a score; passIfStuck makes the pass of a Hoyito III player
// without a sowing.

// ending returns how the game ends at pos in the search's tree, the
// repetitions counted on the game's history and the path (repeated).
func (s *searcher) ending(pos *board.Position, moves board.MovesKnown) board.Status {
	return pos.Ending(s.repeated(pos.Key()), moves)
}

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

// passIfStuck makes the pass into kid and reports true when pos is a
// Hoyito III position whose side to move has no legal sowing (made is the
// number of legal moves made): such a player passes (a Katro player
// without a move has lost instead).
func passIfStuck(pos, kid *board.Position, made int) bool {
	if made > 0 || pos.Variant().Family() != board.Hoyito {
		return false
	}
	*kid = *pos
	kid.Play(board.Pass)
	return true
}
