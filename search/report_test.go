// Tests of the search's progress reports and of its determinism: every
// completed iteration is reported, depths start at 1 and rise by at most one
// from report to report, principal variations are non-empty and legal
// (played in a board.Game), node counts and times never fall, and the last
// report agrees with the result; and the same position, history and limits
// searched by a fresh engine, or after ClearHash, give the same reports,
// move, score, variation and node count.

package search

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// reportPosition is a position with the game that led to it.
type reportPosition struct {
	name    string
	pos     board.Position
	history []uint64
}

// reportPositions returns the start of every variant and, for each, a
// position a few dozen random plies into a game, with its history.
func reportPositions(t *testing.T) []reportPosition {
	t.Helper()
	var out []reportPosition
	rng := rand.New(rand.NewPCG(7, 8))
	for _, name := range board.Names() {
		v, err := board.New(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, reportPosition{name + " start", v.Start(), nil})
		for try := 0; ; try++ {
			g := board.NewGame(v.Start())
			for g.Ply() < 30 && !g.Status().Over() {
				p := g.Position()
				ms := p.LegalMoves()
				if err := g.Play(ms[rng.IntN(len(ms))]); err != nil {
					t.Fatal(err)
				}
			}
			if !g.Status().Over() {
				hist := append([]uint64(nil), g.History()...)
				out = append(out, reportPosition{fmt.Sprintf("%s after %s", name, board.FormatMoves(g.Moves())), g.Position(), hist})
				break
			}
			if try == 100 {
				t.Fatalf("%s: no game lasts 30 plies", name)
			}
		}
	}
	return out
}

// collect searches and returns the result with every report.
func collect(t *testing.T, e *Engine, rp reportPosition, lim Limits) (Result, []Info) {
	t.Helper()
	var infos []Info
	res, err := e.Search(context.Background(), rp.pos, rp.history, lim, func(i Info) {
		i.PV = slices.Clone(i.PV)
		infos = append(infos, i)
	})
	if err != nil {
		t.Fatal(err)
	}
	return res, infos
}

func TestReports(t *testing.T) {
	limits := []Limits{{Depth: 7}, {Nodes: 3_000}, {Nodes: 40_000}, {Nodes: 123_457}}
	if testing.Short() {
		limits = limits[:3]
	}
	for _, rp := range reportPositions(t) {
		for _, lim := range limits {
			res, infos := collect(t, newEngine(t), rp, lim)
			where := fmt.Sprintf("%s, %+v", rp.name, lim)
			checkReports(t, where, rp, res, infos)
		}
	}
}

func checkReports(t *testing.T, where string, rp reportPosition, res Result, infos []Info) {
	t.Helper()
	checkLegal(t, rp.pos, res.Move, where)
	if len(infos) == 0 {
		if res.Info.Depth != 0 {
			t.Errorf("%s: no report, but the result is at depth %d", where, res.Info.Depth)
		}
		return
	}
	family := rp.pos.Variant().Family()
	completed := 0 // the deepest iteration reported as completed
	for i, in := range infos {
		if in.Family != family {
			t.Errorf("%s: report %d: family %v", where, i, in.Family)
		}
		if i == 0 && in.Depth != 1 {
			t.Errorf("%s: the first report is at depth %d", where, in.Depth)
		}
		if i > 0 {
			prev := infos[i-1]
			if d := in.Depth - prev.Depth; d != 0 && d != 1 {
				t.Errorf("%s: report %d at depth %d follows depth %d", where, i, in.Depth, prev.Depth)
			}
			if in.Nodes < prev.Nodes {
				t.Errorf("%s: report %d has %d nodes, the one before %d", where, i, in.Nodes, prev.Nodes)
			}
			if in.Time < prev.Time {
				t.Errorf("%s: report %d at %v, the one before at %v", where, i, in.Time, prev.Time)
			}
		}
		if in.Bound == BoundExact {
			completed = max(completed, in.Depth)
		} else if in.Bound != BoundLower && in.Bound != BoundUpper {
			t.Errorf("%s: report %d: bound %d", where, i, in.Bound)
		}
		if in.Hashfull < 0 || in.Hashfull > 1000 {
			t.Errorf("%s: report %d: hashfull %d", where, i, in.Hashfull)
		}
		if in.SelDepth < 1 || in.SelDepth < in.Depth {
			t.Errorf("%s: report %d: selective depth %d at depth %d", where, i, in.SelDepth, in.Depth)
		}
		if len(in.PV) == 0 {
			t.Errorf("%s: report %d: empty PV", where, i)
			continue
		}
		checkLegal(t, rp.pos, in.PV[0], where)
		checkPV(t, where, rp, in.PV)
	}
	// Every iteration up to the last completed one is reported.
	for d := 1; d <= completed; d++ {
		if !slices.ContainsFunc(infos, func(in Info) bool { return in.Depth == d && in.Bound == BoundExact }) {
			t.Errorf("%s: iteration %d is not reported", where, d)
		}
	}
	// Whether the last report's move is the result's is checked by
	// TestLastReportMatchesResult.
	last := infos[len(infos)-1]
	if len(res.Info.PV) == 0 || res.Info.PV[0] != res.Move {
		t.Errorf("%s: the result's PV %s does not start with its move %s", where, board.FormatMoves(res.Info.PV), res.Move)
	}
	if res.Info.Depth != last.Depth || res.Info.Score != last.Score {
		t.Errorf("%s: the result is at depth %d, %s; the last report at %d, %s", where,
			res.Info.Depth, res.Info.Score.UCI(family), last.Depth, last.Score.UCI(family))
	}
	if res.Info.Nodes < last.Nodes {
		t.Errorf("%s: the result counts %d nodes, the last report %d", where, res.Info.Nodes, last.Nodes)
	}
	if len(res.Info.PV) > 1 && res.Ponder != res.Info.PV[1] {
		t.Errorf("%s: ponder %s, PV %s", where, res.Ponder, board.FormatMoves(res.Info.PV))
	}
	checkPV(t, where, rp, res.Info.PV)
}

// The last report names the move the search returns: a search stopped
// during an iteration, after a new best move was found at the root, must
// have reported it. The positions are those of TestReports and one where
// this was seen, each under a range of node budgets, so that searches stop
// at many points of their iterations.
func TestLastReportMatchesResult(t *testing.T) {
	positions := reportPositions(t)
	seen := mustPosition(t, board.NameKatro, "7,0,0,4,1,0/2,0,3,2,10,4/4,1,0,0,15,1/3,2,0,1,4,1/1,2,0,2,0,0/0,0,1,1,0,0 N 2")
	positions = append(positions, reportPosition{"katro, seen", seen, nil})
	bad := 0
	for _, rp := range positions {
		for n := uint64(2000); n < 30_000; n = n*6/5 + 7 {
			res, infos := collect(t, newEngine(t), rp, Limits{Nodes: n})
			if len(infos) == 0 {
				continue
			}
			last := infos[len(infos)-1]
			if last.PV[0] != res.Move {
				bad++
				if bad <= 5 {
					f := rp.pos.Variant().Family()
					t.Errorf("%s, %d nodes: the last report (depth %d, %s) has PV %s; the result's move is %s",
						rp.name, n, last.Depth, last.Score.UCI(f), board.FormatMoves(last.PV), res.Move)
				}
			}
		}
	}
	if bad > 5 {
		t.Errorf("%d searches in all", bad)
	}
}

// checkPV plays a variation in a game from the position with its history:
// every move must be legal and the game must not be over before the last.
func checkPV(t *testing.T, where string, rp reportPosition, pv []board.Move) {
	t.Helper()
	g := board.NewGame(rp.pos)
	// The game starts at the position, so repetitions before it are not
	// seen here; Play still refuses a move after any other game end.
	if err := g.PlayAll(pv); err != nil {
		t.Errorf("%s: PV %s: %v", where, board.FormatMoves(pv), err)
	}
}

// Reports of failed aspiration windows and of best-move changes inside an
// iteration depend on time (they are held back at the start of a search),
// so the searches here are small enough to finish well before any such
// report could appear; everything else must match exactly.
func TestDeterminism(t *testing.T) {
	limits := []Limits{{Depth: 6}, {Nodes: 25_000}}
	if testing.Short() {
		limits = []Limits{{Depth: 4}, {Nodes: 5_000}}
	}
	for _, rp := range reportPositions(t) {
		for _, lim := range limits {
			where := fmt.Sprintf("%s, %+v", rp.name, lim)
			e := newSteadyEngine(t)
			res1, infos1 := collect(t, e, rp, lim)
			res2, infos2 := collect(t, newSteadyEngine(t), rp, lim)
			sameSearch(t, where+", a second engine", res1, infos1, res2, infos2)
			e.ClearHash()
			res3, infos3 := collect(t, e, rp, lim)
			sameSearch(t, where+", after ClearHash", res1, infos1, res3, infos3)
		}
	}
}

func sameSearch(t *testing.T, where string, r1 Result, i1 []Info, r2 Result, i2 []Info) {
	t.Helper()
	if r1.Move != r2.Move || r1.Ponder != r2.Ponder || r1.Info.Score != r2.Info.Score ||
		r1.Info.Nodes != r2.Info.Nodes || r1.Info.Depth != r2.Info.Depth || !slices.Equal(r1.Info.PV, r2.Info.PV) {
		t.Errorf("%s: %s %d %d nodes depth %d PV %s, then %s %d %d nodes depth %d PV %s", where,
			r1.Move, r1.Info.Score, r1.Info.Nodes, r1.Info.Depth, board.FormatMoves(r1.Info.PV),
			r2.Move, r2.Info.Score, r2.Info.Nodes, r2.Info.Depth, board.FormatMoves(r2.Info.PV))
	}
	if len(i1) != len(i2) {
		t.Errorf("%s: %d reports, then %d", where, len(i1), len(i2))
		return
	}
	for k := range i1 {
		a, b := i1[k], i2[k]
		if a.Depth != b.Depth || a.SelDepth != b.SelDepth || a.Score != b.Score || a.Bound != b.Bound ||
			a.Nodes != b.Nodes || a.Hashfull != b.Hashfull || !slices.Equal(a.PV, b.PV) {
			t.Errorf("%s: report %d differs: %+v, then %+v", where, k, a, b)
		}
	}
}

// In a proven position the iterations go on past the plies the proof
// needs, and the deepest ply a search reaches falls behind its nominal
// depth; a report's selective depth is still never below its depth. The
// positions: the smallest Katro board (proven from the start) and the
// Hoyito III endgames of testdata/search/margins.txt, searched until their
// iterations run past the proofs.
func TestSelDepthNotBelowDepth(t *testing.T) {
	small, err := board.New(board.NameKatro4x4)
	if err != nil {
		t.Fatal(err)
	}
	positions := []reportPosition{{name: "katro-4x4 start", pos: small.Start()}}
	f, err := os.Open(filepath.Join("..", "testdata", "search", "margins.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		rulesText, fen, ok := strings.Cut(strings.TrimSpace(sc.Text()), ";")
		if !ok || strings.HasPrefix(rulesText, "#") {
			continue
		}
		rules, err := parseRules(strings.TrimSpace(rulesText))
		if err != nil {
			t.Fatalf("margins.txt line %d: %v", line, err)
		}
		v, err := board.NewWithRules(board.NameHoyito3, rules)
		if err != nil {
			t.Fatal(err)
		}
		p, err := v.ParsePosition(strings.TrimSpace(fen))
		if err != nil {
			t.Fatalf("margins.txt line %d: %v", line, err)
		}
		positions = append(positions, reportPosition{name: fmt.Sprintf("margins.txt line %d", line), pos: p})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	proven, checked := 0, 0
	for _, rp := range positions {
		res, infos := collect(t, newEngine(t), rp, Limits{Depth: 40, Nodes: 200_000})
		if res.Info.Score.Decisive() {
			proven++
		}
		for _, in := range infos {
			checked++
			if in.SelDepth < in.Depth {
				t.Errorf("%s: info depth %d seldepth %d score %s", rp.name, in.Depth, in.SelDepth, in.Score.UCI(in.Family))
			}
		}
	}
	if proven == 0 {
		t.Fatal("no position was proven: the test checks nothing it is meant to")
	}
	t.Logf("%d positions, %d proven, %d reports", len(positions), proven, checked)
}
