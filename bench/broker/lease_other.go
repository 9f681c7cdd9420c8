//go:build !unix

package broker

// processAlive reports whether a process of this machine is running;
// where that cannot be asked, it is taken to be, and its claim lapses.
func processAlive(pid int) bool { return true }

// pidNamespace names the process namespace this process is in: nothing
// here.
func pidNamespace() string { return "" }
