package gui

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
	"github.com/sower-engine/sower/search/book"
	"github.com/sower-engine/sower/search/book/booktest"
)

// TestProofView walks katro-4x6's proof after c1 (North wins) from its
// root, the book's line and every South reply on the way, and checks the
// panel against the book: at North's turns the proof's move is marked and
// leads to North's win, at South's every move does, the longest marked;
// each result's #N is the winner's moves the book's plies give
// (2N-1 plies with the winner to move, 2N with the loser), signed for
// South, and the position's own value agrees with its best move.
func TestProofView(t *testing.T) {
	small, data := booktest.Small(t)
	lib := &book.Library{FS: small}
	t.Cleanup(lib.Close)
	bk, err := lib.Wait(context.Background(), board.NameKatro4x6)
	if err != nil || bk == nil {
		t.Fatalf("book: %v", err)
	}
	srv, err := New(Config{Engines: []Engine{{Name: "e", Command: []string{"e"}}}, Books: lib})
	if err != nil {
		t.Fatal(err)
	}
	h, err := cert.ReadHeader(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := board.New(board.NameKatro4x6)
	root, err := v.ParsePosition(h.Root + " 0")
	if err != nil {
		t.Fatal(err)
	}
	// mate is the #N a position's book answer gives, signed for South.
	mate := func(p *board.Position) (int, bool) {
		_, plies, win, ok := bk.Probe(p)
		if !ok {
			return 0, false
		}
		winner := p.Side()
		if !win {
			winner = winner.Other()
		}
		n := plies / 2
		if winner == p.Side() {
			n = (plies + 1) / 2
		}
		if winner == board.North {
			return -max(n, 1), true
		}
		return max(n, 1), true
	}
	checked := 0
	var walk func(p board.Position, depth int)
	walk = func(p board.Position, depth int) {
		if depth > 6 || !p.HasLegalMove() {
			return
		}
		m, ok := srv.tablesView(&p, false)
		bm, _, _, bok := bk.Probe(&p)
		if !ok || m.Source != "proof" || !bok || m.Value == nil || len(m.Moves) != len(p.LegalMoves()) {
			t.Fatalf("%s: view %+v", p.String(), m)
		}
		if want, _ := mate(&p); *m.Value.Mate != want || m.Value.Text != "#"+strconv.Itoa(want) {
			t.Fatalf("%s: value %+v, want #%d", p.String(), *m.Value, want)
		}
		for _, tm := range m.Moves {
			mv, err := v.ParseMove(tm.Move)
			if err != nil {
				t.Fatal(err)
			}
			c := p
			c.Play(mv)
			if tm.Best != (mv == bm) {
				t.Errorf("%s %s: best %v, the book plays %s", p.String(), tm.Move, tm.Best, bm)
			}
			want, cok := mate(&c)
			switch {
			case cok && (tm.Text != "#"+strconv.Itoa(want) || want > 0 || !tm.Exact):
				t.Errorf("%s %s: %q exact %v, want #%d (North's win)", p.String(), tm.Move, tm.Text, tm.Exact, want)
			case !cok && c.HasLegalMove() && tm.Text != "outside the proof":
				t.Errorf("%s %s: %q outside the book", p.String(), tm.Move, tm.Text)
			case !cok && !c.HasLegalMove() && tm.Text != "North wins at once":
				t.Errorf("%s %s: %q, the game is over", p.String(), tm.Move, tm.Text)
			}
			// The best move keeps the value: the winner's move takes one
			// of its moves off (or more: a proof's line is a bound), the
			// loser's longest resistance leaves the count as it is.
			if n, vn := -want, -*m.Value.Mate; tm.Best && cok && ((p.Side() == board.North && vn > 1 && n > vn-1) || (p.Side() == board.South && n != vn)) {
				t.Errorf("%s: best %s gives #%d, the position #%d", p.String(), tm.Move, want, *m.Value.Mate)
			}
			checked++
			if tm.Best || p.Side() == board.South {
				walk(c, depth+1)
			}
		}
	}
	walk(root, 0)
	if checked < 20 {
		t.Errorf("%d moves checked", checked)
	}
	// No books: no panel; a game over: an empty one.
	plain, _ := New(Config{Engines: []Engine{{Name: "e", Command: []string{"e"}}}})
	if _, ok := plain.tablesView(&root, false); ok {
		t.Errorf("a server without books shows a proof panel")
	}
	if m, ok := srv.tablesView(&root, true); !ok || len(m.Moves) != 0 {
		t.Errorf("game over: %+v", m)
	}
}
