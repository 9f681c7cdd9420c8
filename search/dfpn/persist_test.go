package dfpn

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// savedTable solves p with a fresh solver (within budget nodes a search;
// 0: no limit) and returns the solver, its result and its saved table.
func savedTable(t testing.TB, p board.Position, budget uint64) (*Solver, Result, []byte) {
	t.Helper()
	s, err := New(Config{HashMiB: 16, MaxNodes: budget})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Solve(context.Background(), p, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := s.Save(&buf); err != nil {
		t.Fatal(err)
	}
	return s, res, buf.Bytes()
}

func startOf(t testing.TB, name string) board.Position {
	t.Helper()
	v, err := board.New(name)
	if err != nil {
		t.Fatal(err)
	}
	return v.Start()
}

// TestSaveLoadRoundTrip saves the table of the katro-4x4 start's proof,
// loads it into another solver and finds there every entry saved, the
// same; the loaded solver proves the start again in fewer nodes.
func TestSaveLoadRoundTrip(t *testing.T) {
	p := startOf(t, "katro-4x4")
	s, res, file := savedTable(t, p, 0)
	if res.Outcome != Win {
		t.Fatalf("katro-4x4: %s, want a win", res.Outcome)
	}
	l, err := New(Config{HashMiB: 16})
	if err != nil {
		t.Fatal(err)
	}
	// Another Variant of the same board and rules: the table serves it.
	same, err := board.New("katro-4x4")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Load(bytes.NewReader(file), same); err != nil {
		t.Fatal(err)
	}
	saved := 0
	for i := range s.tt.e {
		e := &s.tt.e[i]
		if !keep(e) {
			continue
		}
		saved++
		if got, ok := l.tt.find(e.key); !ok || got != *e {
			t.Fatalf("entry %+v loaded as %+v (%v)", *e, got, ok)
		}
	}
	if saved == 0 || saved*recordBytes+64 < len(file) {
		t.Errorf("%d entries saved in %d bytes", saved, len(file))
	}
	again, err := l.Solve(context.Background(), p, nil, nil)
	if err != nil || again.Outcome != res.Outcome || again.Winner != res.Winner || again.Nodes >= res.Nodes/4 {
		t.Errorf("after loading: %+v, %v; first %+v", again, err, res)
	}
}

// TestResumeReachesTheSameResult stops searches after a few nodes, saves
// and resumes them in a new solver until they finish, and checks that they
// end as one uninterrupted search does: the katro-4x4 start, and random
// late katro-4x6 positions.
func TestResumeReachesTheSameResult(t *testing.T) {
	roots := []board.Position{startOf(t, "katro-4x4")}
	v, _ := board.New("katro-4x6")
	rng := rand.New(rand.NewPCG(5, 6))
	for len(roots) < 6 {
		if p, ok := lateSample(v, rng, 20); ok {
			roots = append(roots, p)
		}
	}
	for _, p := range roots {
		_, whole, _ := savedTable(t, p, 0)
		file, res := []byte(nil), Result{}
		for round := 0; res.Outcome == Unknown; round++ {
			if round > 200 {
				t.Fatalf("%s: not finished in %d rounds", p.String(), round)
			}
			s, err := New(Config{HashMiB: 16, MaxNodes: 300})
			if err != nil {
				t.Fatal(err)
			}
			if file != nil {
				if err := s.Load(bytes.NewReader(file), p.Variant()); err != nil {
					t.Fatalf("%s: round %d: %v", p.String(), round, err)
				}
			}
			if res, err = s.Solve(context.Background(), p, nil, nil); err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if _, err := s.Save(&buf); err != nil {
				t.Fatal(err)
			}
			file = buf.Bytes()
		}
		if res.Outcome != whole.Outcome || res.Winner != whole.Winner {
			t.Errorf("%s: resumed %s (%s), whole %s (%s)", p.String(), res.Outcome, res.Winner, whole.Outcome, whole.Winner)
		}
	}
}

// TestLoadRefuses checks that damaged and foreign files are refused with
// the right error, leaving the table empty.
func TestLoadRefuses(t *testing.T) {
	p := startOf(t, "katro-4x4")
	_, _, file := savedTable(t, p, 0)
	_, _, other := savedTable(t, startOf(t, "katro-6x3"), 0)
	v := p.Variant()
	short, err := board.NewWithRules("katro-4x4", board.Rules{NoCaptureLimit: 100})
	if err != nil {
		t.Fatal(err)
	}
	flip := func(i int) []byte {
		b := bytes.Clone(file)
		b[i] ^= 0x10
		return b
	}
	for _, c := range []struct {
		name string
		file []byte
		v    *board.Variant
		want error
	}{
		{"empty", nil, v, ErrForeign},
		{"text", []byte("2,2,2,2/2,2,2,2/2,2,2,2/2,2,2,2 S\tb1\n"), v, ErrForeign},
		{"version", flip(len(fileMagic)), v, ErrForeign},
		{"record size", flip(len(fileMagic) + 2), v, ErrForeign},
		{"other game", other, v, ErrForeign},
		{"other rules", file, short, ErrForeign},
		{"header cut", file[:20], v, ErrDamaged},
		{"record cut", file[:len(file)/2], v, ErrDamaged},
		{"no checksum", file[:len(file)-8], v, ErrDamaged},
		{"record changed", flip(len(file) / 2), v, ErrDamaged},
		{"checksum changed", flip(len(file) - 1), v, ErrDamaged},
		{"bytes after", append(bytes.Clone(file), 0), v, ErrDamaged},
	} {
		s, err := New(Config{HashMiB: 1})
		if err != nil {
			t.Fatal(err)
		}
		err = s.Load(bytes.NewReader(c.file), c.v)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
		if s.tt.used.Load() != 0 {
			t.Errorf("%s: %d entries left in the table", c.name, s.tt.used.Load())
		}
	}
}

// TestSaveLoadFile saves a table to a file and loads it back: the file
// holds what Save writes, and LoadFile's refusals name the file.
func TestSaveLoadFile(t *testing.T) {
	p := startOf(t, "katro-4x4")
	s, _, want := savedTable(t, p, 0)
	dir := t.TempDir()
	path := filepath.Join(dir, "k44.dfpn")
	n, err := s.SaveFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) || n == 0 {
		t.Fatalf("the file: %d bytes (%v), %d entries; want the %d bytes Save writes", len(got), err, n, len(want))
	}
	if _, err := s.SaveFile(filepath.Join(dir, "none", "k44.dfpn")); err == nil {
		t.Error("SaveFile into a missing directory: no error")
	}
	damaged := filepath.Join(dir, "damaged.dfpn")
	if err := os.WriteFile(damaged, want[:len(want)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want error
	}{
		{path, nil},
		{damaged, ErrDamaged},
		{filepath.Join(dir, "none.dfpn"), fs.ErrNotExist},
	} {
		l, err := New(Config{HashMiB: 16})
		if err != nil {
			t.Fatal(err)
		}
		err = l.LoadFile(c.path, p.Variant())
		if !errors.Is(err, c.want) || (err != nil && !strings.Contains(err.Error(), c.path)) {
			t.Errorf("LoadFile %s: %v, want %v naming the file", c.path, err, c.want)
		}
		if c.want == nil && l.tt.used.Load() != int64(n) {
			t.Errorf("LoadFile %s: %d entries, want the %d saved", c.path, l.tt.used.Load(), n)
		}
	}
}

// FuzzLoad feeds the loader arbitrary files: it never panics, and what it
// accepts saves and loads again.
func FuzzLoad(f *testing.F) {
	_, _, file := savedTable(f, startOf(f, "katro-6x3"), 0)
	f.Add(file)
	f.Add([]byte(fileMagic))
	v, err := board.New("katro-6x3")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := New(Config{HashMiB: 1})
		if err != nil {
			t.Fatal(err)
		}
		if s.Load(bytes.NewReader(b), v) != nil {
			return
		}
		var buf bytes.Buffer
		if _, err := s.Save(&buf); err != nil {
			t.Fatal(err)
		}
		if err := s.Load(bytes.NewReader(buf.Bytes()), v); err != nil {
			t.Fatalf("a table loaded and saved again is refused: %v", err)
		}
	})
}

// TestCollectIsSaveWithoutTheFile stops searches of late katro-4x6
// positions after an eighth of the nodes their whole search takes,
// collects their tables and checks that what is left is what Save writes,
// byte for byte (so that a search goes on after it as after --save and
// --resume), that something was dropped, and that rounds of
// collect-and-go-on end as the whole search does. Six positions; two
// under the race detector, which slows the single-threaded search some
// tenfold and has nothing to find in it, and none (skipped) with it under
// -short.
func TestCollectIsSaveWithoutTheFile(t *testing.T) {
	if raceEnabled && testing.Short() {
		t.Skip("one-thread searches and a table's collect: slow under the race detector, and nothing concurrent")
	}
	v, _ := board.New("katro-4x6")
	rng := rand.New(rand.NewPCG(7, 8))
	dropped := 0
	positions := 6
	if raceEnabled {
		positions = 2
	}
	for tried := 0; tried < positions; {
		p, ok := lateSample(v, rng, 20)
		if !ok {
			continue
		}
		_, whole, _ := savedTable(t, p, 100_000)
		if whole.Outcome == Unknown || whole.Nodes < 4096 {
			continue // too long for a test, or settled too soon for rounds
		}
		tried++
		s, res, before := savedTable(t, p, whole.Nodes/8)
		used, want := s.tt.used.Load(), 0
		for i := range s.tt.e {
			if keep(&s.tt.e[i]) {
				want++
			}
		}
		kept := s.Collect()
		var after bytes.Buffer
		if _, err := s.Save(&after); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(before, after.Bytes()) {
			t.Errorf("%s: the table saved after Collect differs from the one saved before", p.String())
		}
		if kept != want || int64(kept) != s.tt.used.Load() {
			t.Errorf("%s: Collect kept %d entries and the table counts %d; Save writes %d", p.String(), kept, s.tt.used.Load(), want)
		}
		dropped += int(used) - kept
		for round := 0; res.Outcome == Unknown; round++ {
			if round > 100 {
				t.Fatalf("%s: not finished in %d rounds of %d nodes (%d in one search)", p.String(), round, whole.Nodes/8, whole.Nodes)
			}
			var err error
			if res, err = s.Solve(context.Background(), p, nil, nil); err != nil {
				t.Fatal(err)
			}
			s.Collect()
		}
		if res.Outcome != whole.Outcome || res.Winner != whole.Winner {
			t.Errorf("%s: in rounds %s (%s), whole %s (%s)", p.String(), res.Outcome, res.Winner, whole.Outcome, whole.Winner)
		}
	}
	if dropped == 0 {
		t.Error("Collect dropped no entry in any table: the test shows nothing")
	}
}
