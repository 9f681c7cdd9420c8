//go:build unix

package broker

import (
	"errors"
	"os"
	"syscall"
)

// processAlive reports whether a process of this machine is running.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// pidNamespace names the process namespace this process is in, where the
// system says (Linux); else "".
func pidNamespace() string {
	ns, _ := os.Readlink("/proc/self/ns/pid")
	return ns
}
