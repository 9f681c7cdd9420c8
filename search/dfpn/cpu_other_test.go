//go:build !unix

package dfpn

import "time"

// cpuTime is not measured here.
func cpuTime() time.Duration { return 0 }
