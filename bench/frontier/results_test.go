package frontier

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

// run walks lines into the results file at path, cancelling after stop new
// records (never when stop is 0), and reports whether it was cancelled.
func run(t *testing.T, path string, cfg Config, lines []Line, stop int) bool {
	t.Helper()
	res, err := OpenResults(path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	w, err := NewWalker(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	for i := range lines {
		_, err := w.Walk(ctx, &lines[i], res.Done(lines[i].Name), func(r Record) error {
			if err := res.Append(r); err != nil {
				return err
			}
			if n++; n == stop {
				cancel()
			}
			return nil
		})
		if errors.Is(err, context.Canceled) {
			return true
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return false
}

// recordKey is what a record says that does not depend on the machine's
// speed: with one thread and a node limit, a position's proof takes the
// same nodes every time.
type recordKey struct {
	Line          string
	Before        int
	Proven        bool
	Outcome, Winn string
	Plies         int
	Nodes         uint64
}

func keys(recs []Record) []recordKey {
	var out []recordKey
	for _, r := range recs {
		out = append(out, recordKey{r.Line, r.Before, r.Proven, r.Outcome, r.Winner, r.Plies, r.Nodes})
	}
	return out
}

// A run interrupted after any number of records (every fourth number with
// -short) and run again gives the records of a run never interrupted, in
// the same order: none measured twice, none lost, the position under way
// when the interruption came measured by the next run. A last line cut
// short (a run killed while writing it) is dropped and measured again.
func TestResume(t *testing.T) {
	lines := smallLinesSeed(t, board.NameKatro6x3, 3, 5)
	cfg := Config{HashMiB: 4, Nodes: 300, Step: 2}
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.jsonl")
	if run(t, whole, cfg, lines, 0) {
		t.Fatal("the run without interruption was interrupted")
	}
	want := readAll(t, whole)
	if len(want) < 6 {
		t.Fatalf("%d records: too few to interrupt", len(want))
	}
	every := 1 // interrupt after every number of records
	if testing.Short() {
		every = 4
	}
	for stop := 1; stop < len(want); stop += every {
		path := filepath.Join(dir, "part.jsonl")
		os.Remove(path)
		if !run(t, path, cfg, lines, stop) {
			t.Fatalf("stop %d: not interrupted", stop)
		}
		if got := readAll(t, path); len(got) != stop {
			t.Fatalf("stop %d: %d records after the interruption", stop, len(got))
		}
		if stop%3 == 0 {
			cutLastLine(t, path)
		}
		if run(t, path, cfg, lines, 0) {
			t.Fatalf("stop %d: the second run was interrupted", stop)
		}
		if got := readAll(t, path); !equalKeys(keys(got), keys(want)) {
			t.Fatalf("stop %d: records after resuming\n%v\nwant\n%v", stop, keys(got), keys(want))
		}
	}
}

// cutLastLine cuts the file's last record in the middle, as a run killed
// while writing it leaves it.
func cutLastLine(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	body := strings.TrimSuffix(string(b), "\n")
	start := strings.LastIndexByte(body, '\n') + 1
	if err := os.WriteFile(path, []byte(body[:start+(len(body)-start)/2]), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readAll(t *testing.T, path string) []Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadRecords(f)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func equalKeys(a, b []recordKey) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// OpenResults refuses a file of other settings, a record measured twice
// and a damaged record before the last line.
func TestOpenResultsRefuses(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{HashMiB: 4, Nodes: 300}
	rec := `{"line":"g0","before":1,"ply":9,"proven":true,"outcome":"win","winner":"South","plies":1,"nodes":1,"ms":0,"fill":0,"limit_ms":0,"limit_nodes":300,"hash_mib":4,"threads":1}` + "\n"
	for _, tc := range []struct{ name, text, want string }{
		{"other limits", strings.Replace(rec, `"limit_nodes":300`, `"limit_nodes":400`, 1), "other settings"},
		{"other table", strings.Replace(rec, `"hash_mib":4`, `"hash_mib":8`, 1), "other settings"},
		{"settled elsewhere", strings.Replace(rec, `"threads":1`, `"threads":1,"via":"broker, leaves of 100 nodes"`, 1), "via broker, leaves of 100 nodes"},
		{"twice", rec + rec, "measured twice"},
		{"damaged", `{"line":"g0",` + "\n" + rec, "record 1"},
		{"unknown field", strings.Replace(rec, `"line"`, `"lines"`, 1), "unknown field"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := OpenResults(path, cfg)
		if err == nil {
			r.Close()
			t.Errorf("%s: accepted", tc.name)
		} else if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	path := filepath.Join(dir, "good")
	if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := OpenResults(path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if d := r.Done("g0"); len(d) != 1 || !d[1].Proven || r.Done("g1") != nil {
		t.Errorf("the records read back: %v", d)
	}
}

// The results files in the repository read back whole, each of one
// measurement's settings, and every record names a line of its lines
// file (the self-play lines, or the main line for katro-6x6-main-*) and
// a position of it (its plies before the end and from the start
// adding up to the line's length).
func TestCommittedResults(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "frontier")
	v, err := board.New(board.NameKatro)
	if err != nil {
		t.Fatal(err)
	}
	// lengths reads a lines file: its lines' lengths by name.
	lengths := func(name string) map[string]int {
		lf, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer lf.Close()
		lines, err := ReadLines(lf, v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out := map[string]int{}
		for _, l := range lines {
			out[l.Name] = len(l.Moves)
		}
		return out
	}
	selfPlay, mainLine := lengths("katro-6x6-lines.txt"), lengths("katro-6x6-main.txt")
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no results files: %v", err)
	}
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := ReadRecords(f)
		f.Close()
		if err != nil || len(recs) == 0 {
			t.Fatalf("%s: %d records, %v", path, len(recs), err)
		}
		cfg := Config{HashMiB: recs[0].HashMiB, Threads: recs[0].Threads, Time: time.Duration(recs[0].LimitMS) * time.Millisecond, Nodes: recs[0].LimitNodes, Via: recs[0].Via}
		length := selfPlay // the main line's results name themselves so
		switch base := filepath.Base(path); {
		case strings.HasPrefix(base, "katro-6x6-main-"):
			length = mainLine
		case base == "katro-6x6-60s-repeats.jsonl":
			// The walks of self-play games that repeated earlier ones
			// move for move, left out of the lines file: read back only.
			length = nil
		}
		for i, r := range recs {
			if !r.sameSettings(&cfg) {
				t.Errorf("%s: record %d of other settings than the first: %+v", path, i+1, r)
			}
			if n, ok := length[r.Line]; length != nil && (!ok || r.Before+r.Ply != n || r.Before < 1) {
				t.Errorf("%s: record %d: line %q (%d moves), %d plies before the end at ply %d", path, i+1, r.Line, n, r.Before, r.Ply)
			}
		}
	}
}
