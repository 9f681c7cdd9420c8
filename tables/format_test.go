package tables

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"github.com/sower-engine/sower/board"
)

// layerFile returns the bytes of a freshly built 8-seed default layer.
func layerFile(t testing.TB) []byte {
	t.Helper()
	opts := OptionsFor(board.DefaultRules())
	b, err := os.ReadFile(filepath.Join(builtDir(t, opts, 8), opts.FileName(8)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// version1File returns a file of format version 1 as an earlier Sower
// wrote it: a 64-byte header and 4-byte entries.
func version1File(entries int) []byte {
	b := make([]byte, 64+4*entries)
	copy(b, "SOWERTB\x00")
	binary.LittleEndian.PutUint32(b[8:], 1)
	binary.LittleEndian.PutUint32(b[12:], 64)
	b[16], b[17], b[20], b[21] = 1, 8, 1, 4
	binary.LittleEndian.PutUint64(b[56:], xxhash.Sum64(b[:56]))
	return b
}

// TestCorruptFilesRefused damages a good file in the ways a disk, a copy
// or a person can, and checks that opening refuses each with a message.
func TestCorruptFilesRefused(t *testing.T) {
	good := layerFile(t)
	if _, err := readLayer(good); err != nil {
		t.Fatalf("good file refused: %v", err)
	}
	flip := func(i int) []byte {
		b := bytes.Clone(good)
		b[i] ^= 0x10
		return b
	}
	cases := []struct {
		name string
		file []byte
		want string
	}{
		{"empty", nil, "shorter than"},
		{"header cut", good[:40], "shorter than"},
		{"truncated", good[:len(good)-1], "truncated"},
		{"padded", append(bytes.Clone(good), 0), "truncated or padded"},
		{"bad magic", flip(0), "magic"},
		{"version", flip(8), "version"},
		{"header damaged", flip(17), "header checksum"},
		{"entry damaged", flip(HeaderSize + 1000), "damaged"},
		{"clock section damaged", flip(len(good) - 1), "clock section checksum"},
		{"version 1", version1File(75582), "build the tables again"},
		{"version 1 header only", version1File(0)[:64], "build the tables again"},
		// Entries that do not make sense, with every checksum made to
		// match: a file not written by the builder.
		{"lo above hi", forged(t, good, 7, func(e []byte) { e[0], e[1] = 2, 0xfe }), "bounds [2, -2]"},
		{"bound past the seeds", forged(t, good, 9, func(e []byte) { e[1] = 9 }), "impossible with 8 seeds"},
		{"exact count", forgedHeader(t, good, func(h *header) { h.exact++ }), "the header says"},
		{"value past the seeds", forged(t, good, 11, func(e []byte) { e[4] = 0xf0 }), "value -16"},
		{"settle past the last horizon", forged(t, good, 12, func(e []byte) { e[5] = 250 }), "settle horizon 250"},
		{"settle not the last change", forged(t, good, firstChanging(t, good), func(e []byte) { e[5]++ }), "its last change"},
		{"period", forgedHeader(t, good, func(h *header) { h.period = 3 }), "period 3"},
		{"changes count", forgedHeader(t, good, func(h *header) { h.changes++ }), "clock section of"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readLayer(c.file)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error with %q", err, c.want)
			}
			// The same through the file system and mapping.
			path := filepath.Join(t.TempDir(), "t.sowtb")
			if err := os.WriteFile(path, c.file, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := OpenLayer(path); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("OpenLayer: got %v, want an error naming the file with %q", err, c.want)
			}
		})
	}
}

// forged returns file with entry i changed by f and the checksums made to
// match again.
func forged(t *testing.T, file []byte, i int, f func(e []byte)) []byte {
	t.Helper()
	b := bytes.Clone(file)
	f(b[HeaderSize+i*EntrySize:])
	return forgedHeader(t, b, func(*header) {})
}

// forgedHeader returns file with its header changed by f and its checksums
// made to match its entries and header.
func forgedHeader(t *testing.T, file []byte, f func(h *header)) []byte {
	t.Helper()
	h, err := decodeHeader(file, int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	data := file[HeaderSize:]
	entries := data[:uint64(h.halves)*h.n*EntrySize]
	h.sum, h.clkSum = xxhash.Sum64(entries), xxhash.Sum64(data[len(entries):])
	f(&h)
	return append(h.encode(), data...)
}

// firstChanging returns the index of the first entry of file whose value
// changes with the clock (settle horizon above 0).
func firstChanging(t *testing.T, file []byte) int {
	t.Helper()
	for i := HeaderSize; i+EntrySize <= len(file); i += EntrySize {
		if file[i+5] > 0 {
			return (i - HeaderSize) / EntrySize
		}
	}
	t.Fatal("no entry changes with the clock")
	return 0
}

// TestOpenChecksTheChain refuses a set whose 12-seed layer was built from
// another 8-seed layer, and a directory without tables.
func TestOpenChecksTheChain(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(dir, board.DefaultRules()); err == nil || !strings.Contains(err.Error(), "no any-capturer-limit200 tables") {
		t.Fatalf("empty directory: got %v", err)
	}
	r := board.DefaultRules()
	tb, _ := buildSet(t, r, 12)
	l12, l8 := tb.layer(12), tb.layer(8)
	write := func(l *Layer, lowerSum uint64) {
		h := header{seeds: l.seeds, opts: l.opts, halves: 1, n: l.n, sum: l.sum, exact: l.exact, lowerSum: lowerSum,
			last: l.last, period: l.period, clkSum: l.clkSum, clkSize: uint64(len(l.clk)), changes: l.changeCount()}
		if err := writeLayer(filepath.Join(dir, l.opts.FileName(l.seeds)), h, l.data, l.clk); err != nil {
			t.Fatal(err)
		}
	}
	write(l8, 0)
	write(l12, l8.id^1)
	if _, err := Open(dir, r); err == nil || !strings.Contains(err.Error(), "different 8-seed layer") {
		t.Fatalf("broken chain: got %v", err)
	}
	write(l12, l8.id)
	got, err := Open(dir, r)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	if got.Top() != 12 {
		t.Fatalf("top %d, want 12", got.Top())
	}
}

// FuzzReadLayer feeds arbitrary bytes to the reader: it must refuse or
// accept without panicking, and an accepted layer must probe in range.
func FuzzReadLayer(f *testing.F) {
	good := layerFile(f)
	f.Add(good)
	f.Add(good[:HeaderSize])
	f.Add([]byte("SOWERTB\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := readLayer(b)
		if err != nil {
			return
		}
		c := unrank(l.n-1, l.seeds)
		_ = l.lookup(l.opts.halves()-1, &c)
	})
}

// TestBuildMemory: the estimate of a build's peak memory is within 15% of
// what the build of the 12-seed layer reports (the larger of its two
// phases' arrays), and within 25% for the small 8-seed layer, whose
// rounds' lists are relatively smaller, for a capturer set and a fixed
// one (its 8-seed layer only with -short).
func TestBuildMemory(t *testing.T) {
	for i, r := range []board.Rules{board.DefaultRules(), {LastFour: board.LastFourSouth, NoCaptureLimit: 200}} {
		opts := OptionsFor(r)
		top := 12
		if testing.Short() && i > 0 {
			top = 8 // the fixed set's 12-seed layer is a build of its own
		}
		got := builtStats(t, opts, top)
		for _, st := range got {
			actual := max(st.Bytes+st.Positions*EntrySize, st.ClockBytes)
			est := BuildMemory(st.Seeds, opts)
			tol := uint64(15)
			if st.Seeds == 8 {
				tol = 25
			}
			if est < actual*(100-tol)/100 || est > actual*(100+tol)/100 {
				t.Errorf("%s, %d seeds: estimate %d bytes, the build held %d", opts, st.Seeds, est, actual)
			}
		}
		if len(got) != top/4-1 {
			t.Fatalf("%s: %d layers built, want %d", opts, len(got), top/4-1)
		}
	}
}
