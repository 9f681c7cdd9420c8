package dfpn

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestHugePagesAdvised checks, where Linux gives transparent huge pages
// on advice ("madvise" mode), that a table made with huge set is on huge
// pages once written: its mapping in /proc/self/smaps counts
// AnonHugePages. Elsewhere (huge pages always on, or off) it is skipped.
func TestHugePagesAdvised(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !strings.Contains(string(mode), "[madvise]") {
		t.Skipf("transparent huge pages not in madvise mode (%q, %v)", strings.TrimSpace(string(mode)), err)
	}
	tt := newTable(64, true)
	for i := range tt.e {
		tt.e[i].pn = 1 // the first write, after the advice
	}
	kib, err := anonHugeKiB(uintptr(unsafe.Pointer(&tt.e[0])))
	if err != nil {
		t.Fatal(err)
	}
	if kib == 0 {
		t.Errorf("the advised table's mapping holds no huge pages")
	}
}

// anonHugeKiB returns the AnonHugePages of the mapping of /proc/self/smaps
// that holds address a.
func anonHugeKiB(a uintptr) (int, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 5 && strings.Contains(fields[0], "-") { // a mapping's first line
			var lo, hi uintptr
			if _, err := fmt.Sscanf(fields[0], "%x-%x", &lo, &hi); err == nil {
				in = lo <= a && a < hi
			}
			continue
		}
		if in && len(fields) >= 2 && fields[0] == "AnonHugePages:" {
			return strconv.Atoi(fields[1])
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("no mapping of /proc/self/smaps holds %#x", a)
}
