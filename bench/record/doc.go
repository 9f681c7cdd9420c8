// Package record holds Sower's game records: the record of one game
// (GameRecord, its plies MoveRecord, and the engine's review of a ply,
// MoveReview), how a game ended (Termination), and the rule options a
// game is played under, which a record keeps (GameOptions, RuleOptions).
//
// A record is written as a JSON object, one a line, or as PGN-like text
// (GameRecord.PGN), and ReadRecords reads either back. RecordGame records
// a game kept with board.Game; Replay plays a record's moves again under
// its rules.
//
// The arbiter (sower match, package bench/match), the broker
// (bench/broker), game review (bench/review) and the GUI all write and
// read records through this package. It uses the rules (board) and the
// engine client's replies (protocol/client) only, so that the GUI keeps
// its games without the arbiter.
package record
