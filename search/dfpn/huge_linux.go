package dfpn

import (
	"syscall"
	"unsafe"
)

// adviseHuge asks Linux for transparent huge pages on the table's memory
// (Config.HugePages), before its first write, which is when the advice
// takes effect on memory from the Go heap. It is advice: a kernel without
// them, or with them off, leaves the table on small pages.
func adviseHuge(e []entry) {
	if len(e) == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&e[0])), uintptr(len(e))*unsafe.Sizeof(e[0]))
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
