package dfpn

import (
	"syscall"
	"unsafe"
)

// adviseHuge asks Linux for transparent huge pages on the table's memory
// (Config.HugePages). The advice takes effect on the pages not yet
// touched: all of them when the table is the process's first large
// allocation (fresh memory from the system, as in a campaign); memory
// the Go heap reuses is already on small pages, which the kernel may
// merge later. It is advice: a kernel without huge pages, or with them
// off, leaves the table on small pages.
func adviseHuge(e []entry) {
	if len(e) == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&e[0])), uintptr(len(e))*unsafe.Sizeof(e[0]))
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
