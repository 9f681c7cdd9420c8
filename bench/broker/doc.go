// Package broker spreads the game pairs of a match, and the games of a
// self-play run, over many machines through a NATS server with JetStream
// (docs/distributed.md).
//
// A coordinator (Run for a match, RunTournament for a tournament, Datagen
// for self-play) claims its run
// with a lease, publishes its tasks to a work-queue stream through a task
// consumer of the run's own (its AckWait and MaxDeliver), uploads the
// engine programs to an object store by their SHA-256 and takes the
// results. Both run one coordinator loop over a small job interface: the
// job says what its tasks are, how a result is checked and written, and
// when the run is over. A match counts its results with a match.Tally, so
// that its report, records and SPRT are those of a local match; a
// tournament, whose tasks are the pairs of its pairings, with a
// match.TournamentTally. Workers
// (Worker.Serve) pull the tasks of every run in turn, play each with a
// match.Table (or a self-play batch of package bench/selfplay), publish
// the result and only then acknowledge the task. Serve starts an embedded
// broker.
//
// The broker serves both the arbiter (bench/match) and self-play
// (bench/selfplay), so it sits beside them rather than inside either.
//
// Every message from the network is untrusted: it is decoded and checked
// in one place (message.go) and refused with a reason when it does not
// hold. Failures are errors (a retryable one is a *retryError, found with
// errors.As; cancellation is context.Canceled) and become strings only in
// a result on the wire.
//
// Nothing below package bench imports NATS: this package is the only one.
package broker
