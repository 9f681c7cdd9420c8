package protocol

import (
	"fmt"

	"github.com/sower-engine/sower/search"
)

// setProofBook turns the proof books on or off (ProofBook). It waits for
// a running search to end.
func (s *server) setProofBook(value string) error {
	s.stopJob()
	s.noBook = value == "false"
	if s.eng != nil {
		s.eng.SetBooks(s.bookSource())
	}
	s.loadBook()
	return nil
}

// bookSource returns the books the engine searches with: Config.Books
// unless ProofBook is off.
func (s *server) bookSource() search.Books {
	if s.noBook || s.cfg.Books == nil {
		return nil
	}
	return s.cfg.Books
}

// loadBook starts loading the current game's book, if it has one, in the
// background (isready waits for it).
func (s *server) loadBook() {
	if b := s.bookSource(); b != nil {
		b.For(s.variant)
	}
}

// waitBook waits until the current game's book is loaded, so that
// "readyok" means the engine answers from it; a book that cannot be read
// is reported in an info line, and the engine plays without it.
func (s *server) waitBook() {
	if s.noBook || s.cfg.Books == nil {
		return
	}
	b, err := s.cfg.Books.Wait(s.ctx, s.variant.Name())
	switch {
	case err != nil && s.ctx.Err() == nil:
		s.out.info("error: proof book: " + err.Error())
	case b != nil && s.bookSaid != s.variant.Name():
		s.bookSaid = s.variant.Name()
		s.out.info(fmt.Sprintf("proof book: %s, %d proven positions", s.variant.Name(), b.Len()))
		if w := s.cfg.Books.Warning(s.variant.Name()); w != nil {
			s.out.info("proof book: " + w.Error() + " (the next start reads the certificates again)")
		}
	}
}
