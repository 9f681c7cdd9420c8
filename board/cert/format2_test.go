package cert_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
)

// writeCompact writes c's proof as a v2 certificate.
func writeCompact(t *testing.T, c proofCase) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := cert.Write(context.Background(), &b, c.root, c.winner, c.solver.oracle, cert.Options{Format: cert.FormatCompact}); err != nil {
		t.Fatalf("%s: Write v2: %v", c.root.String(), err)
	}
	return b.Bytes()
}

// convert reads the certificate data as Pieces and writes its proof from
// root in format f: a conversion from either format to either.
func convert(t *testing.T, root board.Position, data []byte, f cert.Format) []byte {
	t.Helper()
	p, err := cert.NewPieces(root.Variant())
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Read(context.Background(), bytes.NewReader(data)); err != nil {
		t.Fatalf("%s: Read: %v", root.String(), err)
	}
	var b bytes.Buffer
	if _, err := cert.Write(context.Background(), &b, root, p.Winner(&root), p.Oracle(), cert.Options{Format: f}); err != nil {
		t.Fatalf("%s: Write: %v", root.String(), err)
	}
	return b.Bytes()
}

// TestCompactRoundTrip writes every proved case in both formats: the v2
// certificate verifies with the statistics of the v1 one, v1 converted to
// v2 is the v2 file byte for byte, and v2 converted back to v1 is the v1
// file byte for byte: the same positions and moves, in the same order.
func TestCompactRoundTrip(t *testing.T) {
	for _, game := range games {
		for _, c := range provedCases(t, game, 8) {
			v2 := writeCompact(t, c)
			st, err := verify(c.root, v2)
			if err != nil {
				t.Errorf("%s: v2: %v", c.root.String(), err)
				continue
			}
			st1, err := verify(c.root, c.cert)
			if err != nil {
				t.Fatal(err)
			}
			st.Elapsed, st1.Elapsed = 0, 0
			if st != st1 {
				t.Errorf("%s: v2 stats %+v, v1 %+v", c.root.String(), st, st1)
			}
			if got := convert(t, c.root, c.cert, cert.FormatCompact); !bytes.Equal(got, v2) {
				t.Errorf("%s: v1 converted to v2 differs from the v2 written", c.root.String())
			}
			if got := convert(t, c.root, v2, cert.FormatText); !bytes.Equal(got, c.cert) {
				t.Errorf("%s: v2 converted to v1:\n%s\nwant\n%s", c.root.String(), got, c.cert)
			}
		}
	}
}

// TestCompactFile: WriteFile chooses the format by the file's name.
func TestCompactFile(t *testing.T) {
	c := bigCase(t, board.NameKatro4x4, 2)
	dir := t.TempDir()
	for name, want := range map[string]string{"p.txt": "v1", "p.txt.gz": "gzip", "p.proof": "v2", "p.gz": "v2"} {
		path := filepath.Join(dir, name)
		if _, err := cert.WriteFile(context.Background(), path, c.root, c.winner, c.solver.oracle, cert.Options{}); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got := "v1"
		switch {
		case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
			got = "gzip"
		case bytes.HasPrefix(data, []byte("# sower proof certificate v2\n")):
			got = "v2"
		}
		if got != want {
			t.Errorf("%s: written as %s, want %s", name, got, want)
		}
		if _, err := verify(c.root, data); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// compactParts splits a v2 certificate into its header (through the
// "# moves" line) and its moves, decompressed.
func compactParts(t *testing.T, data []byte) (head string, moves []byte) {
	t.Helper()
	i := bytes.Index(data, []byte("# moves zstd\n"))
	if i < 0 {
		t.Fatalf("no # moves line in\n%q", data)
	}
	end := i + len("# moves zstd\n")
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	moves, err = dec.DecodeAll(data[end:], nil)
	if err != nil {
		t.Fatal(err)
	}
	return string(data[:end]), moves
}

// compactFrom builds a v2 certificate from a header and moves.
func compactFrom(t *testing.T, head string, moves []byte) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return append([]byte(head), enc.EncodeAll(moves, nil)...)
}

// TestCompactDamaged: a v2 certificate with a byte changed, cut short, a
// move index out of range or a wrong header is refused, naming the byte or
// the position.
func TestCompactDamaged(t *testing.T) {
	c := bigCase(t, board.NameKatro4x6, 6)
	data := writeCompact(t, c)
	head, moves := compactParts(t, data)
	body := len(head)

	// Every byte of the compressed moves changed: refused, with a format
	// error that names the moves' place in the file or a position, or
	// accepted only when the moves are still the same (a bit of the
	// frame's header that changes nothing).
	for i := body; i < len(data); i++ {
		d := bytes.Clone(data)
		d[i] ^= 0x40
		_, err := verify(c.root, d)
		if err == nil {
			if _, got := compactParts(t, d); !bytes.Equal(got, moves) {
				t.Errorf("byte %d changed: accepted with other moves", i)
			}
		} else if isFormat(err) && !strings.Contains(err.Error(), fmt.Sprintf("after byte %d", body)) && !strings.Contains(err.Error(), "position") {
			t.Errorf("byte %d changed: %v, want the moves' offset or a position named", i, err)
		}
	}
	// Cut short anywhere after the header, or inside it (cut inside the
	// first line, the file is no v2 certificate but a v1 one with a
	// comment and no positions, and the proof does not hold).
	for _, n := range []int{len(data) - 1, len(data) - 5, body + 3, body, body - 4} {
		if _, err := verify(c.root, data[:n]); err == nil || !isFormat(err) {
			t.Errorf("cut to %d bytes: %v, want a format error", n, err)
		}
	}
	if _, err := verify(c.root, data[:10]); err == nil {
		t.Errorf("cut to 10 bytes: accepted")
	}
	// A move index out of range names the position and the byte.
	bad := bytes.Clone(moves)
	bad[len(bad)-1] = 9
	_, err := verify(c.root, compactFrom(t, head, bad))
	want := fmt.Sprintf("position %d of the certificate, ", len(moves))
	if err == nil || !isFormat(err) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "move index 9, but it has") ||
		!strings.Contains(err.Error(), fmt.Sprintf("byte %d of the moves", len(moves)-1)) {
		t.Errorf("a move index out of range: %v, want a format error naming %q", err, want)
	}
	// Moves left over, or missing.
	if _, err := verify(c.root, compactFrom(t, strings.Replace(head, fmt.Sprintf("# positions %d", len(moves)), fmt.Sprintf("# positions %d", len(moves)+1), 1), append(bytes.Clone(moves), 0))); err == nil || !isFormat(err) ||
		!strings.Contains(err.Error(), "it is damaged") {
		t.Errorf("a move left over: %v", err)
	}
	if _, err := verify(c.root, compactFrom(t, strings.Replace(head, fmt.Sprintf("# positions %d", len(moves)), fmt.Sprintf("# positions %d", len(moves)-1), 1), moves[:len(moves)-1])); err == nil || !isFormat(err) ||
		!strings.Contains(err.Error(), "the moves end before position") {
		t.Errorf("a move missing: %v", err)
	}
	if _, err := verify(c.root, compactFrom(t, head, moves[:len(moves)-1])); err == nil || !isFormat(err) || !strings.Contains(err.Error(), "cut short") {
		t.Errorf("fewer moves than the header states: %v", err)
	}
	// Wrong headers.
	other := board.South
	if c.winner == board.South {
		other = board.North
	}
	for _, d := range []struct{ from, to, want string }{
		{"v2\n", "v7\n", `certificate version "v7"`},
		{"# game katro-4x6", "# game katro-4x4", "the certificate is for katro-4x4, not katro-4x6"},
		{"# winner " + c.winner.String(), "# winner " + other.String(), ""},
		{"# winner " + c.winner.String(), "# winner Nobody", `# winner "Nobody"`},
		{"# moves zstd", "# moves xz", `# moves "xz": want zstd`},
		{"# game katro-4x6\n", "", `no "# game" line`},
		{fmt.Sprintf("# positions %d\n", len(moves)), "", `no "# positions" line`},
		{"# root ", "# root 1,", "# root"},
	} {
		h := strings.Replace(head, d.from, d.to, 1)
		if h == head {
			t.Fatalf("%q is not in the header\n%s", d.from, head)
		}
		_, err := verify(c.root, append([]byte(h), data[body:]...))
		if err == nil || !strings.Contains(err.Error(), d.want) {
			t.Errorf("%q for %q: %v, want %q", d.to, d.from, err, d.want)
		}
	}
}
