package frontier

import (
	"context"
	"fmt"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search"
)

// smallLinesSeed plays short self-play lines of a small board, from
// openings of two random plies drawn with seed.
func smallLinesSeed(t *testing.T, name string, games int, seed uint64) []Line {
	t.Helper()
	v, err := board.New(name)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := Generate(context.Background(), GenerateConfig{Variant: v, Games: games, Nodes: 300, RandomPlies: 2, Seed: seed, HashMiB: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) < 2 || len(lines) > games {
		t.Fatalf("%s: %d lines of %d games", name, len(lines), games)
	}
	seen := map[string]bool{}
	for _, l := range lines {
		game := l.Start.String() + board.FormatMoves(l.Moves)
		if seen[game] {
			t.Fatalf("%s: game %s repeats an earlier one", name, l.Name)
		}
		seen[game] = true
	}
	return lines
}

// walk walks every line with cfg and returns the records by line.
func walk(t *testing.T, lines []Line, cfg Config) map[string][]Record {
	t.Helper()
	w, err := NewWalker(cfg)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]Record{}
	for i := range lines {
		var emitted []Record
		recs, err := w.Walk(context.Background(), &lines[i], nil, func(r Record) error { emitted = append(emitted, r); return nil })
		if err != nil {
			t.Fatal(err)
		}
		if len(emitted) != len(recs) {
			t.Fatalf("line %s: %d records emitted, %d returned", lines[i].Name, len(emitted), len(recs))
		}
		out[lines[i].Name] = recs
	}
	return out
}

// Walked back without limits on katro-4x4 and katro-6x3 lines, every
// position to the start is proven, each walked once, and each result is
// the one the alpha-beta solver (package search, an independent method)
// finds for the position with the game's history: a win, a loss or a
// draw for the side to move. (The 6x3 lines are those of a seed whose
// positions the alpha-beta solver settles in milliseconds; it takes
// minutes on some positions of longer 6x3 lines.)
func TestWalkAgreesWithSolve(t *testing.T) {
	var lines []Line
	lines = append(lines, smallLinesSeed(t, board.NameKatro4x4, 4, 5)...)
	lines = append(lines, smallLinesSeed(t, board.NameKatro4x4, 4, 7)...)
	lines = append(lines, smallLinesSeed(t, board.NameKatro6x3, 3, 7)...)
	for i := range lines {
		lines[i].Name = fmt.Sprintf("%s-%d", lines[i].Name, i)
	}
	for _, step := range []int{1, 3} {
		byLine := walk(t, lines, Config{HashMiB: 4, Step: step})
		for i := range lines {
			l := &lines[i]
			seen := map[int]bool{}
			for _, r := range byLine[l.Name] {
				if seen[r.Before] {
					t.Fatalf("%s step %d: %d plies before the end walked twice", l.Name, step, r.Before)
				}
				seen[r.Before] = true
				checkAgainstSolve(t, l, &r)
			}
			if open := checkOrder(t, l, step, byLine[l.Name]); open {
				t.Errorf("%s step %d: the walk without limits ends short of the start", l.Name, step)
			}
		}
	}
}

// checkAgainstSolve compares a proven record with the alpha-beta solver's
// value of its position.
func checkAgainstSolve(t *testing.T, l *Line, r *Record) {
	t.Helper()
	g, err := l.Game(r.Ply)
	if err != nil {
		t.Fatal(err)
	}
	p := g.Position()
	res, err := search.Solve(context.Background(), p, search.SolveConfig{History: g.History(), HashMiB: 4}, nil)
	if err != nil || res.Lo != res.Hi {
		t.Fatalf("%s ply %d: the alpha-beta solver: bounds %d %d, %v", l.Name, r.Ply, res.Lo, res.Hi, err)
	}
	want := map[int]string{1: "win", 0: "draw", -1: "loss"}[res.Lo]
	winner := ""
	switch res.Lo {
	case 1:
		winner = p.Side().String()
	case -1:
		winner = p.Side().Other().String()
	}
	if !r.Proven || r.Outcome != want || r.Winner != winner || r.Before != len(l.Moves)-r.Ply {
		t.Errorf("%s ply %d: record %+v, want proven %s (winner %q) %d plies before the end", l.Name, r.Ply, *r, want, winner, len(l.Moves)-r.Ply)
	}
}

// With a node limit too small for the whole line, the walk goes back
// until the first position left open; with a step of 3 the positions
// between the last proven one and the open one are then walked from the
// nearer end, until one is open.
func TestWalkStopsAtTheFirstOpenPosition(t *testing.T) {
	lines := smallLinesSeed(t, board.NameKatro6x3, 4, 5)
	stopped := 0
	for _, step := range []int{1, 3} {
		byLine := walk(t, lines, Config{HashMiB: 4, Nodes: 40, Step: step})
		for i := range lines {
			recs := byLine[lines[i].Name]
			if checkOrder(t, &lines[i], step, recs) {
				stopped++
			}
			for _, r := range recs {
				if !r.Proven && (r.Outcome != "unknown" || r.Winner != "" || r.Plies != 0) {
					t.Errorf("%s step %d: an open position's record %+v", lines[i].Name, step, r)
				}
			}
		}
	}
	if stopped == 0 {
		t.Fatal("no walk stopped at an open position: the node limit proves everything")
	}
}

// checkOrder checks the order of a walk's records with step on l: the
// positions step, 2·step, … plies before the end (and the start last)
// while proven; after the first open one, those between the last proven
// one and it, from the nearer end, until one is open. It reports whether
// the walk ended at an open position rather than at the start.
func checkOrder(t *testing.T, l *Line, step int, recs []Record) bool {
	t.Helper()
	n := len(l.Moves)
	i, proven, open := 0, 0, 0
	next := func(want int) (Record, bool) {
		if i == len(recs) || recs[i].Before != want {
			t.Errorf("%s step %d: record %d of %v: want %d plies before the end", l.Name, step, i, befores(recs), want)
			return Record{}, false
		}
		i++
		return recs[i-1], true
	}
	for proven < n {
		b := min(proven+step, n)
		r, ok := next(b)
		if !ok {
			return false
		}
		if !r.Proven {
			open = b
			break
		}
		proven = b
	}
	if open == 0 {
		if i != len(recs) {
			t.Errorf("%s step %d: records after the start: %v", l.Name, step, befores(recs))
		}
		return false
	}
	for b := proven + 1; b < open; b++ {
		r, ok := next(b)
		if !ok {
			return true
		}
		if !r.Proven {
			break
		}
	}
	if i != len(recs) {
		t.Errorf("%s step %d: records after the first open position between: %v", l.Name, step, befores(recs))
	}
	return true
}

// befores lists the records' plies before the end.
func befores(recs []Record) []int {
	var out []int
	for _, r := range recs {
		out = append(out, r.Before)
	}
	return out
}

// With From, the walk begins that many plies before the end: nothing
// nearer the end is measured, even after a failure, and each position it
// measures has the record a walk from the end gives it (the searches are
// the same, one thread within a node limit).
func TestWalkFrom(t *testing.T) {
	lines := smallLinesSeed(t, board.NameKatro6x3, 4, 5)
	const from, step = 3, 2
	full := walk(t, lines, Config{HashMiB: 4, Nodes: 2000, Step: 1})
	part := walk(t, lines, Config{HashMiB: 4, Nodes: 2000, Step: step, From: from})
	measured := 0
	for i := range lines {
		l := &lines[i]
		byBefore := map[int]Record{}
		for _, r := range full[l.Name] {
			byBefore[r.Before] = r
		}
		recs := part[l.Name]
		if len(recs) == 0 || recs[0].Before != min(from, len(l.Moves)) {
			t.Fatalf("%s: the walk from %d began at %v", l.Name, from, befores(recs))
		}
		proven := from - 1
		for k, r := range recs {
			if r.Before < from {
				t.Errorf("%s: %d plies before the end measured, nearer than %d", l.Name, r.Before, from)
			}
			if f, ok := byBefore[r.Before]; ok {
				measured++
				if f.Proven != r.Proven || f.Outcome != r.Outcome || f.Nodes != r.Nodes {
					t.Errorf("%s, %d plies before the end: %+v from %d, %+v from the end", l.Name, r.Before, r, from, f)
				}
			}
			if !r.Proven {
				// Then only the positions between the last proven one and it.
				for _, b := range recs[k+1:] {
					if b.Before <= proven || b.Before >= r.Before {
						t.Errorf("%s: after %d open, %d plies before the end (last proven %d)", l.Name, r.Before, b.Before, proven)
					}
				}
				break
			}
			proven = r.Before
		}
	}
	if measured == 0 {
		t.Fatal("no position measured by both walks: the test compares nothing")
	}
	// A line's own beginning (FromLines, as --after gives it: the ply
	// after the farthest proven in the walk from the end) overrides From.
	after := After(full[lines[0].Name])
	own := walk(t, lines[:1], Config{HashMiB: 4, Nodes: 2000, Step: step, From: from, FromLines: after})
	l := &lines[0]
	want := min(after[l.Name], len(l.Moves))
	if recs := own[l.Name]; len(recs) == 0 || recs[0].Before != want {
		t.Errorf("%s: FromLines %v: the walk began at %v, want %d", l.Name, after, befores(recs), want)
	}
}

// After gives each line of the records the ply after its farthest
// position proven (the first at 1 when none is).
func TestAfter(t *testing.T) {
	recs := []Record{
		{Line: "a", Before: 2, Proven: true}, {Line: "a", Before: 4, Proven: true}, {Line: "a", Before: 6},
		{Line: "a", Before: 5, Proven: true}, {Line: "b", Before: 1},
	}
	got := After(recs)
	if len(got) != 2 || got["a"] != 6 || got["b"] != 1 {
		t.Errorf("After: %v, want a at 6, b at 1", got)
	}
}
