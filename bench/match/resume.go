package match

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/sower-engine/sower/bench/record"
)

// CheckPlayed checks Played as Run restores it, without writing
// anything: that every record is a game of this match (see Played). Run
// refuses what it refuses.
func (c *Config) CheckPlayed() error {
	if len(c.Played) == 0 {
		return nil
	}
	cp := *c
	cp.Progress, cp.Report, cp.JSON, cp.PGN, cp.Log = nil, nil, nil, nil, nil
	r := newRunner(&cp)
	r.cancel = func() {}
	return r.restore()
}

// restore counts the games an earlier run finished (Config.Played) and
// marks them played, after checking that each is a game of this match.
// It runs before any worker starts.
func (r *runner) restore() error {
	r.played = map[int]bool{}
	if len(r.cfg.Played) == 0 {
		return nil
	}
	recs := make([]*record.GameRecord, len(r.cfg.Played))
	for i := range r.cfg.Played {
		recs[i] = &r.cfg.Played[i]
	}
	sort.SliceStable(recs, func(a, b int) bool { return recs[a].Game < recs[b].Game })
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, rec := range recs {
		if err := r.checkRecord(rec, i); err != nil {
			return err
		}
		r.add(rec)
		r.played[rec.Game-1] = true
	}
	// The SPRT is judged once on them all: in the order of their numbers
	// it could cross a bound before the games that finished earlier.
	r.judge()
	s := &r.sum
	if p := r.cfg.Progress; p != nil {
		fmt.Fprintf(p, "Resuming: %d of %d games played before; %s, Elo %s\n",
			len(recs), r.cfg.Games, scoreText(s.Score), eloText(s.Score))
		if s.Decision != Continue {
			fmt.Fprintf(p, "The SPRT decided on the games played before (llr %.3g): no game is played\n", s.LLR)
		}
	}
	return nil
}

// checkRecord checks that rec, the i-th played game in order of number,
// is a game of this match (r.mu held; the games before it counted, so
// that a traditional match's LastFour is known).
func (r *runner) checkRecord(rec *record.GameRecord, i int) error {
	switch {
	case rec.Game < 1 || rec.Game > r.cfg.Games:
		return fmt.Errorf("game %d is recorded, but this match has %d games (--games)", rec.Game, r.cfg.Games)
	case r.played[rec.Game-1]:
		return fmt.Errorf("game %d is recorded twice", rec.Game)
	case rec.Pairing != 0:
		return fmt.Errorf("game %d is recorded as a game of a tournament's pairing %d, not of a match", rec.Game, rec.Pairing)
	case r.cfg.Traditional && rec.Game != i+1:
		return fmt.Errorf("a traditional match is resumed from its first games: game %d is recorded, game %d is not", rec.Game, i+1)
	}
	if err := rec.CheckResult(); err != nil {
		return err
	}
	idx := rec.Game - 1
	su := r.setup(idx, r.opening(idx), r.lastFourHeld(idx))
	if d := recordDiff(rec, su.record(idx, r.cfg)); d != "" {
		return fmt.Errorf("game %d was played in another match: %s", r.gameNumber(idx), d)
	}
	return nil
}

// recordDiff names the first way a played game's record differs from
// the one this match would start for it ("" when they agree).
func recordDiff(got, want *record.GameRecord) string {
	fields := []struct{ name, got, want string }{
		{"--game", got.Variant, want.Variant},
		{"rule options", optionsText(got.Options), optionsText(want.Options)},
		{"start", got.Start, want.Start},
		{"South", got.South, want.South},
		{"North", got.North, want.North},
		{"engine1's side", got.Engine1, want.Engine1},
		{"South's limit", got.SouthLimit, want.SouthLimit},
		{"North's limit", got.NorthLimit, want.NorthLimit},
	}
	for _, f := range fields {
		if f.got != f.want {
			return fmt.Sprintf("%s %q recorded, this match has %q", f.name, f.got, f.want)
		}
	}
	return ""
}

// optionsText writes rule options in a fixed order: "A=1 B=2".
func optionsText(o map[string]string) string {
	keys := slices.Sorted(maps.Keys(o))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + o[k]
	}
	return strings.Join(parts, " ")
}

// pairPlayed reports whether every game of pair was played before.
func (r *runner) pairPlayed(pair int) bool {
	for idx := 2 * pair; idx < min(2*pair+2, r.cfg.Games); idx++ {
		if !r.played[idx] {
			return false
		}
	}
	return true
}
