package book

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sower-engine/sower/board/cert"
	"github.com/sower-engine/sower/internal/atomicfile"
)

// cacheSalt changes the cache files' names when what a book holds for the
// same certificates changes (the meaning of an entry, not its file
// format, which cert.ReadBook checks).
const cacheSalt = "sower proof book 2"

// DefaultCacheDir returns the directory of the book cache by default: sower/books
// in the user's cache directory (os.UserCacheDir), or "" (no cache) when
// the system names none.
func DefaultCacheDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "sower", "books")
}

// cacheName returns the name of the cache file of game's certificates
// files in fsys: the game and the first 16 hex digits of a SHA-256 of the
// files' names and contents, so that other certificates never read a
// book made from these.
func cacheName(fsys fs.FS, game string, files []string) (string, error) {
	h := sha256.New()
	h.Write([]byte(cacheSalt))
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return "", err
		}
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write([]byte(f))
		binary.LittleEndian.PutUint64(n[:], uint64(len(data)))
		h.Write(n[:])
		h.Write(data)
	}
	return fmt.Sprintf("%s-%s.book", game, hex.EncodeToString(h.Sum(nil))[:16]), nil
}

// LoadCached is Load with a cache in dir ("": none): a book file made
// from the same certificates is read instead of walking their proofs
// again; else the book is made, and written there for the next time. A
// cache file that cannot be read is made again; one that cannot be
// written leaves the book as good, and the error goes to warn (if set).
func LoadCached(ctx context.Context, fsys fs.FS, game, dir string, warn func(error)) (*cert.Book, error) {
	fsys = orEmbedded(fsys)
	files := Files(fsys, game)
	if dir == "" || len(files) == 0 {
		return Load(ctx, fsys, game)
	}
	name, err := cacheName(fsys, game, files)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, name)
	if b, err := readCache(ctx, path); err == nil && b.Variant().Name() == game {
		return b, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b, err := Load(ctx, fsys, game)
	if err != nil || b == nil {
		return b, err
	}
	if err := writeCache(dir, path, b); err != nil && warn != nil {
		warn(err)
	}
	return b, nil
}

// readCache reads the book file at path, until ctx ends.
func readCache(ctx context.Context, path string) (*cert.Book, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return cert.ReadBook(ctxReader{ctx, f})
}

// ctxReader reads from r until ctx ends, then returns ctx's error.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

// Read reads from r, or returns ctx's error once it has ended.
func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// writeCache writes b to path, whole or not at all (atomicfile), so that a
// reader never sees half a file.
func writeCache(dir, path string, b *cert.Book) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("book cache: %w", err)
	}
	err := atomicfile.Write(path, func(w io.Writer) error {
		_, err := b.WriteTo(w)
		return err
	})
	if err != nil {
		return fmt.Errorf("book cache: %w", err)
	}
	return nil
}
