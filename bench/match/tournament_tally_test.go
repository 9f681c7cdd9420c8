package match

import (
	"bytes"
	"context"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/sower-engine/sower/bench/record"
)

// TestTournamentTallyAsLocal plays every pairing of a round robin pair
// by pair, each on a Table of its PairingConfig and out of order, and
// counts the games with a TournamentTally: the records are those
// RunTournament writes, game for game, and so are the standings.
func TestTournamentTallyAsLocal(t *testing.T) {
	t.Parallel()
	tn := builtinTournament(t, RoundRobin, 5)
	st, local, report, _ := runTournament(t, tn)

	var js, rep bytes.Buffer
	tt := tn
	tt.Config.JSON, tt.Config.Report = &js, &rep
	tally, err := NewTournamentTally(tt)
	if err != nil {
		t.Fatal(err)
	}
	openings := tn.Config.PairOpenings()
	pairs := (tn.Config.Games + 1) / 2
	for p := tally.Pairings() - 1; p >= 0; p-- {
		cfg, err := tn.PairingConfig(p)
		if err != nil {
			t.Fatal(err)
		}
		table, err := NewTable(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for pair := pairs - 1; pair >= 0; pair-- {
			recs, err := table.PlayPair(context.Background(), pair, openings[pair%len(openings)])
			if err != nil {
				t.Fatal(err)
			}
			for _, rec := range recs {
				if p == 0 && pair == 0 {
					// Counted by an earlier run: not written again.
					if err := tally.Restore(p, rec); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err := tally.Add(p, rec); err != nil {
					t.Fatal(err)
				}
			}
		}
		table.Close()
	}
	got := decode(t, js.Bytes())
	want := slicesWithout(local, func(r record.GameRecord) bool { return r.Pairing == 1 && r.Game <= 2 })
	for _, recs := range [][]record.GameRecord{got, want} {
		sort.Slice(recs, func(a, b int) bool { return recs[a].Game < recs[b].Game })
		for i := range recs {
			for j := range recs[i].Moves {
				recs[i].Moves[j].MS = 0
			}
		}
	}
	if len(got) != len(want) || len(want) != tn.Games()-2 {
		t.Fatalf("%d games written, want %d", len(got), len(want))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the tally's records differ from the tournament's played here")
	}
	if ts := tally.Standings(); !reflect.DeepEqual(ts.Results, st.Results) || ts.Games != st.Games {
		t.Errorf("standings %+v, want %+v", ts, st)
	}
	var end bytes.Buffer
	s := tally.Standings()
	s.WriteReport(&end)
	if end.String() != report {
		t.Errorf("report:\n%s\nwant:\n%s", end.String(), report)
	}
	if err := tally.Add(7, &record.GameRecord{Game: 1}); err == nil || !strings.Contains(err.Error(), "pairing 8: the tournament has 6") {
		t.Errorf("a pairing out of range: %v", err)
	}
	if err := tally.Add(0, &record.GameRecord{Game: 6}); err == nil || !strings.Contains(err.Error(), "game 6 of pairing 1, which has 5 games") {
		t.Errorf("a game out of range: %v", err)
	}
}

// slicesWithout returns the records of recs that drop does not match.
func slicesWithout(recs []record.GameRecord, drop func(record.GameRecord) bool) []record.GameRecord {
	var out []record.GameRecord
	for _, r := range recs {
		if !drop(r) {
			out = append(out, r)
		}
	}
	return out
}
