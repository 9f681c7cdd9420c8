package book_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
	"github.com/sower-engine/sower/search"
	"github.com/sower-engine/sower/search/book"
	"github.com/sower-engine/sower/search/book/booktest"
)

// smallFS holds the certificate of katro-4x6 after c1 alone (635
// positions of North), for tests that load a book quickly.
func smallFS(t *testing.T) fs.FS {
	t.Helper()
	small, _ := booktest.Small(t)
	return small
}

// rootOf returns the root a certificate's header names.
func rootOf(t *testing.T, v *board.Variant, data []byte) board.Position {
	t.Helper()
	h, err := cert.ReadHeader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParsePosition(h.Root + " 0")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestEmbedded loads the embedded katro-4x6 book and walks each
// certificate's proof from its root, depth first, for a sample of its
// positions (all of the small ones): at North's turns the book answers
// with the certificate's move (read by cert.Pieces) as a win, at South's
// with a loss one ply shorter than the longest of North's answers below,
// by a move whose line is that longest one.
func TestEmbedded(t *testing.T) {
	if got := book.Games(nil); len(got) != 1 || got[0] != board.NameKatro4x6 {
		t.Fatalf("games %q, want katro-4x6", got)
	}
	files := book.Files(nil, board.NameKatro4x6)
	var fsys fs.FS // the embedded certificates
	if testing.Short() {
		// c1 and d1 alone: the whole book takes long under the race
		// detector.
		files = files[2:4]
		small := fstest.MapFS{}
		for _, f := range files {
			data, err := fs.ReadFile(book.Proofs(), f)
			if err != nil {
				t.Fatal(err)
			}
			small[f] = &fstest.MapFile{Data: data}
		}
		fsys = small
	}
	b, err := book.Load(context.Background(), fsys, board.NameKatro4x6)
	if err != nil {
		t.Fatal(err)
	}
	v := b.Variant()
	for _, f := range files {
		data, err := fs.ReadFile(book.Proofs(), f)
		if err != nil {
			t.Fatal(err)
		}
		pieces, err := cert.NewPieces(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := pieces.Read(context.Background(), bytes.NewReader(data)); err != nil {
			t.Fatal(err)
		}
		want := pieces.Oracle()
		// This certificate's own book, made when the merged book plays
		// another move than the certificate's.
		single := sync.OnceValue(func() *cert.Book {
			sb, err := cert.NewBook(v)
			if err == nil {
				err = sb.Add(context.Background(), bytes.NewReader(data))
			}
			if err != nil {
				t.Fatal(err)
			}
			return sb
		})
		seen := map[uint64]bool{}
		var walk func(p board.Position) int
		walk = func(p board.Position) int { // the book's plies at p
			m, plies, win, ok := b.Probe(&p)
			north := p.Side() == board.North
			if !ok || win != north {
				t.Fatalf("%s: %s: Probe %s %d win=%v ok=%v, want win=%v", f, p.String(), m, plies, win, ok, north)
			}
			if len(seen) >= 3000 || seen[p.Key()] {
				return plies
			}
			seen[p.Key()] = true
			if north {
				// The certificate's move, or another proof's that is no
				// longer (Merge keeps the shorter proof's entry, the
				// first file's at equal lengths).
				wm, ok := want(&p)
				if !ok {
					t.Fatalf("%s: %s: not in the certificate", f, p.String())
				}
				if wm != m {
					if _, own, _, _ := single().Probe(&p); plies > own {
						t.Fatalf("%s: %s: the book plays %s in %d plies, the certificate %s in %d", f, p.String(), m, plies, wm, own)
					}
					return plies // the other proof's line: its own walk checks it
				}
				c, _ := p.After(m)
				if c.HasLegalMove() {
					if got := walk(c); got > plies-1 {
						t.Fatalf("%s: %s: %d plies, after %s %d", f, p.String(), plies, m, got)
					}
				}
				return plies
			}
			longest := -1
			for _, o := range p.LegalMoves() {
				c, _ := p.After(o)
				d := walk(c)
				longest = max(longest, d)
				if o == m && d != plies-1 {
					t.Fatalf("%s: %s: the book's %s leads to %d plies, want %d", f, p.String(), m, d, plies-1)
				}
			}
			if longest != plies-1 {
				t.Fatalf("%s: %s: a loss in %d plies, the longest reply %d", f, p.String(), plies, longest+1)
			}
			return plies
		}
		walk(rootOf(t, v, data))
	}
}

// TestLibraryClose: Close stops a load under way (the whole embedded
// book, which takes seconds) and waits for it; the book is not loaded,
// and a library closed loads no other.
func TestLibraryClose(t *testing.T) {
	v, err := board.New(board.NameKatro4x6)
	if err != nil {
		t.Fatal(err)
	}
	lib := &book.Library{}
	if lib.For(v) != nil {
		t.Fatal("the whole book loaded at once")
	}
	lib.Close()
	if b, err := lib.Wait(context.Background(), board.NameKatro4x6); b != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("after Close: %v, %v; want the load cancelled", b, err)
	}
	if lib.For(v) != nil {
		t.Error("For after Close gives a book")
	}
	lib.Close() // again: nothing to do
	closed := &book.Library{FS: smallFS(t)}
	closed.Close()
	if b, err := closed.Wait(context.Background(), board.NameKatro4x6); b != nil || !errors.Is(err, book.ErrClosed) {
		t.Errorf("closed before the first use: %v, %v; want ErrClosed", b, err)
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
