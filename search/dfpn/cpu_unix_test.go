//go:build unix

package dfpn

import (
	"syscall"
	"time"
)

// cpuTime returns the processor time the test process has used so far.
func cpuTime() time.Duration {
	var r syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &r) != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
