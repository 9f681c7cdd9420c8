package train

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/tune"
)

// TestExactLabels reads a data file with an ExactFunc that knows the
// positions with at most 30 seeds on the board: those, and only those,
// get their exact result as the whole target; the others keep the blend
// of the search's score and the game's result.
func TestExactLabels(t *testing.T) {
	ps := syntheticPositions(t, 400, 3)
	name := filepath.Join(t.TempDir(), "d.dat")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	w, err := tune.NewWriter(f, ps[0].Variant())
	if err != nil {
		t.Fatal(err)
	}
	for i := range ps {
		r := tune.Record{Game: uint32(i / 10), Pos: ps[i], Score: 120, Result: board.SouthWins}
		if err := w.Write(&r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// The exact result: a loss for South, a win for North (the opposite
	// of the recorded game), a draw at exactly 24 seeds on the board.
	exact := func(p *board.Position) (float64, bool) {
		switch n := p.OnBoard(); {
		case n > 30:
			return 0, false
		case n == 24:
			return 0.5, true
		case p.Side() == board.North:
			return 1, true
		}
		return 0, true
	}
	d := NewDataset(board.Hoyito)
	d.UseExact(exact)
	if err := d.ReadFile(name, 0); err != nil {
		t.Fatal(err)
	}
	cfg := syntheticConfig()
	cfg.Scale = 300
	inside := 0
	for i := range d.samples {
		s := &d.samples[i]
		p := &ps[i]
		want := cfg.Lambda*sigmoid(120.0/300) + (1-cfg.Lambda)*board.SouthWins.Score(p.Side())
		if r, ok := exact(p); ok {
			want = r
			inside++
		}
		if got := cfg.target(s); got != want {
			t.Fatalf("position %d (%d seeds on the board, %s to move): target %g, want %g", i, p.OnBoard(), p.Side(), got, want)
		}
	}
	if d.Exact() != inside || inside == 0 || inside == len(ps) {
		t.Errorf("%d positions labelled exactly, %d inside of %d", d.Exact(), inside, len(ps))
	}
}

// TestResultRefused checks that a result other than 1, 0.5 or 0 (from a
// wrong ExactFunc, say) is refused with an error that names it, not
// trained on.
func TestResultRefused(t *testing.T) {
	p := syntheticPositions(t, 1, 5)[0]
	for _, r := range []float64{0.7, -1, 2, math.NaN()} {
		d := NewDataset(board.Hoyito)
		if err := d.AddExact(&p, r, 0); err == nil || !strings.Contains(err.Error(), "result") {
			t.Errorf("AddExact with result %g: error %v", r, err)
		}
		if err := d.Add(&p, 0, r, 0); err == nil || !strings.Contains(err.Error(), "result") {
			t.Errorf("Add with result %g: error %v", r, err)
		}
		if d.Len() != 0 || d.Exact() != 0 {
			t.Errorf("result %g: %d samples kept, %d exact", r, d.Len(), d.Exact())
		}
	}
	d := NewDataset(board.Hoyito)
	for _, r := range []float64{0, 0.5, 1} {
		if err := d.AddExact(&p, r, 0); err != nil {
			t.Errorf("AddExact with result %g: %v", r, err)
		}
	}
}
