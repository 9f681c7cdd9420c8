// Package tables builds and probes Hoyito III endgame tables: for every
// board with 8, 12, 16, … seeds and each side to move, bounds on the final
// margin of the seeds on the board and the distance to the next capture
// along the play that secures them.
//
// # Values
//
// Seeds leave the board only by captures of exactly four, so a position's
// future depends only on its board and side to move (and, for the end of
// the game, on the repetition rule and the no-capture clock, which are not
// part of a table). An entry holds, from the side to move's view:
//
//   - Lo: the margin (seeds the side to move ends up with, minus the
//     opponent's, counting the seeds awarded at the end) that the side to
//     move can force by play that reaches a real end: a capture (then the
//     layer below, with the extra turn), the game-ending capture, or two
//     passes in a row. Play that never captures again counts as the worst
//     margin, -n.
//   - Hi: the margin the opponent can hold the side to move to, the same
//     way (play that never captures counts as +n).
//   - DistLo and DistHi: the plies within which each bound is secured (the
//     capture or end is made) by the forcing side against any defence; 0
//     when the bound is the trivial -n or +n.
//
// Lo == Hi is the exact value under any repetition rule and no-capture
// limit that leaves time for the distances; otherwise the real value lies
// in [Lo, Hi] and depends on how those rules end the cycling.
//
// With LastFour = capturer the game is symmetric, so one side to move is
// stored: boards are seen from the side to move (its row first, in sowing
// order). A set for a fixed LastFour player has two halves: the side to
// move receives the last seeds, or not; one set serves both south and
// north.
//
// # Method
//
// Positions with n seeds are indexed by the combinatorial rank of their
// board among the C(n+11, 11) boards. A layer is built from the one below
// in rounds of value iteration: round k holds the bounds of the game cut
// off after k plies, so a bound's distance is the last round that changed
// it. Sowing cannot easily be undone, so the builder makes every move once
// forward and stores each position's parents; each round then touches only
// the parents of the positions that changed in the round before. A rise of
// a child's Lo lowers a parent's Hi only when that child was one of the
// moves giving Hi its value; a count of those per position tells when the
// parent must make its moves again.
//
// The file format (see format.go) is versioned and checksummed; Open maps
// the files and refuses a damaged one with an error that says what is
// wrong.
package tables
