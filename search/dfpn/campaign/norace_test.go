//go:build !race

package campaign

// raceEnabled: see race_test.go.
const raceEnabled = false
