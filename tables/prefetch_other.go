//go:build !amd64 && !arm64

package tables

// prefetch does nothing where Go has no prefetch instruction to issue.
func prefetch(*byte) {}
