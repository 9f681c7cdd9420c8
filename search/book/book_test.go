package book_test

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
	"github.com/sower-engine/sower/search"
	"github.com/sower-engine/sower/search/book"
)

// smallFS holds the certificate of katro-4x6 after c1 alone (635
// positions of North), for tests that load a book quickly.
func smallFS(t *testing.T) fs.FS {
	t.Helper()
	data, err := fs.ReadFile(book.Proofs(), "proofs/katro-4x6/c1.proof")
	if err != nil {
		t.Fatal(err)
	}
	return fstest.MapFS{"proofs/katro-4x6/c1.proof": {Data: data}}
}

// textLines converts a certificate to the v1 text format with package cert
// and returns its position lines.
func textLines(t *testing.T, v *board.Variant, data []byte) []string {
	t.Helper()
	p, err := cert.NewPieces(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Read(context.Background(), bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Scan()
	var root board.Position
	for sc.Scan() {
		if r, ok := strings.CutPrefix(sc.Text(), "# root "); ok {
			if root, err = v.ParsePosition(r + " 0"); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	var out bytes.Buffer
	if _, err := cert.Write(context.Background(), &out, root, p.Winner(&root), p.Oracle(), cert.Options{}); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(out.String(), "\n") {
		if l != "" && l[0] != '#' {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestEmbedded loads the embedded katro-4x6 book and checks, on a sample
// of every certificate's positions (all of the small ones), that the book
// answers each with the certificate's move as a win, and that a position
// of the loser there is answered with a move that resists longest.
func TestEmbedded(t *testing.T) {
	if got := book.Games(nil); len(got) != 1 || got[0] != board.NameKatro4x6 {
		t.Fatalf("games %q, want katro-4x6", got)
	}
	files := book.Files(nil, board.NameKatro4x6)
	if testing.Short() {
		files = files[2:4] // c1 and d1
	}
	b, err := book.Load(context.Background(), nil, board.NameKatro4x6)
	if err != nil {
		t.Fatal(err)
	}
	v := b.Variant()
	for _, f := range files {
		data, err := fs.ReadFile(book.Proofs(), f)
		if err != nil {
			t.Fatal(err)
		}
		lines := textLines(t, v, data)
		step := max(1, len(lines)/2000)
		for i := 0; i < len(lines); i += step {
			pos, mv, _ := strings.Cut(lines[i], "\t")
			p, err := v.ParsePosition(pos + " 0")
			if err != nil {
				t.Fatal(err)
			}
			m, plies, win, ok := b.Probe(&p)
			if !ok || !win || m.String() != mv || plies < 1 {
				t.Fatalf("%s: %s: Probe %s %d win=%v ok=%v, want the win with %s", f, pos, m, plies, win, ok, mv)
			}
			// North's move leads to South's turn: answered as a loss that
			// lasts one ply less, by the move whose line is longest.
			c, _ := p.After(m)
			if !c.HasLegalMove() {
				continue
			}
			lm, lplies, lwin, lok := b.Probe(&c)
			if !lok || lwin || lplies > plies-1 {
				t.Fatalf("%s: after %s %s: Probe %s %d win=%v ok=%v, want a loss in at most %d", f, pos, m, lm, lplies, lwin, lok, plies-1)
			}
			for _, o := range c.LegalMoves() {
				g, _ := c.After(o)
				_, gp, gw, gok := b.Probe(&g)
				if !gok || !gw || gp > lplies-1 || o == lm && gp != lplies-1 {
					t.Fatalf("%s: %s: South's %s gives %d plies (ok=%v), the book's %s %d", f, c.String(), o, gp, gok, lm, lplies)
				}
			}
		}
	}
}

// TestLibrary: the library starts loading on the first For, answers nil
// until it is done, then the book; a game without certificates has none.
func TestLibrary(t *testing.T) {
	lib := &book.Library{FS: smallFS(t)}
	v, err := board.New(board.NameKatro4x6)
	if err != nil {
		t.Fatal(err)
	}
	lib.For(v)
	b, err := lib.Wait(context.Background(), board.NameKatro4x6)
	if err != nil || b == nil || b.Len() != 635 {
		t.Fatalf("Wait: %v, %v", b, err)
	}
	if lib.For(v) != b {
		t.Errorf("For after Wait is not the book")
	}
	k, err := board.New(board.NameKatro)
	if err != nil {
		t.Fatal(err)
	}
	if lib.For(k) != nil {
		t.Errorf("katro has a book")
	}
	if b, err := lib.Wait(context.Background(), board.NameKatro); b != nil || err != nil {
		t.Errorf("katro: %v %v", b, err)
	}
}

// TestEngine: an engine with the book answers a position of it at once,
// as a proven win with the proof's move, or as the loser with the longest
// defence; without the book, or with several lines, it searches.
func TestEngine(t *testing.T) {
	lib := &book.Library{FS: smallFS(t)}
	b, err := lib.Wait(context.Background(), board.NameKatro4x6)
	if err != nil {
		t.Fatal(err)
	}
	g := board.NewGame(b.Variant().Start())
	c1, _ := b.Variant().ParseMove("c1")
	if err := g.Play(c1); err != nil {
		t.Fatal(err)
	}
	eng, err := search.NewEngine(8)
	if err != nil {
		t.Fatal(err)
	}
	eng.SetBooks(lib)
	for ply := 0; ply < 4; ply++ {
		root := g.Position()
		want, plies, win, ok := b.Probe(&root)
		if !ok {
			t.Fatalf("%s is not in the book", root.String())
		}
		var proofs []search.Proof
		res, err := eng.SearchWith(context.Background(), root, g.History(), search.Limits{Depth: 30}, search.Callbacks{Proven: func(p search.Proof) { proofs = append(proofs, p) }})
		if err != nil {
			t.Fatal(err)
		}
		score := search.KatroWin(plies)
		if !win {
			score = -score
		}
		if res.Move != want || !res.Info.Proven || res.Info.Score != score || res.Info.Nodes > uint64(len(root.LegalMoves()))+1 || len(proofs) != 1 || proofs[0].Plies != plies {
			t.Fatalf("%s: %s %+v %+v, want %s from the book in %d plies", root.String(), res.Move, res.Info, proofs, want, plies)
		}
		if len(res.Info.PV) < 2 || res.Ponder != res.Info.PV[1] {
			t.Errorf("%s: PV %v, ponder %s", root.String(), res.Info.PV, res.Ponder)
		}
		if err := g.Play(res.Move); err != nil {
			t.Fatal(err)
		}
	}
	root := g.Position()
	res, err := eng.Search(context.Background(), root, g.History(), search.Limits{Depth: 3, MultiPV: 2}, nil)
	if err != nil || res.Info.Nodes <= 50 {
		t.Errorf("MultiPV 2: %+v %v, want a search", res.Info, err)
	}
	eng.SetBooks(nil)
	if res, err := eng.Search(context.Background(), root, g.History(), search.Limits{Depth: 3}, nil); err != nil || res.Info.Nodes <= 50 {
		t.Errorf("no book: %+v %v, want a search", res.Info, err)
	}
}
