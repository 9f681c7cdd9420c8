package protocol

import (
	"slices"
	"strings"
	"testing"

	"github.com/sower-engine/sower/search/book"
	"github.com/sower-engine/sower/search/book/booktest"
)

// TestProofBook: with a book (here katro-4x6's proof after c1 alone), the
// engine answers a position of the proof at once with the proof's move
// and its proven result; isready waits for the book; ProofBook false
// searches instead.
func TestProofBook(t *testing.T) {
	small, _ := booktest.Small(t)
	lib := &book.Library{FS: small}
	t.Cleanup(lib.Close)
	s := newSession(t, Config{Books: lib})
	s.send("uci")
	if l := s.expect("uciok"); !slices.Contains(l, "option name ProofBook type check default true") {
		t.Errorf("uci: no ProofBook option in %q", l)
	}
	s.send("setoption name UCI_Variant value katro-4x6")
	if l := s.sync(); !slices.Contains(l, "info string proof book: katro-4x6, 635 proven positions") {
		t.Errorf("isready: %q, want the book's line", l)
	}
	if l := s.sync(); slices.ContainsFunc(l, func(x string) bool { return strings.Contains(x, "proof book") }) {
		t.Errorf("a second isready: %q, want the book said once", l)
	}
	s.send("position startpos moves c1", "go nodes 1000")
	mv, lines := s.bestmove()
	if mv != "d4" || !slices.Contains(lines, "info string proven: win in 31 plies") ||
		!slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, " score mate 16 ") }) {
		t.Errorf("from the book: %q then %q", lines, mv)
	}
	s.send("setoption name ProofBook value false", "position startpos moves c1", "go nodes 1000")
	mv, lines = s.bestmove()
	if slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "info string proven") }) {
		t.Errorf("ProofBook false: %q then %q", lines, mv)
	}
}
