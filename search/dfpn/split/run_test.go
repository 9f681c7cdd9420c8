package split

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// TestRun runs katro-4x4's start (South wins; leaves of 100 nodes): to
// the end, within a step limit, again once settled, and cancelled in its
// third step. Each step is reported once, in order, after the file that
// holds it is written; the effort counts the steps finished.
func TestRun(t *testing.T) {
	v := variant(t, "katro-4x4")
	for _, c := range []struct {
		name     string
		steps    int  // RunConfig.Steps
		cancelAt int  // the step whose first search report cancels the run (0: none)
		again    bool // run a settled tree again
		want     int  // steps finished
		settled  bool
		err      error
	}{
		{"to the end", 0, 0, false, 5, true, nil},
		{"two steps", 2, 0, false, 2, false, nil},
		{"settled", 0, 0, true, 0, true, nil},
		{"cancelled", 0, 3, false, 2, false, context.Canceled},
	} {
		s := solver(t)
		tr, err := New(v.Start(), nil, board.South, 100)
		if err != nil {
			t.Fatal(err)
		}
		if c.again {
			if _, err := tr.Run(context.Background(), s, RunConfig{}); err != nil {
				t.Fatal(err)
			}
		}
		file := filepath.Join(t.TempDir(), "t.split")
		ctx, cancel := context.WithCancel(context.Background())
		var stepped []int
		var nodes uint64
		cfg := RunConfig{Steps: c.steps, File: file,
			Progress: func(n int, _ dfpn.Progress) {
				if n != len(stepped)+1 {
					t.Errorf("%s: a search of step %d reported after %d steps", c.name, n, len(stepped))
				}
				if n == c.cancelAt {
					cancel()
				}
			},
			Stepped: func(n int, st Step) {
				stepped = append(stepped, n)
				nodes += st.Nodes
				var want bytes.Buffer
				if err := tr.Save(&want); err != nil {
					t.Fatal(err)
				}
				if got, err := os.ReadFile(file); err != nil || !bytes.Equal(got, want.Bytes()) {
					t.Errorf("%s: after step %d the file does not hold the tree (%v)", c.name, n, err)
				}
			}}
		e, err := tr.Run(ctx, s, cfg)
		cancel()
		if !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
			t.Errorf("%s: %v, want %v", c.name, err, c.err)
		}
		if e.Steps != c.want || len(stepped) != c.want || e.Nodes != nodes || tr.Settled() != c.settled {
			t.Errorf("%s: %+v, %d steps reported (%d nodes), settled %v; want %d steps, settled %v", c.name, e, len(stepped), nodes, tr.Settled(), c.want, c.settled)
		}
		if _, err := os.Stat(file); (c.want == 0) != os.IsNotExist(err) {
			t.Errorf("%s: after %d steps the file: %v", c.name, c.want, err)
		}
	}
}
