// Tests of proven Hoyito III scores against the exact margins computed by
// the exhaustive solver of reference_test.go, on the positions of
// testdata/search/margins.txt under several node budgets: a decisive score
// must never be wrong about who wins and must never promise more than the
// exact margin; a search large enough to prove the result reports it
// exactly; and (TestHoyitoDecisiveBound) a decisive score reported as
// exact is the exact margin, one reported as a bound lies on its side.

package search

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// marginBudgets are the node budgets tried on each position; the last is
// enough to prove every position of margins.txt.
var marginBudgets = []uint64{1000, 2000, 4000, 8000, 100_000}

type marginCase struct {
	pos   board.Position
	exact int // the exact final margin for the side to move
}

func loadMargins(t *testing.T) []marginCase {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "search", "margins.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []marginCase
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		rulesText, fen, ok := strings.Cut(text, ";")
		if !ok {
			t.Fatalf("line %d: want <rules>; <position>", line)
		}
		rules, err := parseRules(strings.TrimSpace(rulesText))
		if err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		v, err := board.NewWithRules(board.NameHoyito3, rules)
		if err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		p, err := v.ParsePosition(strings.TrimSpace(fen))
		if err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		s := newHoyitoSolver(2_000_000)
		best := 0
		for i, m := range p.LegalMoves() {
			if x := s.child(t, &p, after(t, p, m), nil, 0); i == 0 || x > best {
				best = x
			}
		}
		out = append(out, marginCase{p, best})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no positions")
	}
	return out
}

// searchMargin searches c with a fresh engine and a node budget.
func searchMargin(t *testing.T, c marginCase, nodes uint64) Score {
	t.Helper()
	return searchInfo(t, c, nodes).Score
}

// searchInfo searches c with a fresh engine and a node budget and returns
// the final report.
func searchInfo(t *testing.T, c marginCase, nodes uint64) Info {
	t.Helper()
	e := newEngine(t)
	res, err := e.Search(context.Background(), c.pos, nil, Limits{Nodes: nodes}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Info
}

// A decisive score comes from lines that all end by the rules, with the
// winner taking a proven end over any unproven line: it proves at least
// its margin for the winner. With the largest budget the search resolves
// every line and the margin is exact.
func TestHoyitoMargins(t *testing.T) {
	if testing.Short() {
		t.Skip("the exhaustive Hoyito III solver is slow: not in -short mode")
	}
	for _, c := range loadMargins(t) {
		decisive := 0
		for i, nodes := range marginBudgets {
			sc := searchMargin(t, c, nodes)
			if !sc.Decisive() {
				if i == len(marginBudgets)-1 {
					t.Errorf("%s, %d nodes: %s is not proven, exact %+d", c.pos.String(), nodes, sc.UCI(board.Hoyito), c.exact)
				}
				continue
			}
			decisive++
			m := sc.Margin()
			if m*c.exact <= 0 || abs(m) > abs(c.exact) {
				t.Errorf("%s, %d nodes: proven %+d, but the exact margin is %+d", c.pos.String(), nodes, m, c.exact)
			}
			if i == len(marginBudgets)-1 && m != c.exact {
				t.Errorf("%s, %d nodes: proven %+d, exact %+d", c.pos.String(), nodes, m, c.exact)
			}
		}
		if decisive < 2 {
			t.Errorf("%s: only %d of the searches are decisive: the position does not test bounds", c.pos.String(), decisive)
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestHoyitoDecisiveBound checks what a decisive score's bound promises
// whatever the budget: with BoundExact the margin is exact; a proven win
// reported as a lower bound is won by at least its margin, a proven loss
// reported as an upper bound lost by at least its margin.
func TestHoyitoDecisiveBound(t *testing.T) {
	if testing.Short() {
		t.Skip("the exhaustive Hoyito III solver is slow: not in -short mode")
	}
	bounded := 0
	for _, c := range loadMargins(t) {
		for _, nodes := range marginBudgets {
			info := searchInfo(t, c, nodes)
			sc := info.Score
			if !sc.Decisive() {
				continue
			}
			m := sc.Margin()
			switch info.Bound {
			case BoundExact:
				if m != c.exact {
					t.Errorf("%s, %d nodes: exact %s, but the exact margin is %+d", c.pos.String(), nodes, sc.UCI(board.Hoyito), c.exact)
				}
			case BoundLower:
				bounded++
				if m <= 0 || c.exact < m {
					t.Errorf("%s, %d nodes: %s lowerbound, but the exact margin is %+d", c.pos.String(), nodes, sc.UCI(board.Hoyito), c.exact)
				}
			case BoundUpper:
				bounded++
				if m >= 0 || c.exact > m {
					t.Errorf("%s, %d nodes: %s upperbound, but the exact margin is %+d", c.pos.String(), nodes, sc.UCI(board.Hoyito), c.exact)
				}
			}
		}
	}
	if bounded == 0 {
		t.Error("no search reported a bounded decisive score: the test checks nothing about bounds")
	}
}
