package match

import (
	"bytes"
	"context"
	"reflect"
	"sort"
	"testing"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
)

// timeless clears what differs between two plays of the same game: the
// time each move took.
func timeless(recs []record.GameRecord) []record.GameRecord {
	out := make([]record.GameRecord, len(recs))
	for i, r := range recs {
		r.Moves = append([]record.MoveRecord(nil), r.Moves...)
		for j := range r.Moves {
			r.Moves[j].MS = 0
		}
		out[i] = r
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Game < out[j].Game })
	return out
}

// TestTableAndTally plays a match pair by pair with a Table, in reverse
// order, counts it with a Tally, and checks that records, summary and
// report are those of the same match played by Run.
func TestTableAndTally(t *testing.T) {
	for _, games := range []int{6, 7} {
		cfg := Config{
			Variant: variant(t, board.NameHoyito3), Games: games, Concurrency: 2, RandomPlies: 4, Seed: 5,
			Engines: [2]EngineSpec{builtin("greedy"), builtin("random")},
		}
		sum, want, report := run(t, cfg)

		table, err := NewTable(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var js, tallyReport bytes.Buffer
		tcfg := cfg
		tcfg.JSON, tcfg.Report = &js, &tallyReport
		tally, err := NewTally(tcfg)
		if err != nil {
			t.Fatal(err)
		}
		opens := cfg.PairOpenings()
		for pair := (games+1)/2 - 1; pair >= 0; pair-- {
			recs, err := table.PlayPair(context.Background(), pair, opens[pair%len(opens)])
			if err != nil {
				t.Fatal(err)
			}
			if wantN := min(2, games-2*pair); len(recs) != wantN {
				t.Fatalf("pair %d: %d records, want %d", pair, len(recs), wantN)
			}
			for i, rec := range recs {
				if pair == 0 && i == 0 {
					tally.Restore(rec) // as if written by an earlier run
					continue
				}
				if err := tally.Add(rec); err != nil {
					t.Fatal(err)
				}
			}
		}
		table.Close()
		got := decode(t, js.Bytes())
		if len(got) != games-1 {
			t.Fatalf("%d games: %d records written, want %d (one restored)", games, len(got), games-1)
		}
		if !reflect.DeepEqual(timeless(got), timeless(want)[1:]) {
			t.Errorf("%d games: the table's records differ from Run's", games)
		}
		ts := tally.Summary()
		if ts.Score != sum.Score || ts.Pairs != sum.Pairs || ts.Sides != sum.Sides {
			t.Errorf("%d games: tally %+v, Run %+v", games, ts, sum)
		}
		ts.WriteReport(&tallyReport)
		if tallyReport.String() != report {
			t.Errorf("reports differ:\n%s\nvs\n%s", tallyReport.String(), report)
		}
	}
}

// TestTableRefuses checks what a table cannot play.
func TestTableRefuses(t *testing.T) {
	cfg := Config{Variant: variant(t, board.NameHoyito3), Games: 4, Traditional: true,
		Engines: [2]EngineSpec{builtin("greedy"), builtin("random")}}
	if _, err := NewTable(cfg); err == nil {
		t.Error("a traditional match was accepted")
	}
	cfg.Traditional = false
	table, err := NewTable(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer table.Close()
	if _, err := table.PlayPair(context.Background(), 2, cfg.Variant.Start()); err == nil {
		t.Error("pair 2 of 4 games was played")
	}
	if _, err := table.PlayPair(context.Background(), 0, variant(t, board.NameKatro).Start()); err == nil {
		t.Error("a katro opening was played in hoyito3")
	}
}
