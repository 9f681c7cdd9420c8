package tables

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sower-engine/sower/board"
)

// Tables is a set of layers for one set of rule options: every layer from
// 8 seeds up to Top(), each checked against the one below it. Probing is
// safe for concurrent use.
type Tables struct {
	opts     Options
	favoured board.Side // the player who receives the last seeds (fixed sets)
	layers   [MaxSeeds/4 + 1]*Layer
	top      int
}

// Open opens the tables for the rules r found in dir: the layers 8, 12, …
// up to the first one missing. Each file is mapped and checked (header,
// size, checksum, and that it was built from the layer below it). It is an
// error when dir holds no layer for these rules.
func Open(dir string, r board.Rules) (*Tables, error) {
	t := &Tables{opts: OptionsFor(r), favoured: board.North}
	if r.LastFour == board.LastFourSouth {
		t.favoured = board.South
	}
	for n := 8; n <= MaxSeeds; n += 4 {
		path := filepath.Join(dir, t.opts.FileName(n))
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			break
		}
		l, err := OpenLayer(path)
		if err != nil {
			t.Close()
			return nil, err
		}
		t.layers[n/4] = l
		if err := t.check(l, n); err != nil {
			t.Close()
			return nil, fmt.Errorf("table %s: %w", path, err)
		}
		t.top = n
	}
	if t.top == 0 {
		if _, err := os.Stat(filepath.Join(dir, t.opts.version1Name(8))); err == nil {
			return nil, fmt.Errorf("%s holds tables of format version 1 (%s), from an earlier Sower: this program reads version 2, which adds the exact values under Repetition off; build the tables again with sower tables build",
				dir, t.opts.version1Name(8))
		}
		return nil, fmt.Errorf("no %s tables in %s (want %s and up; build them with sower tables build)",
			t.opts, dir, t.opts.FileName(8))
	}
	return t, nil
}

// check tells whether layer l, opened as the n-seed layer, fits the set.
func (t *Tables) check(l *Layer, n int) error {
	if l.seeds != n || l.opts != t.opts {
		return fmt.Errorf("holds the %d-seed layer for %s, want %d seeds for %s", l.seeds, l.opts, n, t.opts)
	}
	want := uint64(0)
	if n > 8 {
		want = t.layers[n/4-1].id
	}
	if l.lowerSum != want {
		return fmt.Errorf("was built from a different %d-seed layer than the one present (checksum %016x, want %016x)",
			n-4, l.lowerSum, want)
	}
	return nil
}

// Close unmaps every layer.
func (t *Tables) Close() error {
	var first error
	for i, l := range t.layers {
		if l != nil {
			if err := l.Close(); err != nil && first == nil {
				first = err
			}
			t.layers[i] = nil
		}
	}
	return first
}

// Top returns the largest layer present: positions with up to Top() seeds
// on the board are in the tables.
func (t *Tables) Top() int { return t.top }

// Options returns the rule options of the set.
func (t *Tables) Options() Options { return t.opts }

// Fits reports whether the set serves a variant: Hoyito III with rules
// whose CaptureSide and LastFour it was built for.
func (t *Tables) Fits(v *board.Variant) bool {
	if v.Family() != board.Hoyito {
		return false
	}
	return t.For(v.Rules())
}

// For reports whether the set serves the rule options r.
func (t *Tables) For(r board.Rules) bool {
	if OptionsFor(r) != t.opts {
		return false
	}
	return !t.opts.Fixed || (r.LastFour == board.LastFourSouth) == (t.favoured == board.South)
}

// Probe returns the entry of p, from the side to move's view, and whether
// p is in the tables (a Hoyito III position of a variant the set Fits, with
// 8 to Top() seeds on the board). It allocates nothing.
func (t *Tables) Probe(p *board.Position) (Entry, bool) {
	l, half, c, ok := t.locate(p)
	if !ok {
		return Entry{}, false
	}
	return l.lookup(half, &c), true
}

// Value returns the exact value of p under Repetition off at p's own
// no-capture clock, from the side to move's view, in seeds of the final
// margin of the seeds on the board, and whether the tables know it: p is in
// the tables and the set has a no-capture limit. It allocates nothing.
func (t *Tables) Value(p *board.Position) (int, bool) {
	if t.opts.Limit == 0 {
		return 0, false
	}
	_, v, ok := t.ProbeValue(p)
	return v, ok
}

// ProbeValue is Probe and Value at once, for one position of a search:
// it finds the position once. It returns p's entry, its exact value (0 for
// a set without a limit, see HasValues), and whether p is in the tables.
// It allocates nothing.
func (t *Tables) ProbeValue(p *board.Position) (Entry, int, bool) {
	l, half, c, ok := t.locate(p)
	if !ok {
		return Entry{}, 0, false
	}
	i := uint64(half)*l.n + rank(&c)
	e := l.at(0, i)
	switch h := t.opts.Limit - p.Clock(); {
	case t.opts.Limit == 0:
		return e, 0, true
	case h <= 0:
		return e, c.rowSum(0) - c.rowSum(1), true
	default:
		return e, l.valueAt(i, &c, h), true
	}
}

// HasValues reports whether the set holds exact values under Repetition
// off (it was built for a no-capture limit).
func (t *Tables) HasValues() bool { return t.opts.Limit > 0 }

// locate returns p's layer, half and board as the side to move sees it.
func (t *Tables) locate(p *board.Position) (*Layer, int, cells, bool) {
	var c cells
	n := p.OnBoard()
	if n < 8 || n > t.top {
		return nil, 0, c, false
	}
	circ, _ := p.Circuit(board.South)
	half := 0
	if p.Side() == board.South {
		copy(c[:], circ[:Holes])
	} else {
		copy(c[:Row], circ[Row:Holes])
		copy(c[Row:], circ[:Row])
	}
	if t.opts.Fixed && p.Side() != t.favoured {
		half = 1
	}
	return t.layers[n/4], half, c, true
}
