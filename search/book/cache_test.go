package book_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
	"github.com/sower-engine/sower/search/book"
)

// TestLoadCached: the first load writes the cache file, the next reads it
// (a file planted under its name is what it returns), a damaged file is
// made again, and a cache that cannot be written is a warning, not an
// error.
func TestLoadCached(t *testing.T) {
	ctx := context.Background()
	fsys := smallFS(t)
	dir := filepath.Join(t.TempDir(), "books")
	fail := func(err error) { t.Errorf("warning: %v", err) }
	b, err := book.LoadCached(ctx, fsys, board.NameKatro4x6, dir, fail)
	if err != nil || b == nil || b.Len() == 0 {
		t.Fatalf("first load: %v, %v", b, err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "katro-4x6-*.book"))
	if len(files) != 1 {
		t.Fatalf("cache files %q, want one", files)
	}
	if fi, err := os.Stat(files[0]); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("cache file: %v, %v; want mode 0644", fi, err)
	}
	// A planted book under the cache's name is read, not made again.
	v, _ := board.New(board.NameKatro4x6)
	empty, _ := cert.NewBook(v)
	plant := func(data func(*os.File) error) {
		f, err := os.Create(files[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := data(f); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	plant(func(f *os.File) error { _, err := empty.WriteTo(f); return err })
	if got, err := book.LoadCached(ctx, fsys, board.NameKatro4x6, dir, fail); err != nil || got.Len() != 0 {
		t.Fatalf("planted cache: %d positions, %v; want the planted 0", got.Len(), err)
	}
	// A damaged file is made again, and rewritten.
	plant(func(f *os.File) error { _, err := f.WriteString("SOWRBOOK damaged"); return err })
	if got, err := book.LoadCached(ctx, fsys, board.NameKatro4x6, dir, fail); err != nil || got.Len() != b.Len() {
		t.Fatalf("damaged cache: %d positions, %v; want %d", got.Len(), err, b.Len())
	}
	if got, err := book.LoadCached(ctx, fsys, board.NameKatro4x6, dir, fail); err != nil || got.Len() != b.Len() {
		t.Fatalf("rewritten cache: %d positions, %v; want %d", got.Len(), err, b.Len())
	}
	// Other certificates use another file.
	data, err := fs.ReadFile(book.Proofs(), "proofs/katro-4x6/d1.proof")
	if err != nil {
		t.Fatal(err)
	}
	other := fstest.MapFS{"proofs/katro-4x6/c1.proof": {Data: data}}
	if got, err := book.LoadCached(ctx, other, board.NameKatro4x6, dir, fail); err != nil || got.Len() == b.Len() {
		t.Fatalf("other certificates: %d positions, %v", got.Len(), err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "katro-4x6-*.book")); len(files) != 2 {
		t.Errorf("cache files %q, want two", files)
	}
	// A cache that cannot be written: a file where the directory would be.
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var warned error
	got, err := book.LoadCached(ctx, fsys, board.NameKatro4x6, filepath.Join(blocked, "books"), func(err error) { warned = err })
	if err != nil || got.Len() != b.Len() || warned == nil || !strings.Contains(warned.Error(), "book cache") {
		t.Errorf("unwritable cache: %d positions, %v, warning %v", got.Len(), err, warned)
	}
}

// TestLoadCachedCancelled: a cache file is not read, nor the book made,
// once the context has ended.
func TestLoadCachedCancelled(t *testing.T) {
	fsys := smallFS(t)
	dir := filepath.Join(t.TempDir(), "books")
	if _, err := book.LoadCached(context.Background(), fsys, board.NameKatro4x6, dir, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if b, err := book.LoadCached(ctx, fsys, board.NameKatro4x6, dir, nil); !errors.Is(err, context.Canceled) || b != nil {
		t.Errorf("from the cache: %v, %v; want context.Canceled", b, err)
	}
	if b, err := book.LoadCached(ctx, fsys, board.NameKatro4x6, filepath.Join(t.TempDir(), "none"), nil); !errors.Is(err, context.Canceled) || b != nil {
		t.Errorf("without a cache: %v, %v; want context.Canceled", b, err)
	}
}
