package campaign

import (
	"context"
	"slices"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// covered reports whether the pieces and glue of c cover the position
// after moves, checked by walking down from it rather than by how cutLine
// builds them: a position is covered when it is a piece, or at the
// winner's turn when a glue move is kept there and the position after it
// is covered, or at the loser's turn when the position after every reply
// is covered.
func covered(t *testing.T, c *campaign, moves []board.Move) bool {
	t.Helper()
	if slices.ContainsFunc(c.pieces, func(p Piece) bool { return slices.Equal(p.Moves, moves) }) {
		return true
	}
	g, err := c.after(moves)
	if err != nil {
		t.Fatal(err)
	}
	p := g.Position()
	if p.Side() == c.cfg.Winner {
		i := slices.IndexFunc(c.glue, func(gl Glue) bool { return slices.Equal(gl.Moves, moves) })
		return i >= 0 && covered(t, c, append(slices.Clone(moves), c.glue[i].Move))
	}
	replies := p.LegalMoves()
	if len(replies) == 0 {
		return false
	}
	for _, r := range replies {
		if !covered(t, c, append(slices.Clone(moves), r)) {
			return false
		}
	}
	return true
}

// deepLine is katro-4x6 after a line of the run from nothing, 13 plies
// deep (North to move): searched for 300,000 nodes, its search waits on a
// line of three plies (North's best try, South's one open reply, North's
// best try), to a position of South with several open replies.
const deepLine = "e1 c4 a1 f4 f1 b4 b1 f4 a1 b4 d1 d4 c1"

// TestCutLine: told the position asked at the piece's last stuck step
// (waits), cutLine cuts the piece down the line its search waits on to
// the deepest position of the line at or above it (the line's end, a
// position above it, or the one where the line turns off from the way to
// the position asked): every winner's move on the way is glue, every
// piece is a loser's reply on the way or at that position, the loser's
// other replies on the way are proven in the table, and the pieces and
// glue cover the piece. Told a position off the line from its first ply,
// or with a Config.CutPlies that leaves no room, it cuts nothing; with a
// CutPlies part-way down, no piece is deeper than it and the cover holds.
func TestCutLine(t *testing.T) {
	c := searched(t, deepLine, dfpn.Config{HashMiB: 64}, 1000, 300_000)
	root, hist, pm := c.root, c.game.History(), c.pieces[0].Moves
	line := c.stuckLine(root)
	if len(line) < 3 {
		t.Fatalf("line %s: the test needs one of three plies or more", board.FormatMoves(line))
	}
	abs := append(slices.Clone(pm), line...)
	t.Logf("line %s", board.FormatMoves(line))

	// Positions off the line: another move at its last ply (the line
	// turns off above the position asked), and at its first (nothing of
	// the line is above it).
	offAt := func(k int) []board.Move {
		p := root
		for _, m := range line[:k] {
			p.Play(m)
		}
		for _, m := range p.LegalMoves() {
			if m != line[k] {
				return append(slices.Clone(abs[:len(pm)+k]), m)
			}
		}
		t.Fatalf("one move at %s: the test needs two", p.String())
		return nil
	}
	for _, w := range []string{"", board.FormatMoves(offAt(0))} {
		if c.cutLine(0, root, hist, w) {
			t.Fatalf("waits %q: cut, want no cut (the line is %s)", w, board.FormatMoves(abs))
		}
	}
	c.cfg.CutPlies = len(pm)
	if c.cutLine(0, root, hist, board.FormatMoves(abs)) {
		t.Fatalf("CutPlies %d, the piece's depth: cut", len(pm))
	}

	// asked: the plies of the line down to the deepest position at or
	// above the one asked (waits).
	for _, tc := range []struct {
		waits        []board.Move
		asked, limit int
	}{
		{abs, len(line), len(abs) + 1}, {abs, len(line), len(abs)}, {abs, len(line), len(pm) + 2},
		{abs[:len(pm)+2], 2, len(abs) + 1}, {offAt(len(line) - 1), len(line) - 1, len(abs) + 1},
	} {
		d := searched(t, deepLine, dfpn.Config{HashMiB: 64}, 1000, 300_000)
		d.cfg.CutPlies = tc.limit
		waits := board.FormatMoves(tc.waits)
		if !d.cutLine(0, root, hist, waits) {
			t.Fatalf("waits %s, CutPlies %d: not cut", waits, tc.limit)
		}
		if !covered(t, d, pm) {
			t.Fatalf("waits %s, CutPlies %d: pieces %v and glue %v do not cover the piece", waits, tc.limit, d.pieces, d.glue)
		}
		var glue int
		p := root
		for k, m := range line[:min(tc.asked, tc.limit-len(pm))] {
			at := abs[:len(pm)+k]
			if p.Side() == board.North {
				glue++
				if i := slices.IndexFunc(d.glue, func(g Glue) bool { return slices.Equal(g.Moves, at) }); i < 0 || d.glue[i].Move != m {
					t.Errorf("waits %s, CutPlies %d: no glue %s after %q: glue %v", waits, tc.limit, m, board.FormatMoves(at), d.glue)
				}
			} else {
				for _, r := range p.LegalMoves() {
					q := p
					q.Play(r)
					if pn, _, ok := d.s.Numbers(&q, board.North); r != m && (!ok || pn != 0) {
						t.Errorf("waits %s, CutPlies %d: %s's reply %s off the line not proven", waits, tc.limit, board.FormatMoves(at), r)
					}
				}
			}
			p.Play(m)
		}
		if len(d.glue) != glue {
			t.Errorf("waits %s, CutPlies %d: glue %v, want the %d winner's moves on the way", waits, tc.limit, d.glue, glue)
		}
		for _, pc := range d.pieces {
			if len(pc.Moves) > tc.limit || len(pc.Moves) > len(pm)+tc.asked+1 || !isPrefix(abs[:min(len(abs), len(pc.Moves)-1)], pc.Moves) {
				t.Errorf("waits %s, CutPlies %d: piece %s off the line or too deep", waits, tc.limit, pc.Name())
			}
		}
		t.Logf("waits %s, CutPlies %d: %d pieces, glue %d", waits, tc.limit, len(d.pieces), len(d.glue))
	}
}

// TestStuckCutsLine: the turn of a piece stuck once asks the position its
// search waits on and keeps it in the piece's track (and state.json); at
// the next turn, stuck again with no move clearly best, no rival that
// settles it and the search still waiting there, the piece is cut down
// the line (steps of one node leave the table's line as it is).
func TestStuckCutsLine(t *testing.T) {
	c := searched(t, deepLine, dfpn.Config{HashMiB: 64}, 1, 300_000)
	root := c.root
	if m, ok := c.clearBest(&root, c.game.History()); ok {
		t.Fatalf("%s is clearly best: the test needs a position where no move is", m)
	}
	var asked []string
	c.cfg.Progress = func(r Report) {
		if r.Asking != "" && !slices.Contains(asked, r.Asking) {
			asked = append(asked, r.Asking)
		}
	}
	tr := c.trackOf(c.pieces[0].Name())
	tr.last = 1 // the next step is stuck
	if changed, err := c.provePiece(context.Background(), 0, 0); err != nil || changed {
		t.Fatalf("stuck once: changed %v, %v", changed, err)
	}
	if len(asked) != 1 || tr.waits != asked[0] {
		t.Fatalf("stuck once: asked %q, waits %q: want the one position asked", asked, tr.waits)
	}
	if err := c.save(); err != nil {
		t.Fatal(err)
	}
	if st := readState(t, c.cfg.Dir); len(st.Pieces) != 1 || st.Pieces[0].Waits != tr.waits {
		t.Fatalf("state.json pieces %+v: want waits %q", st.Pieces, tr.waits)
	}
	back := &campaign{cfg: c.cfg, game: c.game, root: c.root}
	if err := back.loadState(); err != nil {
		t.Fatal(err)
	}
	if btr := back.track[c.pieces[0].Name()]; btr == nil || btr.waits != tr.waits {
		t.Fatalf("read back: track %+v, want waits %q", btr, tr.waits)
	}
	line := c.stuckLine(root)
	if board.FormatMoves(append(slices.Clone(c.pieces[0].Moves), line...)) != tr.waits || len(line) < 3 {
		t.Fatalf("line %s after the ask, waits %s: the test needs the line unmoved, of three plies or more", board.FormatMoves(line), tr.waits)
	}
	changed, err := c.provePiece(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !changed || len(c.glue) == 0 || len(c.glue[0].Moves) != 0 || c.glue[0].Move != line[0] {
		t.Fatalf("stuck again: changed %v, glue %v; want a cut down %s", changed, c.glue, board.FormatMoves(line))
	}
	if !covered(t, c, nil) {
		t.Errorf("pieces %v and glue %v do not cover the root", c.pieces, c.glue)
	}
}
