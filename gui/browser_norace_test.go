//go:build !race

package gui_test

// raceEnabled builds the served binary with the race detector too.
const raceEnabled = false
