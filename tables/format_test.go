package tables

import (
	"bytes"
	"context"
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
	tb, _ := buildSet(t, board.DefaultRules(), 8)
	l := tb.Layer(8)
	h := header{seeds: 8, opts: l.opts, halves: 1, n: l.n, sum: l.sum, exact: l.exact}
	return append(h.encode(), l.data...)
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
		{"last entry damaged", flip(len(good) - 1), "damaged"},
		// Entries that do not make sense, with every checksum made to
		// match: a file not written by the builder.
		{"lo above hi", forged(t, good, 7, func(e []byte) { e[0], e[1] = 2, 0xfe }), "bounds [2, -2]"},
		{"bound past the seeds", forged(t, good, 9, func(e []byte) { e[1] = 9 }), "impossible with 8 seeds"},
		{"exact count", forgedHeader(t, good, func(h *header) { h.exact++ }), "the header says"},
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
	h.sum = xxhash.Sum64(data)
	f(&h)
	return append(h.encode(), data...)
}

// TestOpenChecksTheChain refuses a set whose 12-seed layer was built from
// another 8-seed layer, and a directory without tables.
func TestOpenChecksTheChain(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(dir, board.DefaultRules()); err == nil || !strings.Contains(err.Error(), "no any-capturer tables") {
		t.Fatalf("empty directory: got %v", err)
	}
	r := board.DefaultRules()
	tb, _ := buildSet(t, r, 12)
	l12, l8 := tb.Layer(12), tb.Layer(8)
	write := func(l *Layer, lowerSum uint64) {
		h := header{seeds: l.seeds, opts: l.opts, halves: 1, n: l.n, sum: l.sum, exact: l.exact, lowerSum: lowerSum}
		if err := writeLayer(filepath.Join(dir, l.opts.FileName(l.seeds)), h, l.data); err != nil {
			t.Fatal(err)
		}
	}
	write(l8, 0)
	write(l12, l8.sum^1)
	if _, err := Open(dir, r); err == nil || !strings.Contains(err.Error(), "different 8-seed layer") {
		t.Fatalf("broken chain: got %v", err)
	}
	write(l12, l8.sum)
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
// what the builds of the 8- and 12-seed layers report (their main arrays
// plus the entries written out), for a capturer set and a fixed one.
func TestBuildMemory(t *testing.T) {
	for _, r := range []board.Rules{board.DefaultRules(), {LastFour: board.LastFourSouth, NoCaptureLimit: 200}} {
		opts := OptionsFor(r)
		var got []BuildStats
		err := Build(context.Background(), BuildConfig{Dir: t.TempDir(), Options: opts, Seeds: 12,
			Layer: func(st BuildStats, resumed bool) { got = append(got, st) }})
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range got {
			actual := st.Bytes + st.Positions*EntrySize
			est := BuildMemory(st.Seeds, opts)
			if est < actual*85/100 || est > actual*115/100 {
				t.Errorf("%s, %d seeds: estimate %d bytes, the build held %d", opts, st.Seeds, est, actual)
			}
		}
		if len(got) != 2 {
			t.Fatalf("%s: %d layers built, want 2", opts, len(got))
		}
	}
}
