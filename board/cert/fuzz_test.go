package cert_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
)

// FuzzVerify reads any bytes as a certificate (v1 or v2) of a katro-4x4 position: no
// input makes the reader or checker panic, and a proof that holds reaches
// no more positions of the winner than are listed.
func FuzzVerify(f *testing.F) {
	f.Add([]byte("# sower proof certificate v1\n# game katro-4x4\n7,4,1,7/0,3,6,2/0,0,1,1/0,0,0,0 N\ta4\n2,1,3,9/0,6,9,1/0,1,0,0/0,0,0,0 N\ta4\n# positions 2\n"))
	f.Add([]byte("7,4,1,7/0,3,6,2/0,0,1,1/0,0,0,0 N\ta4\r\n"))
	f.Add([]byte("\x1f\x8b\x08\x00"))
	v, err := board.New(board.NameKatro4x4)
	if err != nil {
		f.Fatal(err)
	}
	root, err := v.ParsePosition("7,4,1,7/0,3,6,2/0,0,0,0/0,0,0,2 S 0")
	if err != nil {
		f.Fatal(err)
	}
	// The same proof in version 2, converted from the first seed.
	seed := "# sower proof certificate v1\n# game katro-4x4\n# winner North\n7,4,1,7/0,3,6,2/0,0,1,1/0,0,0,0 N\ta4\n2,1,3,9/0,6,9,1/0,1,0,0/0,0,0,0 N\ta4\n"
	pieces, err := cert.NewPieces(v)
	if err != nil {
		f.Fatal(err)
	}
	if err := pieces.Read(context.Background(), strings.NewReader(seed)); err != nil {
		f.Fatal(err)
	}
	var v2 bytes.Buffer
	if _, err := cert.Write(context.Background(), &v2, root, board.North, pieces.Oracle(), cert.Options{Format: cert.FormatCompact}); err != nil {
		f.Fatal(err)
	}
	f.Add(v2.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := cert.Verify(context.Background(), bytes.NewReader(data), root, cert.Options{})
		if err == nil && (st.WinnerReached+st.Unused+st.Duplicates != st.Listed || st.Unused < 0) {
			t.Errorf("a proof that holds: %+v", st)
		}
	})
}
