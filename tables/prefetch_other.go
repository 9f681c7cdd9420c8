//go:build !gc || (!amd64 && !arm64)

package tables

// prefetch does nothing on architectures other than amd64 and arm64 (and
// with compilers other than gc), where Sower has no assembly for it.
func prefetch(*byte) {}
