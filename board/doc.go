// Package board implements the rules of Katro and Hoyito III exactly as the
// rule book (docs/rules.md) states them: positions, move generation, move
// making, game status, notation and perft.
//
// A Variant holds one game (katro, katro-6x3, katro-4x6, katro-4x4 or
// hoyito3) with its rule options and every precomputed table; nothing is
// computed at package initialisation. A Position is a small value (56 bytes)
// with a bitpacked board, made by copying: a search keeps a stack of them.
// Position.Play allocates nothing, and neither does Position.Ending, the one
// judgement of how and by what margin a game ends (Status, the search, the
// solver and the tables use it).
//
// Hash keys are Zobrist-style and additive (see Position.Key): picking up
// and dropping seeds updates the key as the sowing goes, in constant time
// per lap, and Position.Check compares it with a key computed from scratch.
//
// Where the rule book leaves a point open, this package chooses as follows.
//
//   - Move legality is decided by sowing: a candidate whose sowing is endless
//     (the 1000-lap rule) is not legal. GenerateMoves lists candidates;
//     Play reports endless sowings; LegalMoves filters.
//   - A Hoyito III position read from notation with an empty board is a
//     finished game; its reason is "finished", its result the totals.
//   - When the no-capture limit or repetition ends a Hoyito III game, Game
//     empties the board into the capture totals (rule book 2.6); a bare
//     Position's Status reports the same result without changing the board.
//   - The no-capture limit ends a game when the clock reaches it (a clock of
//     200 read from notation is already a finished game at the default).
//   - The clock stops at MaxClock, the largest the notation reads, so that
//     every position written in notation can be read back.
//   - The key does not cover the clock or whether the last ply was a pass:
//     the repetition rule compares board, side to move and capture totals.
//   - Moves are parsed case-insensitively ("C1" is c1); "0000" is a pass.
package board
