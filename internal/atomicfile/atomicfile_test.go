package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWrite writes a new file, replaces it, and keeps it whole when a
// write fails midway; no temporary file is left either way.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	failed := errors.New("the writer failed")
	for _, tc := range []struct {
		name    string
		text    string
		err     error
		want    string // the file's text afterwards
		wantErr error
	}{
		{"new", "one\n", nil, "one\n", nil},
		{"replaced", "two\n", nil, "two\n", nil},
		{"failed midway", "three, cut", failed, "two\n", failed},
	} {
		err := Write(path, func(w io.Writer) error {
			if _, err := io.WriteString(w, tc.text); err != nil {
				return err
			}
			return tc.err
		})
		if !errors.Is(err, tc.wantErr) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.wantErr)
		}
		got, rerr := os.ReadFile(path)
		if rerr != nil || string(got) != tc.want {
			t.Errorf("%s: the file holds %q (%v), want %q", tc.name, got, rerr, tc.want)
		}
		if fi, err := os.Stat(path); err != nil {
			t.Error(err)
		} else if fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, want 0644", tc.name, fi.Mode().Perm())
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("%s: %d files in the directory, want 1 (no temporary file left)", tc.name, len(entries))
		}
	}
	if err := Write(filepath.Join(dir, "missing", "f.txt"), func(io.Writer) error { return nil }); err == nil {
		t.Error("a file in a missing directory: no error")
	}
}
