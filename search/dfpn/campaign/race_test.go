//go:build race

package campaign

// raceEnabled: the race detector slows the one-thread searches of the
// rival tests some tenfold and finds nothing in them; under -short they
// are skipped with it (the plain test run keeps them).
const raceEnabled = true
