// Package review reviews a finished or loaded game with the engine, as
// lichess's computer analysis does: it searches every position of the game
// at a fixed budget and marks every move best, good, inaccuracy, mistake
// or blunder by how much it lost against the engine's best move, with
// the better move and its line for each inaccuracy, mistake and blunder,
// and each side's counts.
//
// What a move lost is measured, from the mover's view, between the search
// of the position before it and the search of the position after it:
//
//   - Katro: the expected score (the win chance, draws counting half) that
//     the win/draw/loss model of package eval gives each search's score;
//     a proven result is certain (1, ½ or 0).
//   - Hoyito III: the seeds of the final margin that the scores give (the
//     evaluation's unit is a hundredth of a seed; a proven score is the
//     exact margin).
//
// Thresholds (Thresholds, ThresholdsFor) turn the loss into a mark. Katro's
// are lichess's: lichess marks a drop of its winning chances, 2E − 1 for
// an expected score E, of 0.1, 0.2 and 0.3 as an inaccuracy, a mistake and
// a blunder, which are drops of E of 0.05, 0.10 and 0.15. Hoyito III's are
// 2, 4 and 8 seeds: a capture takes four seeds, so a mistake loses a
// capture, a blunder two, and an inaccuracy half of one; smaller swings are
// within what the evaluation's estimates move from one depth to the next.
//
// Proven results beat estimates: a move that turns a proven win into a
// proven draw or loss, or a proven draw into a proven loss, is a blunder
// whatever the figures, and one that gives up a proven win for a position
// the search no longer proves won is at least a mistake. The engine's own
// move is always best and loses nothing (a difference between the two
// searches is theirs, not the move's). A move whose loss is negative (the search after it
// saw further than the search before) lost nothing.
//
// Review drives the search through package search's Engine, as analyse
// does; Apply writes the review into a game record of package
// bench/record, whose JSON and PGN forms carry it (record.MoveReview).
package review
