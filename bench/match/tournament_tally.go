package match

import (
	"errors"
	"fmt"

	"github.com/sower-engine/sower/bench/record"
)

// TournamentTally is a tournament's book-keeping without its players: it
// counts games of its pairings played elsewhere (each pairing played as
// the match PairingConfig returns) and writes the same progress lines,
// periodic reports and records as RunTournament, numbering the games
// through the tournament. A TournamentTally is used by one goroutine at a
// time.
type TournamentTally struct {
	tr *tourney
}

// NewTournamentTally returns a tally for the tournament t describes; it
// writes to its Config's Progress, Report, JSON and PGN. Games played
// before are counted with Restore, not through Config.Played.
func NewTournamentTally(t Tournament) (*TournamentTally, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	if len(t.Config.Played) > 0 {
		return nil, errors.New("a tournament tally counts the games played before with Restore, not Config.Played")
	}
	return &TournamentTally{tr: newTourney(&t)}, nil
}

// Pairings returns the number of pairings.
func (tt *TournamentTally) Pairings() int { return len(tt.tr.pairings) }

// Number returns the number in the tournament of game idx (0-based, in
// the pairing's numbering) of pairing p (0-based).
func (tt *TournamentTally) Number(p, idx int) int { return tt.tr.number(p, idx) }

// check checks that rec can be game idx+1 of pairing p.
func (tt *TournamentTally) check(p int, rec *record.GameRecord) error {
	switch {
	case p < 0 || p >= len(tt.tr.pairings):
		return fmt.Errorf("pairing %d: the tournament has %d", p+1, len(tt.tr.pairings))
	case rec.Game < 1 || rec.Game > tt.tr.t.Config.Games:
		return fmt.Errorf("game %d of pairing %d, which has %d games", rec.Game, p+1, tt.tr.t.Config.Games)
	case rec.Pairing != 0:
		return fmt.Errorf("game %d of pairing %d is numbered in the tournament already (pairing %d)", rec.Game, p+1, rec.Pairing)
	}
	return nil
}

// Add counts a finished game of pairing p (0-based), numbered in the
// pairing as a Table of PairingConfig(p) plays it; it numbers the game in
// the tournament (its Game and Pairing) and writes its records, its
// progress line and the report when one is due, as RunTournament does.
// It returns the first error writing the records; after one nothing
// more is counted.
func (tt *TournamentTally) Add(p int, rec *record.GameRecord) error {
	if err := tt.check(p, rec); err != nil {
		return err
	}
	tt.tr.finish(p, rec)
	tt.tr.mu.Lock()
	defer tt.tr.mu.Unlock()
	return tt.tr.err
}

// Restore counts a game of pairing p that an earlier run already wrote,
// numbered as for Add: the standings take it, but nothing is written.
func (tt *TournamentTally) Restore(p int, rec *record.GameRecord) error {
	if err := tt.check(p, rec); err != nil {
		return err
	}
	tt.tr.mu.Lock()
	defer tt.tr.mu.Unlock()
	r := tt.tr.runs[p]
	r.mu.Lock()
	r.add(rec)
	r.mu.Unlock()
	tt.tr.counted++
	return nil
}

// Standings returns the standings so far.
func (tt *TournamentTally) Standings() Standings {
	tt.tr.mu.Lock()
	defer tt.tr.mu.Unlock()
	return tt.tr.standings()
}
