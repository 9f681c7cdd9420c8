// Package cert writes and checks proof certificates: files that prove that
// one side wins a Katro position, checked with the rules alone.
//
// A certificate lists, for every position of the proof where the winner is
// to move, the winning move; positions where the loser is to move are not
// listed, as every legal move of the loser must be answered by the file.
// The format is documented byte by byte in docs/proofs.md; in short, one
// line per position, its rows and side in the rule book's notation without
// the clock, a TAB and the move:
//
//	2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S	a1
//
// plus optional header lines starting with '#'. A file may be gzipped.
//
// Write walks a proof from a root with an oracle that gives the winning
// move of each winner position and writes its certificate; Verify reads a
// certificate and checks it from the root. Both walk the proof the same way
// and refuse the same faults: a position of the winner missing from the
// certificate, an illegal move, a winner position with no legal move, a
// cycle (which would let the loser draw by repetition), a capture-free run
// that reaches the no-capture limit, and a position repeated for the third
// time with the game's history. The checker uses package board only: no
// search, evaluation or table code.
//
// Pieces joins certificates of a proof made in parts (the position after
// each of the loser's moves proven on its own): Write, with the pieces'
// moves as its oracle, walks and writes the whole proof from its root.
//
// Certificates are for Katro only: Hoyito III, with its extra turns,
// passes and seed totals, is refused.
//
// Memory: the walk keeps, for each position of the winner, a 32-byte key
// (the hole counts, 7 bits each, and the side to move) and 16 bytes of
// state; positions of the loser are counted by their 64-bit hash key. The
// walk uses an explicit stack, so the length of the proof's lines is
// bounded by memory only, not by the goroutine stack.
package cert
