//go:build race

package main

// raceEnabled: the race detector slows the one-thread proof searches of
// some tests some tenfold and finds nothing in them; under -short they
// are skipped with it (the plain test run keeps them).
const raceEnabled = true
