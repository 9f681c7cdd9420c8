package search

import (
	"context"
	"slices"
	"testing"

	"github.com/sower-engine/sower/board"
)

// multiLines searches with MultiPV and returns the reports by depth.
func multiLines(t *testing.T, p board.Position, hist []uint64, lim Limits) (Result, map[int][]Info) {
	t.Helper()
	byDepth := map[int][]Info{}
	res, err := newEngine(t).Search(context.Background(), p, hist, lim, func(i Info) {
		i.PV = slices.Clone(i.PV)
		byDepth[i.Depth] = append(byDepth[i.Depth], i)
	})
	if err != nil {
		t.Fatal(err)
	}
	return res, byDepth
}

// TestMultiPVLines: at every depth, one report per line, ranked 1 to N,
// scores not increasing, distinct legal lines; the result is line 1's.
func TestMultiPVLines(t *testing.T) {
	for _, rp := range reportPositions(t) {
		nLegal := len(rp.pos.LegalMoves())
		for _, n := range []int{2, 3, 6, 9} {
			want := min(n, nLegal)
			res, byDepth := multiLines(t, rp.pos, rp.history, Limits{Depth: 6, MultiPV: n})
			if len(byDepth) != 6 {
				t.Fatalf("%s, MultiPV %d: reports at %d depths, want 6", rp.name, n, len(byDepth))
			}
			for d, infos := range byDepth {
				if want == 1 {
					// One line, still numbered (as Stockfish does).
					if len(infos) != 1 || infos[0].MultiPV != 1 {
						t.Errorf("%s, MultiPV %d, one legal move, depth %d: %+v", rp.name, n, d, infos)
					}
					continue
				}
				if len(infos) != want {
					t.Fatalf("%s, MultiPV %d, depth %d: %d lines, want %d", rp.name, n, d, len(infos), want)
				}
				firsts := map[board.Move]bool{}
				for k, i := range infos {
					if i.MultiPV != k+1 {
						t.Errorf("%s, depth %d: line %d has rank %d", rp.name, d, k+1, i.MultiPV)
					}
					if k > 0 && i.Score > infos[k-1].Score {
						t.Errorf("%s, depth %d: line %d scores %v, above line %d's %v", rp.name, d, k+1, i.Score, k, infos[k-1].Score)
					}
					if len(i.PV) == 0 || firsts[i.PV[0]] {
						t.Fatalf("%s, depth %d: line %d has PV %v (seen %v)", rp.name, d, k+1, i.PV, firsts)
					}
					firsts[i.PV[0]] = true
					g := board.NewGame(rp.pos)
					if err := g.PlayAll(i.PV); err != nil {
						t.Errorf("%s, depth %d, line %d: PV %s: %v", rp.name, d, k+1, board.FormatMoves(i.PV), err)
					}
				}
			}
			if res.Move != res.Info.PV[0] || res.Info.MultiPV > 1 {
				t.Errorf("%s, MultiPV %d: result %s with last report %+v", rp.name, n, res.Move, res.Info)
			}
		}
	}
}

// TestMultiPVScores: where every line is proven, each line's score is the
// one a search of that root move alone finds.
func TestMultiPVScores(t *testing.T) {
	p := mustPosition(t, board.NameKatro4x4, "2,1,2,0/8,6,5,3/1,0,1,2/0,1,0,0 N 3")
	const depth = 14
	legal := p.LegalMoves()
	_, byDepth := multiLines(t, p, nil, Limits{Depth: depth, MultiPV: len(legal)})
	lines := byDepth[depth]
	if len(lines) != len(legal) {
		t.Fatalf("%d lines, want %d", len(lines), len(legal))
	}
	proven := 0
	for _, l := range lines {
		alone := runSearch(t, newEngine(t), p, nil, Limits{Depth: depth, SearchMoves: l.PV[:1]})
		if !alone.Info.Score.Decisive() {
			continue
		}
		proven++
		if alone.Info.Score != l.Score {
			t.Errorf("line %d, %s: score %v, alone %v", l.MultiPV, l.PV[0], l.Score, alone.Info.Score)
		}
	}
	if proven < 2 {
		t.Errorf("only %d lines proven: the test compares too little", proven)
	}
}

// TestMultiPVOneUnchanged: MultiPV 1 is the single-line search.
func TestMultiPVOneUnchanged(t *testing.T) {
	for _, rp := range reportPositions(t)[:4] {
		a, ai := collect(t, newEngine(t), rp, Limits{Depth: 7})
		b, bi := collect(t, newEngine(t), rp, Limits{Depth: 7, MultiPV: 1})
		if a.Move != b.Move || a.Info.Nodes != b.Info.Nodes || len(ai) != len(bi) {
			t.Errorf("%s: MultiPV 1 differs: %v/%d/%d reports vs %v/%d/%d", rp.name, a.Move, a.Info.Nodes, len(ai), b.Move, b.Info.Nodes, len(bi))
		}
	}
}
