// Package each solves a Katro position by its moves: the position after
// each legal move in turn, on one df-pn table (what one search proves,
// the next finds), and says what their values prove of the position
// itself: a win for the side to move if a move wins, a loss if every
// move loses, a draw if none is open and none wins. This is root
// splitting by hand: the position's proof needs a proof of each of the
// defender's moves, and a search of the position as a whole shows only
// the numbers of the move it is in.
//
// A walk then goes down the line a proof still waits on: when every move
// but one is proven to lose, the opponent's win after that move is what
// is left, and the walk goes on to the position after that move and the
// opponent's best try there (dfpn.Solver.BestTry), where the same side is
// to move again, and solves each move there. The walk proves nothing by
// itself: it finds the position where the proof's work lies.
//
// Run does both and reports through Config's callbacks; it prints
// nothing.
package each
