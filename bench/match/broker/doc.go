// Package broker spreads the game pairs of a match over many machines
// through a NATS server with JetStream (docs/distributed.md).
//
// A coordinator (Run) publishes one task per pair to a work-queue stream,
// uploads the engine programs to an object store by their SHA-256 and
// counts the results with a match.Tally, so that its report, records and
// SPRT are those of a local match. Workers (Worker.Serve) pull the tasks,
// play each pair with a match.Table, publish the two records and only then
// acknowledge the task. Serve starts an embedded broker.
//
// Nothing below package bench imports NATS: this package is the only one.
package broker
