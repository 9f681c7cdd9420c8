// Package timecontrol holds the limits an engine thinks under and the way
// a move is asked for under them: Limit (a clock with an increment,
// perhaps given again every so many moves, a time per move, a node count,
// a depth, or any combination), read from "10+0.1" (ParseTC),
// "40/60+0.5" or "inf" (ParseTimeControl) or "tc=10+0.1 depth=2"
// (ParseLimit); Move, the go command for one move and the time its answer
// may take (NewMove); and Clocks, both sides' clocks through a game,
// periods and movestogo included.
//
// Both arbiters, sower match (package bench/match) and sower gui, ask for
// moves with NewMove and charge clocks with Limit.After (sower match
// through Clocks, which adds the periods the GUI's clocks do not have),
// so that they agree on clocks, margins and losses on time. A record keeps a limit as
// its String form (package bench/record).
package timecontrol
