// Package bench holds Sower's benchmark suite: the fixed positions that
// "sower bench" searches (Positions) and the run that searches them
// (Run), whose node count is the engine's signature.
//
// The tools that play whole games live in packages of their own beside
// it: game records and PGN (bench/record), time controls
// (bench/timecontrol), the arbiter of engine matches (bench/match), the
// broker that spreads matches and self-play over machines (bench/broker),
// game review (bench/review) and self-play data generation
// (bench/selfplay).
package bench
