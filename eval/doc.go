// Package eval is Sower's static evaluation: a score for a position from
// the side to move's point of view, in hundredths of a seed, as a weighted
// sum of named terms.
//
// There are two evaluations. The hand-made one has a few terms per family
// with hand-set weights (Weights, DefaultWeights; NewWithWeights). The
// learned one (Params; NewLearned) adds seed-count tables, threats and
// tempo, with a middle-game and an end-game weight per feature blended by
// the game phase; its weights are fitted to self-play data by package
// eval/tune and built into the program (BuiltinParams). Sower plays with
// the learned evaluation (New), or with the hand-made one when built with
// the tag "handeval". Breakdown lists every term's value for each side and
// its contribution, for people (sower eval).
//
// WDLModel turns a score into the chances of a win, a draw and a loss,
// with a model per family fitted on self-play results (BuiltinWDL): the
// forecast of the protocol's UCI_ShowWDL.
//
// The hand-made terms, which the learned evaluation also has:
//
// Katro terms:
//   - seeds: the seeds in the side's half. A Katro game is won by taking
//     every seed of the opponent, so this is the main term.
//   - mobility: the non-empty holes of the back row, the moves the side has.
//   - front: the non-empty holes of the front row, where captures land.
//   - exposed: the seeds of the side's front row that face a non-empty hole
//     of the opponent's front row: the opponent captures them by ending a lap
//     on that hole (it already holds a seed, so the lap does not stop there).
//   - singles: holes holding exactly one seed, which end a move that lands
//     after them only if emptied; many singles mean short, predictable moves.
//
// Hoyito III terms:
//   - captured: the seeds the side has captured; the game is won on these.
//   - row: the seeds in the side's own row, which it keeps if the game ends
//     by the no-capture limit, repetition or two passes, and which feed its
//     moves.
//   - threes: holes holding 3 seeds that one of the side's moves reaches
//     with its first lap (a capture of four, and an extra turn).
//   - moves: the side's non-empty holes.
package eval
