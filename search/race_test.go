//go:build race

package search

// raceEnabled: the race detector slows the searches some tenfold. Under it
// the tests of one thread's results (the reference solvers, the proofs,
// the allocation counts) shrink or step aside for the tests of the
// threads, which are what it is run for.
const raceEnabled = true
