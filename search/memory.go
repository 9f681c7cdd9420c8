package search

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"unsafe"
)

// Hash sizes the machine can hold. Go cannot recover from running out of
// memory: a failed allocation of the table would end the program. So a
// table is allocated only when it fits in what the machine can give now,
// with room to spare:
//
//	size ≤ HashLimitMiB(available) = available·7/8 − hashReserveMiB
//
// where available is the kernel's estimate of the memory that can be
// allocated without swapping (MemAvailable in /proc/meminfo). Where that
// estimate cannot be read (other systems), only the range MinHashMiB to
// MaxHashMiB is checked, and an allocation the runtime refuses outright
// (a size beyond the address space) is still reported as an error.

// hashReserveMiB is kept free besides the table, for the program and the
// rest of the machine.
const hashReserveMiB = 64

// HashLimitMiB returns the largest table allowed when availMiB MiB are
// available.
func HashLimitMiB(availMiB int) int { return max(availMiB*7/8-hashReserveMiB, 0) }

// AvailableMiB returns the memory available for new allocations, in MiB,
// as the kernel estimates it (MemAvailable in /proc/meminfo), and false
// where it cannot be read.
func AvailableMiB() (int, bool) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	return parseMemAvailable(b)
}

// parseMemAvailable reads the MemAvailable line of /proc/meminfo
// ("MemAvailable:   12345678 kB") and returns it in MiB.
func parseMemAvailable(b []byte) (int, bool) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) == 3 && string(f[0]) == "MemAvailable:" && string(f[2]) == "kB" {
			kb, err := strconv.ParseUint(string(f[1]), 10, 64)
			if err != nil {
				return 0, false
			}
			return int(min(kb>>10, 1<<40)), true
		}
	}
	return 0, false
}

// CheckHashMemory returns an error when the table NewTable(mib) makes
// (mib rounded down to a power of two) does not fit in availMiB MiB
// available (see HashLimitMiB).
func CheckHashMemory(mib, availMiB int) error { return CheckHashesMemory(mib, 1, availMiB) }

// CheckHashesMemory is CheckHashMemory for count tables of mib MiB at once
// (count engines in one program).
func CheckHashesMemory(mib, count, availMiB int) error {
	size := (1 << bucketsLog(max(mib, MinHashMiB)) * bucketSize * entryBytes) >> 20
	return checkTables(mib, size, count, availMiB)
}

// CheckSolveMemory returns an error when the table Solve makes for a
// HashMiB of mib does not fit in availMiB MiB available.
func CheckSolveMemory(mib, availMiB int) error {
	return checkTables(mib, solveEntries(mib)*int(unsafe.Sizeof(solveEntry{}))>>20, 1, availMiB)
}

// checkTables returns an error when count tables of size MiB each, made
// for a hash size of mib, do not fit in availMiB MiB available.
func checkTables(mib, size, count, availMiB int) error {
	if limit := HashLimitMiB(availMiB); size*count > limit {
		what := fmt.Sprintf("a table of %d MiB", size)
		if count > 1 {
			what = fmt.Sprintf("%d tables of %d MiB", count, size)
		}
		return fmt.Errorf("hash size %d MiB (%s): more than this machine can spare now (%d MiB available, so at most %d MiB)", mib, what, availMiB, limit)
	}
	return nil
}

// allocBuckets allocates n buckets, returning an error instead of
// panicking when the runtime refuses the size.
func allocBuckets(n uint64) (b []bucket, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, fmt.Errorf("cannot allocate %d buckets: %v", n, r)
		}
	}()
	return make([]bucket, n), nil
}
