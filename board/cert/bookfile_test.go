package cert_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
)

// caseBook returns a book of some proved katro-4x4 cases, and the cases.
func caseBook(t *testing.T) (*cert.Book, []proofCase) {
	t.Helper()
	cases := provedCases(t, board.NameKatro4x4, 6)
	b, err := cert.NewBook(cases[0].root.Variant())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if err := b.Add(context.Background(), bytes.NewReader(c.cert)); err != nil {
			t.Fatal(err)
		}
	}
	return b, cases
}

// TestBookFileRoundTrip writes a book and reads it back: the file read
// gives the same bytes when written again and the same answer at every
// position of the proofs and one ply beyond.
func TestBookFileRoundTrip(t *testing.T) {
	b, cases := caseBook(t)
	var file bytes.Buffer
	n, err := b.WriteTo(&file)
	if err != nil || n != int64(file.Len()) {
		t.Fatalf("WriteTo: %d bytes, %v; the buffer holds %d", n, err, file.Len())
	}
	if want := 8 + 4 + 2 + len(board.NameKatro4x4) + 8 + 12*b.Len() + (b.Len()+7)/8 + 8; file.Len() != want {
		t.Errorf("%d positions in %d bytes, want %d", b.Len(), file.Len(), want)
	}
	r, err := cert.ReadBook(bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if r.Len() != b.Len() || r.Variant().Name() != b.Variant().Name() {
		t.Fatalf("read %d positions of %s, wrote %d of %s", r.Len(), r.Variant().Name(), b.Len(), b.Variant().Name())
	}
	var again bytes.Buffer
	if _, err := r.WriteTo(&again); err != nil || !bytes.Equal(again.Bytes(), file.Bytes()) {
		t.Fatalf("written again: %d bytes (%v), first %d", again.Len(), err, file.Len())
	}
	probed := 0
	for _, c := range cases {
		seen := map[string]bool{}
		var walk func(p board.Position)
		walk = func(p board.Position) {
			if seen[p.String()] {
				return
			}
			seen[p.String()] = true
			m1, d1, w1, ok1 := b.Probe(&p)
			m2, d2, w2, ok2 := r.Probe(&p)
			if m1 != m2 || d1 != d2 || w1 != w2 || ok1 != ok2 {
				t.Fatalf("%s: the book answers %s %d %v %v, the file %s %d %v %v", p.String(), m1, d1, w1, ok1, m2, d2, w2, ok2)
			}
			probed++
			if !ok1 {
				return
			}
			for _, m := range p.LegalMoves() {
				if w1 && m != m1 {
					continue
				}
				child, _ := p.After(m)
				walk(child)
			}
		}
		walk(c.root)
	}
	if probed < b.Len() {
		t.Errorf("%d positions probed, the book holds %d", probed, b.Len())
	}
}

// TestBookFileDamaged: a changed byte anywhere, a file cut short anywhere,
// another version and bytes after the end are refused with what is wrong.
func TestBookFileDamaged(t *testing.T) {
	b, _ := caseBook(t)
	var buf bytes.Buffer
	if _, err := b.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	file := buf.Bytes()
	read := func(data []byte) error {
		_, err := cert.ReadBook(bytes.NewReader(data))
		return err
	}
	for i := 0; i < len(file); i += max(1, len(file)/97) {
		bad := bytes.Clone(file)
		bad[i] ^= 0x10
		if err := read(bad); err == nil {
			t.Fatalf("byte %d of %d changed: accepted", i, len(file))
		}
		if err := read(file[:i]); err == nil || !strings.Contains(err.Error(), "book file:") {
			t.Fatalf("cut at %d of %d: %v", i, len(file), err)
		}
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"magic", append([]byte("SOWRBOOX"), file[8:]...), "not a book file"},
		{"version", append([]byte("SOWRBOOK\x02\x00\x00\x00"), file[12:]...), "version 2"},
		{"after", append(bytes.Clone(file), 0), "after the checksum"},
		{"checksum", append(bytes.Clone(file[:len(file)-1]), file[len(file)-1]^1), "damaged"},
		{"empty", nil, "cut short in the header"},
	}
	for _, c := range cases {
		if err := read(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// FuzzReadBook reads any bytes as a book file: no input makes it panic,
// and a file it accepts is written back byte for byte.
func FuzzReadBook(f *testing.F) {
	v, err := board.New(board.NameKatro4x4)
	if err != nil {
		f.Fatal(err)
	}
	empty, err := cert.NewBook(v)
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := empty.WriteTo(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte("SOWRBOOK\x01\x00\x00\x00\x09\x00katro-4x4\xff\xff\xff\xff\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := cert.ReadBook(bytes.NewReader(data))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if _, err := b.WriteTo(&out); err != nil || !bytes.Equal(out.Bytes(), data) {
			t.Errorf("accepted %d bytes, written back as %d (%v)", len(data), out.Len(), err)
		}
	})
}

// TestBookFileSize: a file whose size does not match its count of
// positions is refused before its contents are read.
func TestBookFileSize(t *testing.T) {
	b, _ := caseBook(t)
	path := filepath.Join(t.TempDir(), "b.book")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte{0}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	f, err = os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := cert.ReadBook(f); err == nil || !strings.Contains(err.Error(), "positions take") {
		t.Errorf("one byte too many: %v", err)
	}
}
