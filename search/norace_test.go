//go:build !race

package search

// raceEnabled: see race_test.go.
const raceEnabled = false
