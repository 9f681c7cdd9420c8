package broker

import (
	"context"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

// TestSolverFor: a slot keeps its solver and table for the run it searched
// last, empties the same solver's table for another run of the same
// settings, and makes a new solver for another table size or report
// interval.
func TestSolverFor(t *testing.T) {
	v, err := board.New(board.NameKatro4x4)
	if err != nil {
		t.Fatal(err)
	}
	var s prover
	if err := s.solverFor("a", 16, time.Second); err != nil {
		t.Fatal(err)
	}
	first := s.solver
	if _, _, err := first.ProveWithin(context.Background(), v.Start(), nil, board.South, 2000, nil); err != nil {
		t.Fatal(err)
	}
	if first.Fill() == 0 {
		t.Fatal("a search left the table empty")
	}
	for _, c := range []struct {
		run   string
		hash  int
		every time.Duration
		same  bool // the same solver
		empty bool // its table empty
	}{
		{"a", 16, time.Second, true, false},
		{"b", 16, time.Second, true, true},
		{"b", 32, time.Second, false, true},
		{"b", 32, 2 * time.Second, false, true},
	} {
		before := s.solver
		if err := s.solverFor(c.run, c.hash, c.every); err != nil {
			t.Fatal(err)
		}
		if same := s.solver == before; same != c.same {
			t.Errorf("run %s, %d MiB, every %v: the same solver %v, want %v", c.run, c.hash, c.every, same, c.same)
		}
		if empty := s.solver.Fill() == 0; empty != c.empty {
			t.Errorf("run %s, %d MiB, every %v: table empty %v, want %v", c.run, c.hash, c.every, empty, c.empty)
		}
		if s.proofRun != c.run || s.proofHash != c.hash || s.proofEvery != c.every {
			t.Errorf("run %s, %d MiB, every %v: the slot says %s, %d, %v", c.run, c.hash, c.every, s.proofRun, s.proofHash, s.proofEvery)
		}
		if _, _, err := s.solver.ProveWithin(context.Background(), v.Start(), nil, board.South, 2000, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.solverFor("c", 0, time.Second); err == nil {
		t.Error("a table of 0 MiB: no error")
	}
	if s.solver != nil || s.proofRun != "" || s.proofHash != 0 {
		t.Errorf("after a refused table the slot says %v, %q, %d MiB; want nothing", s.solver, s.proofRun, s.proofHash)
	}
}
