package record

// Termination says how a game ended.
type Termination string

// Terminations. Every one but Normal and Adjudication is a forfeit by the
// player at fault.
const (
	Normal Termination = "normal" // by the rules (the reason says which)
	// Adjudication is a game ended by the arbiter's resign or draw rule,
	// on the engines' scores (the reason says which).
	Adjudication Termination = "adjudication"
	TimeForfeit  Termination = "time forfeit" // the clock or the move time ran out (with the margin)
	IllegalMove  Termination = "illegal move" // an illegal or unparseable bestmove
	Crash        Termination = "crash"        // the engine exited, closed its pipes or could not start
	NoAnswer     Termination = "no answer"    // no readyok, or no bestmove without a clock, within the timeout
	Resignation  Termination = "resignation"  // the player gave the game up (a person, in the GUI)
	// Unterminated is a game still in progress (records written by the
	// GUI), as in PGN.
	Unterminated Termination = "unterminated"
)
