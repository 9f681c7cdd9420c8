package book

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"sort"
	"sync"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
)

// proofs holds the certificates, one directory per game.
//
//go:embed proofs
var proofs embed.FS

// Games returns the names of the games that have certificates in fsys
// (nil: the embedded ones), sorted.
func Games(fsys fs.FS) []string {
	ents, _ := fs.ReadDir(orEmbedded(fsys), "proofs") // none when it is missing
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// Files returns the paths in fsys (nil: the embedded certificates) of
// game's certificates, proofs/<game>/*.proof, sorted.
func Files(fsys fs.FS, game string) []string {
	ms, _ := fs.Glob(orEmbedded(fsys), path.Join("proofs", game, "*.proof")) // a valid pattern
	sort.Strings(ms)
	return ms
}

// orEmbedded returns fsys, or the embedded certificates when it is nil.
func orEmbedded(fsys fs.FS) fs.FS {
	if fsys == nil {
		return proofs
	}
	return fsys
}

// Proofs returns the embedded certificates, proofs/<game>/*.proof.
func Proofs() fs.FS { return proofs }

// Load reads game's certificates in fsys (nil: the embedded ones) into one
// book, checking each proof as it is read (cert.Book.Add); nil with no
// error when game has none. The certificates are read side by side, one
// a thread (runtime.GOMAXPROCS), and merged in their files' order.
func Load(ctx context.Context, fsys fs.FS, game string) (*cert.Book, error) {
	fsys = orEmbedded(fsys)
	files := Files(fsys, game)
	if len(files) == 0 {
		return nil, nil
	}
	v, err := board.New(game)
	if err != nil {
		return nil, err
	}
	books := make([]*cert.Book, len(files))
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, f := range files {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			books[i], errs[i] = loadFile(ctx, fsys, f, v)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for _, o := range books[1:] {
		if err := books[0].Merge(o); err != nil {
			return nil, err
		}
	}
	return books[0], nil
}

// loadFile reads the certificate f into a book of its own.
func loadFile(ctx context.Context, fsys fs.FS, f string, v *board.Variant) (*cert.Book, error) {
	b, err := cert.NewBook(v)
	if err != nil {
		return nil, err
	}
	data, err := fs.ReadFile(fsys, f)
	if err != nil {
		return nil, err
	}
	if err := b.Add(ctx, bytes.NewReader(data)); err != nil {
		return nil, fmt.Errorf("%s: %w", f, err)
	}
	return b, nil
}

// Library loads each game's book the first time it is asked for, in the
// background, and keeps it. Its methods are safe for concurrent use. The
// zero value is ready to use, with the embedded certificates.
type Library struct {
	// FS holds the certificates as proofs/<game>/*.proof; nil means the
	// embedded ones. Set it before the first use.
	FS fs.FS
	// CacheDir, if set, keeps each book made from the certificates as a
	// file there (LoadCached), so that the next program to load it reads
	// it in a moment (DefaultCacheDir is the usual place). Set it before
	// the first use.
	CacheDir string
	mu       sync.Mutex
	books    map[string]*loading
	ctx      context.Context    // the loads' (made with the first)
	cancel   context.CancelFunc // stops them (Close)
	closed   bool
	loads    sync.WaitGroup
}

// ErrClosed is the error of a book asked for after Close.
var ErrClosed = errors.New("book: the library is closed")

// loading is a book being read: book, err and warn are set before done
// closes.
type loading struct {
	done chan struct{}
	book *cert.Book
	err  error
	warn error // the cache could not be written
}

// start returns the loading of game's book, starting it if need be.
func (l *Library) start(game string) *loading {
	l.mu.Lock()
	defer l.mu.Unlock()
	if ld, ok := l.books[game]; ok {
		return ld
	}
	if l.books == nil {
		l.books = map[string]*loading{}
	}
	ld := &loading{done: make(chan struct{})}
	l.books[game] = ld
	if l.closed {
		ld.err = ErrClosed
		close(ld.done)
		return ld
	}
	if l.ctx == nil {
		l.ctx, l.cancel = context.WithCancel(context.Background())
	}
	l.loads.Go(func() {
		defer close(ld.done)
		ld.book, ld.err = LoadCached(l.ctx, l.FS, game, l.CacheDir, func(err error) { ld.warn = err })
	})
	return ld
}

// Close stops the loads under way and waits for them to end. A book whose
// load it stops is not loaded: For returns nil for it and Wait the load's
// error (context.Canceled); a book asked for after Close is not loaded
// either (ErrClosed). The books loaded before stay. Close may be called
// more than once.
func (l *Library) Close() {
	l.mu.Lock()
	l.closed = true
	if l.cancel != nil {
		l.cancel()
	}
	l.mu.Unlock()
	l.loads.Wait()
}

// For returns the book of v's game once it is loaded, else nil (and starts
// loading it the first time); nil also for a game without one. It
// implements search.Books.
func (l *Library) For(v *board.Variant) *cert.Book {
	if len(Files(l.FS, v.Name())) == 0 {
		return nil
	}
	ld := l.start(v.Name())
	select {
	case <-ld.done:
		return ld.book
	default:
		return nil
	}
}

// Wait returns the book of the game named game, waiting for it to load;
// nil with no error for a game without one.
func (l *Library) Wait(ctx context.Context, game string) (*cert.Book, error) {
	if len(Files(l.FS, game)) == 0 {
		return nil, nil
	}
	ld := l.start(game)
	select {
	case <-ld.done:
		return ld.book, ld.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Warning returns what went wrong, short of failing, when the book of the
// game named game was loaded (its cache could not be written), or nil;
// nil also while it is loading.
func (l *Library) Warning(game string) error {
	l.mu.Lock()
	ld, ok := l.books[game]
	l.mu.Unlock()
	if !ok {
		return nil
	}
	select {
	case <-ld.done:
		return ld.warn
	default:
		return nil
	}
}
