//go:build race

package dfpn

// raceEnabled: the race detector slows the single-threaded solver some
// tenfold, and the samples shrink under it.
const raceEnabled = true
