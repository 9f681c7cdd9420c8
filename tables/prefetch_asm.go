//go:build gc && (amd64 || arm64)

package tables

// prefetch hints the processor to read the cache line of *p into its
// caches. It never faults and has no effect on the program's results.
//
//go:noescape
func prefetch(p *byte)
