package match

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
)

// PairOpenings returns the openings the match's pairs start from: pair k
// (games 2k+1 and 2k+2) starts from the k-th modulo their number, or with
// NoRepeat game k+1 does. They are the given Openings (shuffled with the
// seed when ShuffleOpenings is set), or RandomPlies random plies from the
// start (possibly fewer than needed, when there are not so many distinct
// ones), or the variant's start position.
func (c *Config) PairOpenings() []board.Position {
	switch {
	case len(c.Openings) > 0 && c.ShuffleOpenings:
		o := slices.Clone(c.Openings)
		rng := rand.New(rand.NewPCG(c.Seed, 0x6f72646572))
		rng.Shuffle(len(o), func(i, j int) { o[i], o[j] = o[j], o[i] })
		return o
	case len(c.Openings) > 0:
		return c.Openings
	case c.RandomPlies > 0:
		if o := randomOpenings(c.Variant, c.openingsWanted(), c.RandomPlies, c.Seed); len(o) > 0 {
			return o
		}
	}
	return []board.Position{c.Variant.Start()}
}

// openingsWanted returns how many openings the games use: one a pair, or
// with NoRepeat one a game.
func (c *Config) openingsWanted() int {
	if c.NoRepeat {
		return c.Games
	}
	return (c.Games + 1) / 2
}

// Table plays single pairs of a match's games, as each of the local
// arbiter's workers does: the same players, limits, forfeit rules and
// records, with the players kept from one pair to the next. It lets a
// match be played pair by pair on other machines. A Table is used by one
// goroutine at a time.
type Table struct {
	r *runner
	w *worker
}

// NewTable returns a table for the match cfg describes. Of cfg it uses the
// variant, the engines, Games, Seed, the time margin and timeout, Ponder
// and Log; a traditional match, whose games depend on each other's
// results, cannot be played pair by pair.
func NewTable(cfg Config) (*Table, error) {
	if cfg.Traditional {
		return nil, errors.New("a traditional match plays its games in sequence, not pair by pair")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Openings, cfg.RandomPlies, cfg.Progress = nil, 0, nil
	r := newRunner(&cfg)
	r.cancel = func() {}
	return &Table{r: r, w: newWorker()}, nil
}

// PlayPair plays pair number pair (0-based: games 2·pair+1 and 2·pair+2)
// from open and returns its records: two, or one when it is the last pair
// of an odd number of games. If ctx ends during a game the pair is
// abandoned and the error says so.
func (t *Table) PlayPair(ctx context.Context, pair int, open board.Position) ([]*record.GameRecord, error) {
	cfg := t.r.cfg
	if pair < 0 || 2*pair >= cfg.Games {
		return nil, fmt.Errorf("pair %d: the match has %d games", pair, cfg.Games)
	}
	if open.Variant() == nil || open.Variant().Name() != cfg.Variant.Name() {
		return nil, fmt.Errorf("pair %d: the opening is not a %s position", pair, cfg.Variant.Name())
	}
	var recs []*record.GameRecord
	ok := t.r.playPair(ctx, t.w, pair, func(int) board.Position { return open }, func(rec *record.GameRecord) { recs = append(recs, rec) })
	if err := t.r.log.Err(); err != nil {
		return nil, fmt.Errorf("writing the log: %w", err)
	}
	if !ok {
		err := ctx.Err()
		if err == nil {
			err = errors.New("stopped")
		}
		return nil, fmt.Errorf("pair %d abandoned: %w", pair, err)
	}
	return recs, nil
}

// Close stops the table's players.
func (t *Table) Close() {
	t.w.close()
}

// Tally is the arbiter's book-keeping without its players: it counts games
// played elsewhere and writes the same progress lines, periodic reports
// and records (JSON, PGN) as a local match, and tests the SPRT. A Tally
// is used by one goroutine at a time.
type Tally struct {
	r *runner
}

// NewTally returns a tally for the match cfg describes; it writes to
// cfg's Progress, Report, JSON and PGN.
func NewTally(cfg Config) (*Tally, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := newRunner(&cfg)
	r.cancel = func() {}
	return &Tally{r: r}, nil
}

// Add counts a finished game and writes its records and progress line
// (and the report, when one is due), as the local arbiter does. A game
// that arrives once the SPRT has decided is not counted. It returns the
// first error writing the records; after one nothing more is counted.
func (t *Tally) Add(rec *record.GameRecord) error {
	t.r.finish(rec)
	t.r.mu.Lock()
	defer t.r.mu.Unlock()
	return t.r.err
}

// Restore counts a game that an earlier run already wrote: the summary
// and the SPRT take it, but nothing is written.
func (t *Tally) Restore(rec *record.GameRecord) {
	t.r.mu.Lock()
	defer t.r.mu.Unlock()
	t.r.count(rec)
}

// Summary returns the results so far.
func (t *Tally) Summary() Summary {
	t.r.mu.Lock()
	defer t.r.mu.Unlock()
	return t.r.summary()
}
