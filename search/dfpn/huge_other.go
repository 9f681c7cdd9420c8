//go:build !linux

package dfpn

// adviseHuge does nothing outside Linux (Config.HugePages).
func adviseHuge([]entry) {}
