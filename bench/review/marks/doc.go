// Package marks is the search-free half of a game review (package
// bench/review): the marks best, good, inaccuracy, mistake and blunder,
// their thresholds, and the judgement of one ply from the engine's views
// of the positions before and after it, written as the record's
// record.MoveReview.
//
// It imports no search, so that a program that drives its engines over
// the protocol (the GUI, through protocol/client) marks moves exactly as
// sower review does; bench/review documents the rules.
package marks
