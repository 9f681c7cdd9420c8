package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sower-engine/sower/bench/record"
)

// game returns a record of game n with the given moves and result.
func game(n int, moves string, result string, term record.Termination) record.GameRecord {
	g := record.GameRecord{Game: n, Result: result, Termination: term}
	for _, m := range strings.Fields(moves) {
		g.Moves = append(g.Moves, record.MoveRecord{Move: m})
	}
	return g
}

// TestCompare counts the plies saved, an adjudication that agrees, one
// that differs, and games that diverged.
func TestCompare(t *testing.T) {
	adj := []record.GameRecord{
		game(1, "a1 b2", "0-1", record.Adjudication),  // agrees
		game(2, "a1", "1-0", record.Adjudication),     // differs
		game(3, "c1 d2 e1", "1/2-1/2", record.Normal), // the same game
		game(4, "a1 c2", "0-1", record.Adjudication),  // other moves
		game(5, "a1 b2 c1", "1-0", record.Normal),     // ended, but longer when played out
	}
	played := []record.GameRecord{
		game(2, "a1 b2 c1 d2", "0-1", record.Normal),
		game(1, "a1 b2 c1 d2 e1 f2", "0-1", record.Normal),
		game(3, "c1 d2 e1", "1/2-1/2", record.Normal),
		game(4, "a1 b2 c1", "0-1", record.Normal),
		game(5, "a1 b2 c1 d2", "1-0", record.Normal),
	}
	r, err := compare(adj, played)
	if err != nil {
		t.Fatal(err)
	}
	if r.Games != 5 || r.Adjudicated != 2 || r.Agree != 1 || len(r.Differ) != 1 || !strings.HasPrefix(r.Differ[0], "game 2: adjudicated 1-0 at ply 1") ||
		r.Plies != 11 || r.PlayedPlies != 20 || len(r.Diverged) != 2 || r.Diverged[0] != 4 || r.Diverged[1] != 5 {
		t.Errorf("report %+v", r)
	}
	if s := r.Saving(); s < 0.449 || s > 0.451 {
		t.Errorf("saving %.4f, want 0.45", s)
	}
	if _, err := compare(adj, played[:4]); err == nil {
		t.Error("a game played out is missing, and no error")
	}
	played[0].Game = 6
	if _, err := compare(adj, played); err == nil || !strings.Contains(err.Error(), "game 2") {
		t.Errorf("game 2 not played out: %v", err)
	}
}

// TestRun reads two JSON records files and exits 1 on a differing
// result, 0 when every adjudication agrees.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, games ...record.GameRecord) string {
		var b bytes.Buffer
		for _, g := range games {
			line, err := json.Marshal(g)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(append(line, '\n'))
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	a := write("a.jsonl", game(1, "a1", "0-1", record.Adjudication))
	same := write("b.jsonl", game(1, "a1 b2", "0-1", record.Normal))
	other := write("c.jsonl", game(1, "a1 b2", "1-0", record.Normal))
	var out, errOut bytes.Buffer
	if st := run([]string{a, same}, &out, &errOut); st != 0 || !strings.Contains(out.String(), "50.0% saved") {
		t.Errorf("status %d\n%s%s", st, out.String(), errOut.String())
	}
	out.Reset()
	if st := run([]string{a, other}, &out, &errOut); st != 1 || !strings.Contains(out.String(), "1 differ") {
		t.Errorf("status %d\n%s", st, out.String())
	}
	if st := run([]string{a}, &out, &errOut); st != 2 {
		t.Errorf("one file: status %d, want 2", st)
	}
}
