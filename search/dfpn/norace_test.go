//go:build !race

package dfpn

// raceEnabled: see race_test.go.
const raceEnabled = false
