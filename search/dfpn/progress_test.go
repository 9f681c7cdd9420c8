package dfpn

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
)

// TestProgressNamesTheSearchedMove checks the progress reports of a search
// of the katro-4x6 start (200,000 nodes, a report at every poll): they
// name a legal move of the root while its search runs, with numbers of a
// position still open, and the line searched (legal moves from the root,
// going deep), the root's numbers as the search below it has them, and
// none once the search is over.
func TestProgressNamesTheSearchedMove(t *testing.T) {
	v, err := board.New("katro-4x6")
	if err != nil {
		t.Fatal(err)
	}
	root := v.Start()
	var legal board.MoveList
	root.GenerateMoves(&legal)
	s, err := New(Config{HashMiB: 16, MaxNodes: 200_000, Every: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	var reports []Progress
	if _, err := s.Solve(context.Background(), root, nil, func(p Progress) { reports = append(reports, p) }); err != nil {
		t.Fatal(err)
	}
	named, deepest, moved := 0, 0, 0
	for i, p := range reports {
		if p.Move == board.NoMove {
			continue
		}
		named++
		// The root's numbers take the move's as they are now: at the
		// attacker's turn the least proof number and the sum of the
		// disproof numbers, at the defender's the other way round.
		if attack := root.Side() == p.Attacker; attack && (p.PN > p.MovePN || p.DN < p.MoveDN) ||
			!attack && (p.PN < p.MovePN || p.DN > p.MoveDN) {
			t.Fatalf("a report gives the root pn %d dn %d and its move %s pn %d dn %d (attacker to move: %v)", p.PN, p.DN, p.Move, p.MovePN, p.MoveDN, attack)
		}
		if i > 0 && reports[i-1].Move == p.Move && (reports[i-1].PN != p.PN || reports[i-1].DN != p.DN) {
			moved++
		}
		if !slices.Contains(legal.Slice(), p.Move) {
			t.Fatalf("a report names %s, not a move of the start", p.Move)
		}
		if p.MovePN == 0 || p.MoveDN == 0 || p.MovePN >= inf || p.MoveDN >= inf {
			t.Fatalf("a report names %s with pn %d dn %d: not an open position", p.Move, p.MovePN, p.MoveDN)
		}
		// The line is moves played from the root, the first the move
		// named, no longer than ProgressLine, and Ply at least as long.
		if len(p.Line) == 0 || p.Line[0] != p.Move || len(p.Line) > ProgressLine || p.Ply < len(p.Line) ||
			(p.Ply > len(p.Line) && len(p.Line) != ProgressLine) {
			t.Fatalf("a report names %s with the line %v of ply %d", p.Move, p.Line, p.Ply)
		}
		pos := root
		for _, m := range p.Line {
			if !pos.Play(m) {
				t.Fatalf("the line %v: %s is not legal in %s", p.Line, m, pos.String())
			}
		}
		deepest = max(deepest, p.Ply)
	}
	if deepest < 10 {
		t.Errorf("the deepest line reported is of %d plies: the line does not follow the search", deepest)
	}
	// The root's copy of its move's numbers changes only when the move's
	// search returns; the reports follow the search below it.
	if moved == 0 {
		t.Errorf("the root's numbers never changed while one move's search went on (%d reports)", len(reports))
	}
	if named < len(reports)/2 {
		t.Errorf("%d of %d reports name the move searched", named, len(reports))
	}
	if last := reports[len(reports)-1]; last.Move != board.NoMove {
		t.Errorf("the last report, after the search, names %s", last.Move)
	}
}
