// Package protocol implements Sower's engine protocol: a UCI-style line
// protocol on standard input and output, with the UGI dialect and a few
// extensions (d, perft, eval, bench). docs/protocol.md describes it for
// GUI and match-runner authors; this comment describes how it is built.
//
// ServeWith runs a command loop that owns all of the engine's state: the
// game (a board.Game, so that repetition and the no-capture limit are
// known), the options and the search engine. A goroutine of its own reads
// the input, one line at a time (lines over MaxLineBytes are skipped
// without being held in memory), so the loop can also watch its context.
//
// A search, perft or bench runs as a job in another goroutine, under a
// context the loop cancels to stop it. The job gets copies of the position
// and history it needs; it shares only the output and, while it runs, the
// search engine. Its done channel is the only synchronisation: the loop
// waits on it before it touches the engine again or starts another job, so
// there is no stop flag and no lock around the state. Commands that only
// look (isready, d, eval, query) are answered while a job runs; commands
// that change the state or start a job check their arguments, stop the job
// (which prints its bestmove), then act.
//
// All output goes through one writer that writes a whole block of lines at
// a time and flushes every line. Handlers return errors, which the loop
// prints as "info string error: …"; a handler that fails changes nothing.
package protocol
