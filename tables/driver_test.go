package tables

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestBuildResumesFromTheCheck: Build given CheckExisting's result checks
// the layers it found no more (a layer damaged after the check goes
// unnoticed, which only a second check could see), reports them as
// resumed, and builds nothing; without it, Build checks them itself and
// refuses the damaged layer.
func TestBuildResumesFromTheCheck(t *testing.T) {
	opts := OptionsFor(board.DefaultRules())
	from, dir := builtDir(t, opts, 12), t.TempDir()
	for _, n := range []int{8, 12} {
		b, err := os.ReadFile(filepath.Join(from, opts.FileName(n)))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, opts.FileName(n)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := CheckExisting(dir, opts, 12)
	if err != nil {
		t.Fatal(err)
	}
	if r.Layers() != 2 {
		t.Fatalf("%d layers found, want 2", r.Layers())
	}
	other, err := CheckExisting(dir, opts, 12)
	if err != nil {
		t.Fatal(err)
	}
	if err := Build(context.Background(), BuildConfig{Dir: dir, Options: opts, Seeds: 8, Resume: other}); err == nil {
		t.Error("Build took the check of another build")
	}
	path8 := filepath.Join(dir, opts.FileName(8))
	b, err := os.ReadFile(path8)
	if err != nil {
		t.Fatal(err)
	}
	b[HeaderSize+100] ^= 1
	if err := os.WriteFile(path8, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var resumed, built int
	count := func(_ BuildStats, res bool) {
		if res {
			resumed++
		} else {
			built++
		}
	}
	if err := Build(context.Background(), BuildConfig{Dir: dir, Options: opts, Seeds: 12, Resume: r, Layer: count}); err != nil {
		t.Fatalf("Build from the check: %v", err)
	}
	if resumed != 2 || built != 0 {
		t.Errorf("%d layers resumed, %d built; want 2 and 0", resumed, built)
	}
	err = Build(context.Background(), BuildConfig{Dir: dir, Options: opts, Seeds: 12})
	if err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("Build of its own: %v, want the damaged 8-seed layer refused", err)
	}
}
