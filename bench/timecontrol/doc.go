// Package timecontrol holds the limits an engine thinks under and the way
// a move is asked for under them: Limit (a clock with an increment, a time
// per move, a node count, a depth, or any combination), read from
// "10+0.1" (ParseTC) or "tc=10+0.1 depth=2" (ParseLimit), and Move, the
// go command for one move and the time its answer may take (NewMove).
//
// Both arbiters, sower match (package bench/match) and sower gui, ask for
// moves with NewMove and charge clocks with Limit.After, so that they
// agree on clocks, margins and losses on time. A record keeps a limit as
// its String form (package bench/record).
package timecontrol
