// Package bench holds Sower's benchmark suite and self-play tools: the
// fixed positions that "sower bench" searches for its node-count
// signature, and the players and game loop used to measure strength.
package bench
