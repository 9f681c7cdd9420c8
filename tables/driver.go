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
	// Resume, if not nil, is what CheckExisting found in Dir for these
	// options and seeds: Build continues from it without checking those
	// layers again, and closes it.
	Resume *Resume
	// Leftover, if not nil, is called for each temporary file of an
	// earlier, killed build of the set that Build removes from Dir
	// (RemoveLeftovers), before it builds and when it is done.
	Leftover func(Leftover)
}

// Build builds the layers 8, 12, … cfg.Seeds in cfg.Dir, each from the one
// below it. The layers whose files already exist are checked (header,
// size, checksum, and that each was built from the layer below) and kept,
// so an interrupted build resumes with the first missing layer; a damaged
// file is an error, not rebuilt. The check is CheckExisting's, made here
// unless cfg.Resume holds its result. Each file is written under a
// temporary name and renamed when complete, so an interruption (ctx
// cancelled) never leaves a partial layer behind; the temporary files a
// killed build left are removed (BuildConfig.Leftover).
func Build(ctx context.Context, cfg BuildConfig) error {
	if cfg.Resume != nil {
		defer cfg.Resume.Close()
	}
	if err := checkLayer(cfg.Seeds); err != nil {
		return err
	}
	if err := cfg.Options.check(); err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return err
	}
	r := cfg.Resume
	if r == nil {
		var err error
		if r, err = CheckExisting(cfg.Dir, cfg.Options, cfg.Seeds); err != nil {
			return err
		}
	} else if r.dir != cfg.Dir || r.opts != cfg.Options || r.seeds != cfg.Seeds {
		return errors.New("tables: BuildConfig.Resume is for another build")
	}
	if err := removeLeftovers(cfg); err != nil {
		return err
	}
	lower := r.top
	r.top = nil
	defer func() {
		if lower != nil {
			lower.Close()
		}
	}()
	for _, st := range r.present {
		if cfg.Layer != nil {
			cfg.Layer(st, true)
		}
	}
	for n := 8 + 4*len(r.present); n <= cfg.Seeds; n += 4 {
		path := filepath.Join(cfg.Dir, cfg.Options.FileName(n))
		// A layer above a missing one is checked when its turn comes.
		l, err := existing(path, n, cfg.Options, lower)
		if err != nil {
			return err
		}
		if l != nil {
			if cfg.Layer != nil {
				cfg.Layer(presentStats(n, l), true)
			}
		} else if l, err = buildAndOpen(ctx, cfg, n, lower, path); err != nil {
			return err
		}
		if lower != nil {
			lower.Close()
		}
		lower = l
	}
	return removeLeftovers(cfg)
}

// removeLeftovers removes the temporary files of killed builds of cfg's
// set and reports each.
func removeLeftovers(cfg BuildConfig) error {
	gone, err := RemoveLeftovers(cfg.Dir, cfg.Options)
	for _, l := range gone {
		if cfg.Leftover != nil {
			cfg.Leftover(l)
		}
	}
	if err != nil {
		return fmt.Errorf("removing the temporary files of an earlier build: %w", err)
	}
	return nil
}

// buildAndOpen builds the n-seed layer from lower, writes it at path,
// opens it and reports it.
func buildAndOpen(ctx context.Context, cfg BuildConfig, n int, lower *Layer, path string) (*Layer, error) {
	out, st, err := buildLayer(ctx, n, cfg.Options, lower, cfg.Workers, cfg.Progress, cfg.Dir)
	if err != nil {
		return nil, err
	}
	h := header{seeds: n, opts: cfg.Options, halves: cfg.Options.halves(), n: Positions(n), exact: st.Exact,
		last: out.last, period: out.period, changes: out.changes, clkSize: uint64(len(out.clk))}
	if lower != nil {
		h.lowerSum = lower.id
	}
	h.sum, h.clkSum = xxhash.Sum64(out.entries), xxhash.Sum64(out.clk)
	if err := writeLayer(path, h, out.entries, out.clk); err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	out = built{}
	// The layer's working memory goes back to the system before its file
	// is mapped and read, which would add to it.
	debug.FreeOSMemory()
	l, err := OpenLayer(path)
	if err != nil {
		return nil, err
	}
	st.Bytes = max(st.Bytes, uint64(l.Size()))
	if cfg.Layer != nil {
		cfg.Layer(st, false)
	}
	return l, nil
}

// presentStats is the report of a layer found already built.
func presentStats(n int, l *Layer) BuildStats {
	return BuildStats{Seeds: n, Positions: l.Entries(), Exact: l.exact, Bytes: uint64(l.Size())}
}

// Resume is what CheckExisting found in a directory: the layers of a set
// already built there and checked, for Build to continue from
// (BuildConfig.Resume) without checking them again.
type Resume struct {
	dir     string
	opts    Options
	seeds   int
	present []BuildStats // the layers found, 8 seeds up
	top     *Layer       // the last of them, open; nil if none
}

// Layers returns the number of layers found already built.
func (r *Resume) Layers() int { return len(r.present) }

// Close releases the layer r keeps open. Build does it for the Resume it
// is given.
func (r *Resume) Close() error {
	if r.top == nil {
		return nil
	}
	err := r.top.Close()
	r.top = nil
	return err
}

// CheckExisting checks the layers of opts already in dir, 8 seeds up to
// seeds or the first missing one, as Build does before it resumes: each
// must open (header, size, checksums, sense) and be built from the layer
// below. A layer that cannot be used is a *FileError. It builds nothing;
// Build takes what it found (BuildConfig.Resume) and checks them no more.
func CheckExisting(dir string, opts Options, seeds int) (*Resume, error) {
	r := &Resume{dir: dir, opts: opts, seeds: seeds}
	for n := 8; n <= seeds; n += 4 {
		l, err := existing(filepath.Join(dir, opts.FileName(n)), n, opts, r.top)
		if err != nil {
			r.Close()
			return nil, err
		}
		if l == nil {
			break
		}
		r.Close()
		r.top = l
		r.present = append(r.present, presentStats(n, l))
	}
	return r, nil
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
