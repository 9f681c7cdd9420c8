package tables

import (
	"context"
	"runtime/debug"

	"errors"
	"fmt"
	"github.com/cespare/xxhash/v2"
	"io/fs"
	"os"
	"path/filepath"
)

// BuildConfig says what Build builds.
type BuildConfig struct {
	Dir     string  // where the layer files go (created if missing)
	Options Options // the rule options
	Seeds   int     // the largest layer to build: 8, 12, 16, …
	Workers int     // goroutines; 0 means GOMAXPROCS
	// Progress, if not nil, receives reports during each layer's build,
	// about once a second per phase.
	Progress func(Progress)
	// Layer, if not nil, is called for each layer when it is done: built
	// now (resumed false) or found already built and checked (resumed true;
	// then only Seeds, Positions, Exact and Bytes are set).
	Layer func(st BuildStats, resumed bool)
}

// Build builds the layers 8, 12, … cfg.Seeds in cfg.Dir, each from the one
// below it. A layer whose file already exists is checked (header, size,
// checksum, and that it was built from the layer below) and kept, so an
// interrupted build resumes with the first missing layer; a damaged file
// is an error, not rebuilt. Each file is written under a temporary name
// and renamed when complete, so an interruption (ctx cancelled) never
// leaves a partial layer behind.
func Build(ctx context.Context, cfg BuildConfig) error {
	if err := checkLayer(cfg.Seeds); err != nil {
		return err
	}
	if err := cfg.Options.check(); err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return err
	}
	var lower *Layer
	defer func() {
		if lower != nil {
			lower.Close()
		}
	}()
	for n := 8; n <= cfg.Seeds; n += 4 {
		path := filepath.Join(cfg.Dir, cfg.Options.FileName(n))
		l, err := existing(path, n, cfg.Options, lower)
		if err != nil {
			return err
		}
		if l != nil {
			if cfg.Layer != nil {
				cfg.Layer(BuildStats{Seeds: n, Positions: l.Entries(), Exact: l.exact, Bytes: uint64(l.Size())}, true)
			}
		} else {
			out, st, err := buildLayer(ctx, n, cfg.Options, lower, cfg.Workers, cfg.Progress, cfg.Dir)
			if err != nil {
				return err
			}
			h := header{seeds: n, opts: cfg.Options, halves: cfg.Options.halves(), n: Positions(n), exact: st.Exact,
				last: out.last, period: out.period, changes: out.changes, clkSize: uint64(len(out.clk))}
			if lower != nil {
				h.lowerSum = lower.id
			}
			h.sum, h.clkSum = xxhash.Sum64(out.entries), xxhash.Sum64(out.clk)
			if err := writeLayer(path, h, out.entries, out.clk); err != nil {
				return fmt.Errorf("writing %s: %w", path, err)
			}
			out = built{}
			// The layer's working memory goes back to the system before
			// its file is mapped and read, which would add to it.
			debug.FreeOSMemory()
			if l, err = OpenLayer(path); err != nil {
				return err
			}
			st.Bytes = max(st.Bytes, uint64(l.Size()))
			if cfg.Layer != nil {
				cfg.Layer(st, false)
			}
		}
		if lower != nil {
			lower.Close()
		}
		lower = l
	}
	return nil
}

// CheckExisting checks the layers of opts already in dir, 8 seeds up to
// seeds or the first missing one, as Build does before it resumes: each
// must open (header, size, checksums, sense) and be built from the layer
// below. A layer that cannot be used is a *FileError. It builds nothing.
func CheckExisting(dir string, opts Options, seeds int) error {
	var lower *Layer
	defer func() {
		if lower != nil {
			lower.Close()
		}
	}()
	for n := 8; n <= seeds; n += 4 {
		l, err := existing(filepath.Join(dir, opts.FileName(n)), n, opts, lower)
		if err != nil || l == nil {
			return err
		}
		if lower != nil {
			lower.Close()
		}
		lower = l
	}
	return nil
}

// existing opens the n-seed layer at path if it exists and checks that it
// is for opts and built from lower. It returns nil, nil when there is no
// file.
func existing(path string, n int, opts Options, lower *Layer) (*Layer, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	l, err := OpenLayer(path)
	if err != nil {
		return nil, fmt.Errorf("%w (delete it to build it again)", err)
	}
	want := uint64(0)
	if lower != nil {
		want = lower.id
	}
	if l.seeds != n || l.opts != opts || l.lowerSum != want {
		l.Close()
		return nil, &FileError{Path: path, Err: fmt.Errorf("not the %d-seed %s layer built from the layer below (delete it to build it again)", n, opts)}
	}
	return l, nil
}
