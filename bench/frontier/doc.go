// Package frontier measures how far from the end of a Katro game df-pn
// proves the result, and how the proof's cost grows per ply back: the
// measurement behind "sower frontier" (docs/dfpn.md, "The 6x6
// frontier").
//
// A Line is a game played to its end (self-play lines come from Generate,
// the games of "sower datagen" with their moves). A Walker walks a line
// back from its end, a step of plies at a time, and proves each position
// from an empty table with the one configuration of package dfpn under a
// time and a node limit; the first position left open ends the line (with
// a step above one, the plies between the last proven position and it are
// tried first). Each position measured is a Record; a Results file keeps
// them one JSON object a line, appended as they come, so that a run
// interrupted goes on where it stopped. Summarize reads the records: the
// farthest position proven on each line, their median, and the fit of
// log(nodes) against the plies before the end with its extrapolation.
package frontier
