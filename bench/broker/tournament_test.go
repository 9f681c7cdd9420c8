package broker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/bench/match"
	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/internal/sowertest"
)

// builtinTournament is a round robin of four built-in players in
// katro-4x4, three games a pairing (the last turn has one game of each).
func builtinTournament(t *testing.T) match.Tournament {
	t.Helper()
	v, err := board.New(board.NameKatro4x4)
	if err != nil {
		t.Fatal(err)
	}
	tn := match.Tournament{Config: match.Config{Variant: v, Games: 3, Seed: 5, RandomPlies: 2}, Format: match.RoundRobin, Anchor: -1}
	for _, e := range []struct{ kind, name string }{{"greedy", "g1"}, {"random", "r1"}, {"greedy", "g2"}, {"random", "r2"}} {
		spec, err := match.ParseEngine(match.BuiltinPrefix + e.kind)
		if err != nil {
			t.Fatal(err)
		}
		spec.Name = e.name
		tn.Engines = append(tn.Engines, spec)
	}
	return tn
}

// localTournament plays tn here and returns its records and report.
func localTournament(t *testing.T, tn match.Tournament) ([]record.GameRecord, string) {
	t.Helper()
	var js, report bytes.Buffer
	tn.Config.JSON, tn.Config.Report, tn.Config.Concurrency = &js, &report, 2
	if _, err := match.RunTournament(context.Background(), tn); err != nil {
		t.Fatal(err)
	}
	return decodeRecords(t, js.Bytes()), report.String()
}

// decodeRecords reads JSON records, without what differs between two
// plays of a game (the times), ordered by game.
func decodeRecords(t *testing.T, b []byte) []record.GameRecord {
	t.Helper()
	var recs []record.GameRecord
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var r record.GameRecord
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("a record %q: %v", line, err)
		}
		for i := range r.Moves {
			r.Moves[i].MS = 0
		}
		recs = append(recs, r)
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Game < recs[j].Game })
	return recs
}

// sameTournament checks that the records and report of a tournament on
// the broker are those of the local one, game for game.
func sameTournament(t *testing.T, local []record.GameRecord, localReport string, js []byte, report string) {
	t.Helper()
	got := decodeRecords(t, js)
	checkGames(t, got, len(local))
	if !reflect.DeepEqual(got, local) {
		t.Errorf("the records differ from the local tournament's")
	}
	if report != localReport {
		t.Errorf("reports differ:\nlocal:\n%s\nbroker:\n%s", localReport, report)
	}
}

// TestTournamentDistributed plays a round robin and a gauntlet of four
// engines over the broker with two workers in process: the games,
// numbered through the tournament with their pairings, and the standings
// are those of the same tournament played here.
func TestTournamentDistributed(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, name := range []string{"w1", "w2"} {
		defer serveWorker(ctx, t, srv, &Worker{Name: name, CacheDir: t.TempDir(), Build: testBuild})()
	}
	for _, tc := range []struct {
		format          match.Format
		games, pairings int
		last            string // a pairing's name in the progress lines
	}{{match.RoundRobin, 18, 6, "; r1 vs g2: "}, {match.Gauntlet, 9, 3, "; g1 vs r2: "}} {
		tn := builtinTournament(t)
		tn.Format = tc.format
		local, localReport := localTournament(t, tn)
		if len(local) != tc.games {
			t.Fatalf("%s: %d games played here, want %d", tc.format, len(local), tc.games)
		}
		var js, report, progress sowertest.SyncBuffer
		tn.Config.JSON, tn.Config.Report, tn.Config.Progress = &js, &report, &progress
		st, err := RunTournament(ctx, dial(t, srv), Tournament{Tournament: tn, Build: testBuild})
		if err != nil {
			t.Fatalf("%s: RunTournament: %v\n%s", tc.format, err, progress.String())
		}
		if st.Games != tc.games || len(st.Results) != tc.pairings {
			t.Errorf("%s: standings of %d games, %d pairings", tc.format, st.Games, len(st.Results))
		}
		sameTournament(t, local, localReport, []byte(js.String()), report.String())
		if !strings.Contains(progress.String(), fmt.Sprintf("Finished game %d of %d (", tc.games, tc.games)) || !strings.Contains(progress.String(), tc.last) {
			t.Errorf("%s: progress:\n%s", tc.format, progress.String())
		}
	}
}

// TestTournamentWorkerKilled: a worker takes the tournament's first task
// and dies without a word; after the task's AckWait the broker hands it
// to a live worker, and the tournament is the local one game for game.
// The coordinator is then interrupted at its first record and resumed,
// as the same command would be, writing no record twice.
func TestTournamentWorkerKilled(t *testing.T) {
	tn := builtinTournament(t)
	local, localReport := localTournament(t, tn)
	srv := startServer(t, filepath.Join(t.TempDir(), "js"), ServerOptions{})
	c := dial(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// The first run: stopped at its first record, once the dead worker
	// holds the first task.
	first, interrupt := context.WithCancel(ctx)
	var js bytes.Buffer
	written := &stopAfter{w: &js, stop: interrupt}
	bt := Tournament{Tournament: tn, ID: "killed", Build: testBuild, AckWait: 500 * time.Millisecond}
	bt.Tournament.Config.JSON = written
	done := make(chan error, 1)
	go func() { _, err := RunTournament(first, c, bt); done <- err }()
	msg, task := takeTask(ctx, t, c, "killed")
	if task.Tournament == nil || *task.Tournament != (TournamentTask{Pairing: 1, Pair: 0}) || task.Pair != 0 {
		t.Fatalf("the first task is not pair 1 of pairing 1: %+v", task)
	}
	var workerOut sowertest.SyncBuffer
	defer serveWorker(ctx, t, srv, &Worker{Name: "live", CacheDir: t.TempDir(), Build: testBuild, Progress: &workerOut})()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the interrupted coordinator: %v", err)
	}

	// The same tournament again, with what the first run wrote.
	held, err := Written(bytes.NewReader(js.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var report, progress sowertest.SyncBuffer
	bt.Tournament.Config.JSON, bt.Tournament.Config.Report, bt.Tournament.Config.Progress = &js, &report, &progress
	bt.Written = held
	if _, err := RunTournament(ctx, c, bt); err != nil {
		t.Fatalf("the resumed coordinator: %v\n%s", err, progress.String())
	}
	sameTournament(t, local, localReport, js.Bytes(), report.String())
	if !strings.Contains(progress.String(), "Resuming tournament killed: ") {
		t.Errorf("the second run did not resume:\n%s", progress.String())
	}
	if meta, err := msg.Metadata(); err != nil || meta.NumDelivered != 1 {
		t.Fatalf("the dead worker's delivery: %v %+v", err, meta)
	}
	if !strings.Contains(workerOut.String(), "pair 1 of pairing 1 of tournament killed played") {
		t.Errorf("the live worker did not play the task handed out again:\n%s", workerOut.String())
	}
}

// stopAfter writes to w and calls stop after its first write: a
// coordinator interrupted the moment it writes a record.
type stopAfter struct {
	w    *bytes.Buffer
	stop context.CancelFunc
}

func (s *stopAfter) Write(p []byte) (int, error) {
	defer s.stop()
	return s.w.Write(p)
}

// TestTournamentResultRefused hands a tournament's coordinator results
// that do not hold their task's games: one naming another pairing, one
// without a pairing, one with the games of another pair. Each makes its
// task failed, naming why; nothing is written.
func TestTournamentResultRefused(t *testing.T) {
	tn := builtinTournament(t)
	var js bytes.Buffer
	tn.Config.JSON = &js
	bt := &Tournament{Tournament: tn, ID: "t", Build: testBuild}
	settings, _, err := tournamentSettings(&bt.Tournament, testBuild)
	if err != nil {
		t.Fatal(err)
	}
	j, err := newTournamentJob(bt, settings)
	if err != nil {
		t.Fatal(err)
	}
	// Task 7 is pair 2 of pairing 2 (g1 vs g2, of 6 pairings): with three
	// games a pairing, its game 3 alone.
	if task := j.pairTask(7); *task.Tournament != (TournamentTask{Pairing: 2, Pair: 1}) || task.Setup.Engines[1].Name != "g2" {
		t.Fatalf("task 7: %+v", task)
	}
	rec := func(game int) *record.GameRecord {
		return &record.GameRecord{Game: game, Variant: board.NameKatro4x4, Engine1: "south", Result: "1-0", Winner: "south", Termination: record.Normal}
	}
	for _, tc := range []struct {
		r    Result
		want string
	}{
		{Result{Pair: 7, Worker: "w", Tournament: &TournamentTask{Pairing: 3, Pair: 1}, Records: []*record.GameRecord{rec(3)}}, "names pair 2 of pairing 3, not pair 2 of pairing 2"},
		{Result{Pair: 8, Worker: "w", Records: []*record.GameRecord{rec(3)}}, "names no pairing, not pair 2 of pairing 3"},
		{Result{Pair: 0, Worker: "w", Tournament: &TournamentTask{Pairing: 1, Pair: 0}, Records: []*record.GameRecord{rec(3), rec(4)}}, "a record of game 3, want game 1"},
	} {
		if err := j.take(&tc.r, live); err != nil {
			t.Fatal(err)
		}
		if got := j.failed[tc.r.Pair]; !strings.Contains(got, "malformed result from worker w: ") || !strings.Contains(got, tc.want) {
			t.Errorf("task %d failed with %q, want %q", tc.r.Pair, got, tc.want)
		}
	}
	if js.Len() > 0 || j.tally.Standings().Games != 0 {
		t.Errorf("games counted or written:\n%s", js.String())
	}
	if err := j.end(); err == nil || !strings.Contains(err.Error(), "3 of 12 pairs failed (pairs 1, 8, 9; pair 1 of pairing 1 (g1 vs r1): ") {
		t.Errorf("end: %v", err)
	}
}
