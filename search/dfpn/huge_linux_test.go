package dfpn

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestHugePagesAdvised checks, where Linux gives transparent huge pages
// on advice ("madvise" mode), that a table made with huge set is advised:
// its mapping in /proc/self/smaps carries the huge page advice flag (hg
// in VmFlags). Whether the kernel then backs it with huge pages depends
// on the memory it has free in whole huge pages, not on the table: that
// (AnonHugePages) is logged. Elsewhere (huge pages always on, or off) it
// is skipped.
func TestHugePagesAdvised(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !strings.Contains(string(mode), "[madvise]") {
		t.Skipf("transparent huge pages not in madvise mode (%q, %v)", strings.TrimSpace(string(mode)), err)
	}
	for _, huge := range []bool{false, true} {
		tt := newTable(64, huge)
		for i := range tt.e {
			tt.e[i].pn = 1 // the first write, after the advice
		}
		m, err := mappingOf(uintptr(unsafe.Pointer(&tt.e[0])))
		if err != nil {
			t.Fatal(err)
		}
		if advised := slices.Contains(m.flags, "hg"); advised != huge {
			t.Errorf("a table made with huge %v: its mapping advised %v (VmFlags %v)", huge, advised, m.flags)
		}
		t.Logf("huge %v: the table's mapping holds %d KiB of huge pages", huge, m.hugeKiB)
	}
}

// mapping is what /proc/self/smaps says of one mapping: its
// AnonHugePages, and its VmFlags.
type mapping struct {
	hugeKiB int
	flags   []string
}

// mappingOf returns the mapping of /proc/self/smaps that holds address a.
func mappingOf(a uintptr) (mapping, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return mapping{}, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in, found := false, false
	var m mapping
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 5 && strings.Contains(fields[0], "-") { // a mapping's first line
			var lo, hi uintptr
			if _, err := fmt.Sscanf(fields[0], "%x-%x", &lo, &hi); err == nil {
				if found {
					break
				}
				in = lo <= a && a < hi
				found = in
			}
			continue
		}
		switch {
		case !in || len(fields) < 1:
		case fields[0] == "AnonHugePages:" && len(fields) >= 2:
			if m.hugeKiB, err = strconv.Atoi(fields[1]); err != nil {
				return m, err
			}
		case fields[0] == "VmFlags:":
			m.flags = fields[1:]
		}
	}
	if err := sc.Err(); err != nil {
		return m, err
	}
	if !found {
		return m, fmt.Errorf("no mapping of /proc/self/smaps holds %#x", a)
	}
	return m, nil
}
