//go:build !race

package broker

// raceEnabled: the tests run under the race detector.
const raceEnabled = false
