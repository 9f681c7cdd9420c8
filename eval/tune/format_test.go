package tune

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/sower-engine/sower/board"
)

// gameRecords plays n random games of v and returns a record for each of
// their positions, labelled with a made-up score and the game's result.
func gameRecords(v *board.Variant, n int, seed uint64) []Record {
	rng := rand.New(rand.NewPCG(seed, 11))
	var out []Record
	for i := range n {
		g := board.NewGame(v.Start())
		var recs []Record
		for !g.Status().Over() {
			p := g.Position()
			recs = append(recs, Record{Game: uint32(i), Ply: uint16(g.Ply()), Pos: p, Score: int16(rng.IntN(4001) - 2000)})
			legal := p.LegalMoves()
			if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
				panic(err)
			}
		}
		for j := range recs {
			recs[j].Result = g.Status().Result
		}
		out = append(out, recs...)
	}
	return out
}

// TestRoundTrip writes records of every variant, some with other rules,
// and reads them back.
func TestRoundTrip(t *testing.T) {
	for _, name := range board.Names() {
		for _, rules := range []board.Rules{board.DefaultRules(), {CaptureSide: board.CaptureOpponent, LastFour: board.LastFourNorth, NoCaptureLimit: 0},
			{Repetition: board.RepetitionOff, NoCaptureLimit: 50}} {
			v, err := board.NewWithRules(name, rules)
			if err != nil {
				t.Fatal(err)
			}
			recs := gameRecords(v, 3, 1)
			var buf bytes.Buffer
			w, err := NewWriter(&buf, v)
			if err != nil {
				t.Fatal(err)
			}
			for i := range recs {
				if err := w.Write(&recs[i]); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			size := buf.Len()
			r, err := NewReader(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if r.Variant().Name() != v.Name() || r.Variant().Rules() != rules {
				t.Fatalf("header gives %s %+v, want %s %+v", r.Variant().Name(), r.Variant().Rules(), v.Name(), rules)
			}
			for i, want := range recs {
				var got Record
				if err := r.Read(&got); err != nil {
					t.Fatalf("%s record %d: %v", name, i, err)
				}
				if got.Game != want.Game || got.Ply != want.Ply || got.Score != want.Score || got.Result != want.Result ||
					got.Pos.String() != want.Pos.String() || got.Pos.Key() != want.Pos.Key() {
					t.Fatalf("%s record %d: read %+v %s, wrote %+v %s", name, i, got, got.Pos.String(), want, want.Pos.String())
				}
			}
			var rec Record
			if err := r.Read(&rec); err != io.EOF {
				t.Fatalf("after the last record: %v, want EOF", err)
			}
			if r.Offset() != int64(size) {
				t.Fatalf("offset %d after every record, file size %d", r.Offset(), size)
			}
			// A file cut inside its last record scans to the records before.
			cut := buf.Bytes()[:size-3]
			sc, err := Scan(bytes.NewReader(cut))
			if err != nil {
				t.Fatal(err)
			}
			if sc.Records != len(recs)-1 || sc.Valid != int64(size-RecordSize(v)) || len(sc.Games) != 3 {
				t.Fatalf("scan of a cut file: %d records, valid %d, %d games; want %d, %d, 3",
					sc.Records, sc.Valid, len(sc.Games), len(recs)-1, size-RecordSize(v))
			}
		}
	}
}

// TestReaderErrors checks that damaged files give clear errors.
func TestReaderErrors(t *testing.T) {
	v, _ := board.New(board.NameHoyito3)
	recs := gameRecords(v, 1, 2)
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, v)
	w.Write(&recs[0])
	w.Flush()
	good := buf.Bytes()
	head := len(good) - RecordSize(v)
	for _, c := range []struct {
		name string
		edit func(b []byte) []byte
		want string
	}{
		{"magic", func(b []byte) []byte { b[0] = 'X'; return b }, "bad magic"},
		{"version", func(b []byte) []byte { b[8] = 9; return b }, "version 9"},
		{"game", func(b []byte) []byte { b[11] = 'x'; return b }, "unknown game"},
		{"repetition", func(b []byte) []byte { b[len(Magic)+3+len(v.Name())+2] = 5; return b }, "unknown Repetition value 5"},
		{"repetition off, no limit", func(b []byte) []byte {
			b[len(Magic)+3+len(v.Name())+2] = byte(board.RepetitionOff)
			copy(b[len(Magic)+3+len(v.Name())+3:], []byte{0, 0, 0, 0})
			return b
		}, "Repetition off"},
		{"empty", func(b []byte) []byte { return b[:0] }, "bad magic"},
		{"short header", func(b []byte) []byte { return b[:12] }, "unexpected EOF"},
		{"result", func(b []byte) []byte { b[head+15] = 7; return b }, "result 7"},
		{"seeds", func(b []byte) []byte { b[head+recordFixed]++; return b }, "add up"},
		{"side", func(b []byte) []byte { b[head+6] = 2; return b }, "side 2"},
	} {
		b := c.edit(append([]byte(nil), good...))
		r, err := NewReader(bytes.NewReader(b))
		if err == nil {
			var rec Record
			err = r.Read(&rec)
		}
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte(c.want)) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}

// TestReadVersion1 reads a file of version 1, whose header has no
// Repetition byte, as Repetition threefold.
func TestReadVersion1(t *testing.T) {
	r := board.DefaultRules()
	r.CaptureSide, r.NoCaptureLimit = board.CaptureOpponent, 30
	v, err := board.NewWithRules(board.NameHoyito3, r)
	if err != nil {
		t.Fatal(err)
	}
	recs := gameRecords(v, 1, 4)
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, v)
	for i := range recs {
		w.Write(&recs[i])
	}
	w.Flush()
	// Version 1: the same header without the byte after LastFour.
	b := buf.Bytes()
	at := len(Magic) + 3 + len(v.Name()) + 2
	old := append(append([]byte(nil), b[:at]...), b[at+1:]...)
	old[len(Magic)] = 1
	rd, err := NewReader(bytes.NewReader(old))
	if err != nil {
		t.Fatal(err)
	}
	if got := rd.Variant().Rules(); got != r {
		t.Errorf("version 1: rules %+v, want %+v", got, r)
	}
	if want := len(old) - len(recs)*RecordSize(v); rd.Offset() != int64(want) {
		t.Errorf("version 1: header of %d bytes, want %d", rd.Offset(), want)
	}
	for i, want := range recs {
		var got Record
		if err := rd.Read(&got); err != nil || got.Pos.String() != want.Pos.String() {
			t.Fatalf("version 1, record %d: %v, %s, want %s", i, err, got.Pos.String(), want.Pos.String())
		}
	}
}

// FuzzReader reads arbitrary bytes as a data file: it must never panic,
// and every record it accepts must encode back to the bytes it came from.
func FuzzReader(f *testing.F) {
	for _, name := range []string{board.NameKatro4x4, board.NameHoyito3} {
		v, _ := board.New(name)
		var buf bytes.Buffer
		w, _ := NewWriter(&buf, v)
		for _, r := range gameRecords(v, 1, 3)[:3] {
			w.Write(&r)
		}
		w.Flush()
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		for {
			off := r.Offset()
			var rec Record
			err := r.Read(&rec)
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || err != nil {
				return
			}
			got := appendRecord(nil, &rec)
			if !bytes.Equal(got, data[off:off+int64(len(got))]) {
				t.Fatalf("record at %d encodes to %x, read from %x", off, got, data[off:off+int64(len(got))])
			}
		}
	})
}
