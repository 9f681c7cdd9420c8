// Package bench holds Sower's benchmark suite and self-play tools: the
// fixed positions that "sower bench" searches for its node-count
// signature, and the self-play that makes training data (Datagen).
package bench
