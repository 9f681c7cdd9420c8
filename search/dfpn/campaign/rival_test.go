package campaign

import (
	"cmp"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// afterB1 returns a campaign asking North's win in katro-4x6 after
// South's b1 (North to move; proven in some millions of nodes), with
// steps of step nodes, cut into its one piece, and the root searched for
// 300,000 nodes first. The search leaves two of North's six moves open,
// a4 (proof number 2,340, disproof number 2,415) and e4 (2,925 and 335),
// neither clearly best; with ten times the nodes e4 is disproven.
func afterB1(t *testing.T, step uint64) *campaign {
	return searched(t, "b1", dfpn.Config{HashMiB: 64}, step, 300_000)
}

// searched returns a campaign asking North's win in katro-4x6 after the
// moves named in line, with a solver of sc and steps of step nodes, cut
// into its one piece, and the root searched for pre nodes first.
func searched(t *testing.T, line string, sc dfpn.Config, step, pre uint64) *campaign {
	t.Helper()
	if raceEnabled && testing.Short() {
		t.Skip("one thread's search of hundreds of thousands of nodes: skipped with -race -short")
	}
	g, _ := afterMove(t, line, 1)
	s, err := dfpn.New(sc)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Dir: t.TempDir(), Winner: board.North, Step: step, SaveEvery: time.Hour, CutPlies: DefaultCutPlies}
	if err := os.MkdirAll(filepath.Join(cfg.Dir, "pieces"), 0o755); err != nil { // as Run makes it
		t.Fatal(err)
	}
	c := &campaign{cfg: cfg, game: g, root: g.Position(), s: s, start: time.Now(), saved: time.Now()}
	if err := c.loadState(); err != nil {
		t.Fatal(err)
	}
	c.split()
	if _, _, err := s.ProveWithin(context.Background(), c.root, g.History(), board.North, pre, nil); err != nil {
		t.Fatal(err)
	}
	return c
}

// openMoves lists North's moves at p that the table does not hold disproven,
// with their numbers.
func openMoves(t *testing.T, c *campaign, p board.Position) map[board.Move][2]uint32 {
	t.Helper()
	out := map[board.Move][2]uint32{}
	for _, m := range p.LegalMoves() {
		q := p
		q.Play(m)
		pn, dn, ok := c.s.Numbers(&q, board.North)
		if !ok {
			t.Fatalf("%s: not in the table", m)
		}
		if dn != 0 {
			out[m] = [2]uint32{pn, dn}
		}
	}
	return out
}

// TestRival: where the winner has two open moves and neither is clearly
// best, the rival is the open move other than the best try nearest to its
// disproof; asked on its own it is disproven, and the best try becomes
// clear, so that a cut may keep it as glue.
func TestRival(t *testing.T) {
	c := afterB1(t, 100_000)
	root := c.root
	if m, ok := c.clearBest(&root, c.game.History()); ok {
		t.Fatalf("%s is clearly best already: the test needs a position where no move is", m)
	}
	open := openMoves(t, c, root)
	if len(open) < 2 {
		t.Fatalf("open moves %v: the test needs two or more", open)
	}
	// The expected rival from the numbers: the smallest disproof number
	// among the moves other than the one with the smallest proof number.
	var best, want board.Move
	for m, n := range open {
		if best == board.NoMove || n[0] < open[best][0] {
			best = m
		}
	}
	for m, n := range open {
		if m != best && (want == board.NoMove || n[1] < open[want][1]) {
			want = m
		}
	}
	got, ok := c.rival(&root, c.game.History())
	if !ok || got != want {
		t.Fatalf("rival %s (%v), want %s of the open moves %v", got, ok, want, open)
	}
	asked, b, err := c.askRival(context.Background(), &c.pieces[0], root, c.game.History(), 20_000_000)
	if err != nil || !asked || b.DN != 0 {
		t.Fatalf("askRival: %v, %+v, %v; want the rival disproven", asked, b, err)
	}
	q := root
	q.Play(want)
	if pn, dn, _ := c.s.Numbers(&q, board.North); dn != 0 {
		t.Fatalf("the rival %s after its ask: pn %d dn %d, want it disproven", want, pn, dn)
	}
	if m, ok := c.clearBest(&root, c.game.History()); !ok || m == want {
		t.Fatalf("after the rival's disproof: clear best %s (%v), open %v", m, ok, openMoves(t, c, root))
	}

	// Where a cut may not be made, no rival is asked.
	c.cfg.CutPlies = -1
	if asked, _, err := c.askRival(context.Background(), &c.pieces[0], root, c.game.History(), 1000); asked || err != nil {
		t.Errorf("CutPlies -1: a rival asked (%v, %v)", asked, err)
	}
}

// TestStuckAsksRival: a piece stuck twice at the winner's turn with no
// move clearly best has its rival asked within the same turn, then is cut
// on the best try, with the rival no longer open.
func TestStuckAsksRival(t *testing.T) {
	c := afterB1(t, 50_000)
	var asked []string
	c.cfg.Progress = func(r Report) {
		if r.Asking != "" {
			asked = append(asked, r.Asking)
		}
	}
	for round := 0; round < 20; round++ {
		n := len(asked)
		changed, err := c.provePiece(context.Background(), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if c.pieces[0].Proven {
			t.Fatalf("round %d: proven before it was cut: the test needs a harder position", round)
		}
		if !changed {
			continue
		}
		if len(c.glue) != 1 || len(c.glue[0].Moves) != 0 {
			t.Fatalf("round %d: glue %v, want North's move at the root", round, c.glue)
		}
		if len(asked) == n {
			t.Fatalf("round %d: cut on %s with no rival asked in the round (asked: %v)", round, c.glue[0].Move, asked)
		}
		if tr := c.track["root"]; tr != nil {
			t.Fatalf("round %d: the cut piece's track %+v is kept", round, tr)
		}
		rival := asked[len(asked)-1]
		if rival == c.glue[0].Move.String() {
			t.Fatalf("round %d: cut on the rival %s", round, rival)
		}
		t.Logf("round %d: rival %s asked, cut on %s into %d pieces", round, rival, c.glue[0].Move, len(c.pieces))
		return
	}
	t.Fatalf("not cut after 20 rounds; asked %v", asked)
}

// TestPickRival: the rival is asked only when its disproof number is at
// most a rivalRatio-th of the best try's proof number, or when the table
// does not hold it. The first three cases are what the katro-4x6 run from
// nothing met (journal 2026-12-07-campaign-rival-ratio): the rival's
// numbers as its ask began, the best try's proof number the piece's (an
// OR node's is its best child's); the best try's disproof number, which
// pickRival does not read, is set to 1 there.
func TestPickRival(t *testing.T) {
	v, err := board.New(board.NameKatro4x6)
	if err != nil {
		t.Fatal(err)
	}
	mv := func(s string) board.Move {
		m, err := v.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	known := func(s string, pn, dn uint32) try { return try{mv(s), pn, dn, true} }
	cases := []struct {
		name string
		open []try
		want string // "" for none
	}{
		{"after e1: e4 near its disproof", []try{known("c4", 37_047, 1), known("e4", 92_617, 2_254)}, "e4"},
		{"after e1 c4 a1: a4 near its disproof", []try{known("a4", 91_142, 2_999), known("f4", 36_457, 1)}, "a4"},
		{"after f1: b4 far from it", []try{known("b4", 64_612, 85_357), known("d4", 51_690, 1)}, ""},
		{"at the ratio", []try{known("a4", 4_000, 9), known("b4", 5_000, 1_000)}, "b4"},
		{"past the ratio", []try{known("a4", 3_999, 9), known("b4", 5_000, 1_000)}, ""},
		{"the nearest of three", []try{known("a4", 900, 5), known("b4", 100, 40), known("c4", 800, 20)}, "a4"},
		{"a move never searched", []try{known("a4", 10, 5), {mv("b4"), dfpn.Infinity, 0, false}}, "b4"},
		{"one open move", []try{known("a4", 10, 5)}, ""},
	}
	for _, c := range cases {
		got, ok := pickRival(c.open)
		switch {
		case c.want == "" && ok:
			t.Errorf("%s: rival %s, want none", c.name, got)
		case c.want != "" && (!ok || got != mv(c.want)):
			t.Errorf("%s: rival %s (%v), want %s", c.name, got, ok, c.want)
		}
	}
}

// TestAskRivals: with three open moves the first rival's disproof leaves
// the piece uncut, and the next rival is asked in the same turn. After
// South's e1 b4 c1 in katro-4x6 and 20,000 nodes, North has three open
// moves; its rivals f4 and c4 are both disproven within steps of 20,000
// nodes, and the piece is cut on e4.
func TestAskRivals(t *testing.T) {
	c := searched(t, "e1 b4 c1", dfpn.Config{HashMiB: 16}, 20_000, 20_000)
	pos := c.root
	v := pos.Variant()
	var asked []string
	c.cfg.Progress = func(r Report) {
		if r.Asking != "" && !slices.Contains(asked, r.Asking) {
			asked = append(asked, r.Asking)
		}
	}
	if open := openMoves(t, c, pos); len(open) != 3 {
		t.Fatalf("open moves %v: the test needs three", open)
	}
	cut, err := c.askRivals(context.Background(), 0, pos, c.game.History())
	if err != nil || !cut {
		t.Fatalf("askRivals: cut %v, %v (asked %v)", cut, err, asked)
	}
	if len(asked) != 2 || len(c.glue) != 1 || slices.Contains(asked, c.glue[0].Move.String()) {
		t.Fatalf("asked %v, glue %v: want two rivals asked, then a cut on the third move", asked, c.glue)
	}
	for _, r := range asked {
		m, _ := v.ParseMove(r)
		q := pos
		q.Play(m)
		if pn, dn, _ := c.s.Numbers(&q, board.North); dn != 0 {
			t.Errorf("the rival %s after its ask: pn %d dn %d, want it disproven", r, pn, dn)
		}
	}
}

// TestRivalAskLeftKept: a rival's ask cut short by the campaign's end
// keeps the nodes it had left in the piece's track and in state.json, and
// the campaign run again asks the rival first, with those nodes, before
// any step of the piece. The position is afterB1's, whose rival e4 takes
// thousands of nodes to disprove.
func TestRivalAskLeftKept(t *testing.T) {
	const step = 50_000
	c := searched(t, "b1", dfpn.Config{HashMiB: 64, Every: time.Nanosecond}, step, 300_000)
	g, pos, cfg := c.game, c.root, c.cfg
	name := c.pieces[0].Name()
	tr := c.trackOf(name)
	tr.stuck, tr.last = 1, 1 // stuck once: the next step is stuck again

	// Cut short in the rival's ask.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c.cfg.Progress = func(r Report) {
		if r.Asking != "" {
			cancel()
		}
	}
	if _, err := c.provePiece(ctx, 0, 0); err == nil {
		t.Fatal("a cancelled ask: no error")
	}
	left := tr.ask
	if left == 0 || left >= step {
		t.Fatalf("cut short in the ask: %d nodes left, want 1 to %d", left, step-1)
	}
	if err := c.save(); err != nil {
		t.Fatal(err)
	}
	if got := readState(t, c.cfg.Dir).Pieces[0].Ask; got != left {
		t.Fatalf("state.json: ask %d, want %d", got, left)
	}

	// Run again on the same table: the ask comes first, with what was
	// left.
	var first *Report
	var askNodes uint64
	cfg.Progress = func(r Report) {
		if first == nil {
			first = &r
		}
		if r.Asking != "" && r.Step == left {
			askNodes = max(askNodes, r.Search.Nodes)
		}
	}
	back := &campaign{cfg: cfg, game: g, root: pos, s: c.s, start: time.Now(), saved: time.Now()}
	if err := back.loadState(); err != nil {
		t.Fatal(err)
	}
	if got := back.track[name]; got == nil || got.ask != left || got.stuck != 2 {
		t.Fatalf("read back: track %+v, want ask %d and stuck twice", got, left)
	}
	if _, err := back.provePiece(context.Background(), 0, 0); err != nil {
		t.Fatal(err)
	}
	if first == nil || first.Asking == "" || first.Step != left {
		t.Fatalf("the first report after the resume: %+v, want the rival's ask with %d nodes", first, left)
	}
	if askNodes == 0 || askNodes > left+512 {
		t.Errorf("the resumed ask searched %d nodes, %d were left", askNodes, left)
	}
	if tr := back.track[name]; tr != nil && tr.ask != 0 {
		t.Errorf("after the resumed ask: %d nodes left", tr.ask)
	}
}

// TestTriesLeaveRepeats: a winner's move that repeats a position of the
// history is not among the tries (the search counts it lost on the path
// and never stores it, so it would stay "never searched" for good).
func TestTriesLeaveRepeats(t *testing.T) {
	c := afterB1(t, 1000)
	root := c.root
	open, _ := c.tries(&root, c.game.History())
	if len(open) < 2 {
		t.Fatalf("open moves %v: the test needs two or more", open)
	}
	m := open[0].m
	q := root
	q.Play(m)
	hist := append(slices.Clone(c.game.History()), q.Key())
	again, _ := c.tries(&root, hist)
	if len(again) != len(open)-1 || slices.ContainsFunc(again, func(t try) bool { return t.m == m }) {
		t.Errorf("with %s's position in the history: tries %v, want %v without it", m, again, open)
	}
}

// TestLateCut: a piece stuck again at the winner's turn with no move
// clearly best, left uncut by its rivals' asks, is cut on its best try once its
// step has doubled lateCutGrow times, and not before (its step doubles
// instead). katro-4x6 after f1, searched for 300,000 nodes, has four of
// North's moves open with close proof numbers; steps of 1,000 nodes
// settle none of them.
func TestLateCut(t *testing.T) {
	for _, grow := range []int{lateCutGrow - 1, lateCutGrow} {
		c := searched(t, "f1", dfpn.Config{HashMiB: 64}, 1000, 300_000)
		c.pieces[0].Grow = grow
		tr := c.trackOf(c.pieces[0].Name())
		tr.stuck, tr.last = 1, 1 // stuck once: the next step is stuck again
		changed, err := c.provePiece(context.Background(), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if grow < lateCutGrow {
			if changed || len(c.glue) != 0 || c.pieces[0].Grow != grow+1 {
				t.Errorf("grown %d times: changed %v, glue %v, grow %d; want the step doubled, no cut", grow, changed, c.glue, c.pieces[0].Grow)
			}
			continue
		}
		if !changed || len(c.glue) != 1 || len(c.glue[0].Moves) != 0 {
			t.Fatalf("grown %d times: changed %v, glue %v; want a cut at the root", grow, changed, c.glue)
		}
		root := c.root
		open, _ := c.tries(&root, c.game.History())
		if len(open) < 2 {
			t.Fatalf("open moves %v: the test needs two or more", open)
		}
		if m, ok := c.clearBest(&root, c.game.History()); ok {
			t.Fatalf("%s is clearly best: the cut was not a late one", m)
		}
		best := slices.MinFunc(open, func(a, b try) int { return cmp.Compare(a.pn, b.pn) })
		if c.glue[0].Move != best.m {
			t.Errorf("cut on %s, want the best try %s of %v", c.glue[0].Move, best.m, open)
		}
		if len(c.pieces) < 2 || !isPrefix([]board.Move{best.m}, c.pieces[0].Moves) {
			t.Errorf("pieces %v: want the replies to %s", c.pieces, best.m)
		}
	}
}

// TestProvenRivalNoGrow: where a move of the winner at a stuck piece is
// proven (as an asked rival may be), the turn ends with the piece as it
// was: no cut, no step doubled, no table collected, and the piece's next
// step proves it. katro-4x6 after e1 c4 a1 f4 a1 (North to move, a
// position df-pn proves for North in about 36,000 nodes): one of North's
// moves is asked and proven first, as a root of its own.
func TestProvenRivalNoGrow(t *testing.T) {
	for _, grow := range []int{0, lateCutGrow} {
		c := searched(t, "e1 c4 a1 f4 a1", dfpn.Config{HashMiB: 16}, 1000, 1)
		c.pieces[0].Grow = grow
		g, err := c.after(c.pieces[0].Moves)
		if err != nil {
			t.Fatal(err)
		}
		root, hist := g.Position(), c.history(g)
		var won board.Move = board.NoMove
		for _, m := range root.LegalMoves() {
			_, b, err := c.ask(context.Background(), root, hist, []board.Move{m}, 500_000)
			if err != nil {
				t.Fatal(err)
			}
			if b.PN == 0 {
				won = m
				break
			}
		}
		if won == board.NoMove {
			t.Fatalf("no move of North proven at %s: the test needs another position", root.String())
		}
		changed, err := c.rivalsOrGrow(context.Background(), 0, root, hist)
		if err != nil {
			t.Fatal(err)
		}
		if changed || len(c.glue) != 0 || c.pieces[0].Grow != grow || c.collects != 0 {
			t.Errorf("grown %d times, %s proven: changed %v, glue %v, grow %d, %d collects; want the piece as it was", grow, won, changed, c.glue, c.pieces[0].Grow, c.collects)
		}
		if _, err := c.provePiece(context.Background(), 0, 0); err != nil {
			t.Fatal(err)
		}
		if !c.pieces[0].Proven {
			t.Errorf("grown %d times, %s proven: the next step did not prove the piece", grow, won)
		}
	}
}

// TestLoserPieceGrows: a piece at the loser's turn that cannot be cut
// (CutPlies -1), stuck again, has its step doubled and the table
// collected, even when some of the loser's replies are proven already
// (as most are, at a loser's position long searched): a reply proven
// is not a winner's move proven, which would prove the piece at its next
// step.
// The piece is the one katro-4x6's seventh run from nothing was left
// with, 16 plies deep (CutPlies): its step never doubled, as the turn
// took a reply proven for a winner's move proven and ended.
// Searched for 300,000 nodes.
func TestLoserPieceGrows(t *testing.T) {
	c := searched(t, "e1 c4 a1 f4 f1 b4 b1 f4 a1 b4 d1 d4 c1 e4 e1 a4", dfpn.Config{HashMiB: 16}, 1000, 300_000)
	c.cfg.CutPlies = -1
	c.pieces = []Piece{{Tried: true}}
	root, hist := c.root, c.game.History()
	if root.Side() == c.cfg.Winner {
		t.Fatalf("%s: the test needs the loser to move", root.String())
	}
	proven := 0
	for _, m := range root.LegalMoves() {
		q := root
		q.Play(m)
		if pn, _, ok := c.s.Numbers(&q, c.cfg.Winner); ok && pn == 0 {
			proven++
		}
	}
	if proven == 0 {
		t.Fatalf("no reply of South proven at %s: the test needs one", root.String())
	}
	changed, err := c.rivalsOrGrow(context.Background(), 0, root, hist)
	if err != nil {
		t.Fatal(err)
	}
	if changed || c.pieces[0].Grow != 1 || c.collects != 1 {
		t.Errorf("%d of South's replies proven: changed %v, grow %d, %d collects; want the step doubled and the table collected", proven, changed, c.pieces[0].Grow, c.collects)
	}
}
