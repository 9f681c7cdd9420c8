// Package booktest gives tests a small proof library: katro-4x6's
// certificate after South's first move c1 alone, a book of 635 proven
// positions of North that loads in a moment.
package booktest

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/sower-engine/sower/search/book"
)

// C1 is the path of the certificate after c1 in book.Proofs().
const C1 = "proofs/katro-4x6/c1.proof"

// Small returns a library file system holding the certificate after c1
// alone, and that certificate's bytes.
func Small(t testing.TB) (fstest.MapFS, []byte) {
	t.Helper()
	data, err := fs.ReadFile(book.Proofs(), C1)
	if err != nil {
		t.Fatal(err)
	}
	return fstest.MapFS{C1: {Data: data}}, data
}
