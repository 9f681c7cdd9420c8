package nnue

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
)

func encode(t testing.TB, n *Net) []byte {
	t.Helper()
	var buf bytes.Buffer
	k, err := n.WriteTo(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if int(k) != n.Size() || buf.Len() != n.Size() {
		t.Fatalf("wrote %d bytes, Size says %d", k, n.Size())
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		f    board.Family
		want int
	}{{board.Katro, 73518}, {board.Hoyito, 12206}} {
		if got := New(tc.f, "").Size(); got != tc.want {
			t.Errorf("a %s file has %d bytes, docs/nnue.md says %d", tc.f, got, tc.want)
		}
	}
	for _, f := range []board.Family{board.Katro, board.Hoyito} {
		for _, wdl := range []eval.WDLModel{{}, {K: 0.002838, Band: 359.5}, {K: 1.0 / 3}, tableModel()} {
			n := randomNet(f, 3)
			n.Description = "sower train --data x.dat — a test"
			n.Boards = 1
			n.WDL = wdl
			b := encode(t, n)
			if v := binary.LittleEndian.Uint16(b[8:]); v != FormatVersion {
				t.Errorf("written in format version %d", v)
			}
			got, err := Read(bytes.NewReader(b), f)
			if err != nil {
				t.Fatal(err)
			}
			if got.Description != n.Description || got.Family != f || got.Boards != 1 || got.WDL != wdl || !equalNets(got, n) {
				t.Errorf("%s, %+v: the network read back differs", f, wdl)
			}
		}
	}
}

// TestVersion1 reads a file of format version 1, which has no
// win/draw/loss model: its header is 30 bytes (16 fewer than version
// 2's, 152 fewer than version 3's), the description's length at byte 28. Such a network is written back as it was read, and
// in the current version once given a model.
func TestVersion1(t *testing.T) {
	n := randomNet(board.Hoyito, 6)
	n.Description = "old"
	n.version = 1
	b := encode(t, n)
	if v, d := binary.LittleEndian.Uint16(b[8:]), binary.LittleEndian.Uint16(b[28:]); v != 1 || d != 3 || string(b[30:33]) != "old" || len(b) != 12054+3 {
		t.Fatalf("the version-1 file made for the test has version %d, description length %d, %d bytes", v, d, len(b))
	}
	got, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Description != "old" || got.WDL != (eval.WDLModel{}) || !equalNets(got, n) {
		t.Error("the version-1 network read back differs")
	}
	if out := encode(t, got); !bytes.Equal(out, b) {
		t.Error("a version-1 network is not written back as it was read")
	}
	got.WDL = eval.WDLModel{K: 0.003, Band: 100}
	out := encode(t, got)
	again, err := Decode(out)
	if err != nil || binary.LittleEndian.Uint16(out[8:]) != FormatVersion || again.WDL != got.WDL || !equalNets(again, n) {
		t.Errorf("a version-1 network given a model: error %v, written as version %d", err, binary.LittleEndian.Uint16(out[8:]))
	}
}

// tableModel returns a model with a table: a win's chance rising from 0
// to 1 over the knots, a draw's 1/10 in the middle, and its own chances
// at exactly 0.
func tableModel() eval.WDLModel {
	m := eval.WDLModel{K: 0.003, Band: 350}
	for i := range m.Table.Win {
		w := i * eval.WDLUnit / (eval.WDLKnots - 1)
		d := 0
		if i > 0 && i < eval.WDLKnots-1 {
			d = eval.WDLUnit / 10
		}
		m.Table.Win[i] = uint16(max(0, w-d/2))
		m.Table.Loss[i] = uint16(max(0, eval.WDLUnit-w-d/2))
	}
	m.Table.Win0, m.Table.Loss0 = 400, 450
	return m
}

// TestVersion2 reads a file of format version 2, whose win/draw/loss
// model has no table: its header is 46 bytes, the description's length at
// byte 44. Such a network is written back as it was read, and in the
// current version once given a table.
func TestVersion2(t *testing.T) {
	n := randomNet(board.Hoyito, 8)
	n.Description = "older"
	n.WDL = eval.WDLModel{K: 0.004, Band: 300}
	n.version = 2
	b := encode(t, n)
	if v, d := binary.LittleEndian.Uint16(b[8:]), binary.LittleEndian.Uint16(b[44:]); v != 2 || d != 5 || string(b[46:51]) != "older" || len(b) != 12070+5 {
		t.Fatalf("the version-2 file made for the test has version %d, description length %d, %d bytes", v, d, len(b))
	}
	got, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Description != "older" || got.WDL != n.WDL || !equalNets(got, n) {
		t.Error("the version-2 network read back differs")
	}
	if out := encode(t, got); !bytes.Equal(out, b) {
		t.Error("the version-2 file is not written back byte for byte")
	}
	got.WDL = tableModel()
	out := encode(t, got)
	again, err := Decode(out)
	if err != nil || binary.LittleEndian.Uint16(out[8:]) != FormatVersion || again.WDL != got.WDL || !equalNets(again, got) {
		t.Errorf("a version-2 network given a table: error %v, written as version %d", err, binary.LittleEndian.Uint16(out[8:]))
	}
}

// TestEarlierArchitecture reads files of architecture 1 (an accumulator of
// 64 and a dense layer of 16) written by earlier programs: the first
// built-in Hoyito III network in format versions 1, 2 and 3
// (testdata/hoyito3-v*.nnue), and a Katro network of that architecture,
// which is larger than any file of this one. Each is refused with a
// message naming both architectures, not read as something else.
func TestEarlierArchitecture(t *testing.T) {
	files := map[string][]byte{}
	for _, name := range []string{"hoyito3-v1.nnue", "hoyito3-v2.nnue", "hoyito3-v3.nnue"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = b
	}
	// A Katro file of architecture 1 as the earlier writer laid it out:
	// version 3's header, 1,128 inputs of 64 weights, then the rest.
	v3 := files["hoyito3-v3.nnue"]
	katro := make([]byte, 148894)
	copy(katro, v3[:headerSize])
	katro[10] = byte(board.Katro)
	binary.LittleEndian.PutUint32(katro[12:], KatroInputs)
	binary.LittleEndian.PutUint16(katro[headerSize-2:], 0)
	files["a katro network"] = reseal(katro)
	if len(katro) <= MaxFileSize {
		t.Fatalf("an architecture-1 Katro file of %d bytes is not larger than this architecture's largest, %d", len(katro), MaxFileSize)
	}
	for name, b := range files {
		// ReadAny reads no more than a file of this architecture can
		// hold, so the Katro file reaches Decode cut short.
		_, err := ReadAny(bytes.NewReader(b))
		if err == nil || !strings.Contains(err.Error(), "architecture (number 1:") || !strings.Contains(err.Error(), ", 64, 16, 1;") ||
			!strings.Contains(err.Error(), "this program's (number 2:") {
			t.Errorf("%s: error %v, want one naming architecture 1 (64, 16) and this program's", name, err)
		}
	}
}

// TestWDLRefused checks that a model that is no model (negative, not a
// number, a band without a K) is neither written nor read.
func TestWDLRefused(t *testing.T) {
	good := encode(t, randomNet(board.Hoyito, 4))
	for _, m := range []eval.WDLModel{{K: -0.001}, {Band: 10}, {K: math.NaN()}, {K: 0.002, Band: -1}, {K: math.Inf(1)}, {K: 0.002, Band: math.NaN()}} {
		n := randomNet(board.Hoyito, 4)
		n.WDL = m
		if _, err := n.AppendBinary(nil); err == nil || !strings.Contains(err.Error(), "win/draw/loss") {
			t.Errorf("%+v written: error %v", m, err)
		}
		b := bytes.Clone(good)
		binary.LittleEndian.PutUint64(b[28:], math.Float64bits(m.K))
		binary.LittleEndian.PutUint64(b[36:], math.Float64bits(m.Band))
		if _, err := Decode(reseal(b)); err == nil || !strings.Contains(err.Error(), "win/draw/loss") {
			t.Errorf("%+v read: error %v", m, err)
		}
	}
	// Tables whose chances add up to more than a whole, at a knot or at 0.
	over := tableModel()
	over.Table.Loss[3] = eval.WDLUnit - over.Table.Win[3] + 1
	zero := tableModel()
	zero.Table.Win0 = eval.WDLUnit
	for _, m := range []eval.WDLModel{over, zero} {
		n := randomNet(board.Hoyito, 4)
		n.WDL = m
		if _, err := n.AppendBinary(nil); err == nil || !strings.Contains(err.Error(), "win/draw/loss table") {
			t.Errorf("a table past a whole written: error %v", err)
		}
		n.WDL = tableModel()
		b := encode(t, n)
		putTable(b, m.Table)
		if _, err := Decode(reseal(b)); err == nil || !strings.Contains(err.Error(), "win/draw/loss table") {
			t.Errorf("a table past a whole read: error %v", err)
		}
	}
}

// putTable writes table t into file b's header (format version 3).
func putTable(b []byte, t eval.WDLTable) {
	le := binary.LittleEndian
	for i, x := range t.Win {
		le.PutUint16(b[tableAt+2*i:], x)
	}
	for i, x := range t.Loss {
		le.PutUint16(b[tableAt+2*eval.WDLKnots+2*i:], x)
	}
	le.PutUint16(b[tableAt+4*eval.WDLKnots:], t.Win0)
	le.PutUint16(b[tableAt+4*eval.WDLKnots+2:], t.Loss0)
}

func equalNets(a, b *Net) bool {
	if len(a.FT) != len(b.FT) {
		return false
	}
	for i := range a.FT {
		if a.FT[i] != b.FT[i] {
			return false
		}
	}
	return a.FTBias == b.FTBias && a.Dense == b.Dense && a.DenseBias == b.DenseBias && a.Out == b.Out && a.OutBias == b.OutBias
}

// reseal recomputes a file's checksum after an edit, so that the edit
// itself is what Read sees.
func reseal(b []byte) []byte {
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], castagnoli()))
	return b
}

func TestReadRefuses(t *testing.T) {
	good := encode(t, randomNet(board.Hoyito, 4))
	edit := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"empty", nil, "not a Sower network"},
		{"other magic", edit(func(b []byte) []byte { b[0] = 'X'; return b }), "not a Sower network"},
		{"cut short", good[:20], "cut short"},
		{"truncated", good[:len(good)-10], "checksum"},
		{"damaged weight", edit(func(b []byte) []byte { b[100] ^= 1; return b }), "damaged"},
		{"damaged checksum", edit(func(b []byte) []byte { b[len(b)-1] ^= 0x80; return b }), "damaged"},
		{"trailing byte", reseal(append(bytes.Clone(good[:len(good)-4]), 0, 0, 0, 0, 0)), "bytes"},
		{"version 4", edit(func(b []byte) []byte { b[8] = 4; return reseal(b) }), "format version 4"},
		{"version 0", edit(func(b []byte) []byte { b[8] = 0; return reseal(b) }), "format version 0"},
		{"version 1's size", edit(func(b []byte) []byte { b[8] = 1; return reseal(b) }), "bytes"},
		{"version 2's size", edit(func(b []byte) []byte { b[8] = 2; return reseal(b) }), "bytes"},
		{"table without a model", edit(func(b []byte) []byte { b[tableAt] = 1; return reseal(b) }), "table without"},
		{"unknown family", edit(func(b []byte) []byte { b[10] = 7; return reseal(b) }), "unknown family"},
		{"other architecture", edit(func(b []byte) []byte { b[11] = 3; return reseal(b) }), "architecture"},
		{"other width", edit(func(b []byte) []byte { b[16] = 64; return reseal(b) }), "architecture"},
		{"other board", edit(func(b []byte) []byte { b[21] = 2; return reseal(b) }), "board bits 0x2"},
		{"long description", edit(func(b []byte) []byte { b[headerSize-2] = 1; return reseal(b) }), "bytes"},
		{"bad description", edit(func(b []byte) []byte {
			b = append(b[:headerSize:headerSize], append([]byte{0xff}, b[headerSize:]...)...)
			b[headerSize-2]++
			return reseal(b)
		}), "UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(tc.file), board.Hoyito)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
	if _, err := Read(bytes.NewReader(good), board.Katro); err == nil || !strings.Contains(err.Error(), "for hoyito") {
		t.Errorf("a Hoyito III network read as Katro's: error %v", err)
	}
	if _, err := Decode([]byte("XX")); !errors.Is(err, ErrNotNetwork) {
		t.Errorf("a short foreign file: %v", err)
	}
}

// TestEvaluates checks which boards a Katro network evaluates by its
// board bits, and that bits for no board are not written.
func TestEvaluates(t *testing.T) {
	k := randomNet(board.Katro, 1)
	for _, tc := range []struct {
		boards uint8
		name   string
		want   bool
	}{
		{0, board.NameKatro4x4, true},
		{1, board.NameKatro, true},
		{1, board.NameKatro4x4, false},
		{9, board.NameKatro4x4, true},
		{9, board.NameKatro6x3, false},
		{0, board.NameHoyito3, false},
	} {
		k.Boards = tc.boards
		if got := k.Evaluates(variant(t, tc.name)); got != tc.want {
			t.Errorf("a Katro network of boards %#x evaluates %s: %v", tc.boards, tc.name, got)
		}
	}
	k.Boards = 16
	if _, err := k.AppendBinary(nil); err == nil {
		t.Error("a Katro network of board bits 0x10 written")
	}
}

// TestBuiltin reads the built-in networks, and checks that Hoyito III's,
// if there is one, knows who is winning: a side 20 seeds ahead in
// captures with an even board is scored well above zero, the other side
// well below.
func TestBuiltin(t *testing.T) {
	for _, f := range []board.Family{board.Katro, board.Hoyito} {
		n, err := Builtin(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if n != nil && n.Family != f {
			t.Errorf("the built-in %s network is for %s", f, n.Family)
		}
		if n == nil || f != board.Hoyito {
			continue
		}
		v := variant(t, board.NameHoyito3)
		m, err := NewModel(n, v)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			fen  string
			sign int
		}{
			{"1,1,1,1,1,1/1,1,1,1,1,1 S 28 8 0", 1},
			{"1,1,1,1,1,1/1,1,1,1,1,1 N 28 8 0", -1},
			{"1,1,1,1,1,1/1,1,1,1,1,1 N 8 28 0", 1},
		} {
			p, err := v.ParsePosition(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.EvaluatePosition(&p); got*tc.sign < 500 {
				t.Errorf("%s: the built-in network scores %d", tc.fen, got)
			}
		}
	}
}

// FuzzDecode checks that no input makes Decode panic, and that whatever it
// accepts is written back byte for byte. With seal, the input's last four
// bytes are replaced by its checksum first, so that mutations reach the
// checks after the checksum's.
func FuzzDecode(f *testing.F) {
	f.Add(encode(f, randomNet(board.Hoyito, 5)), true)
	wdl := randomNet(board.Katro, 5)
	wdl.WDL = eval.WDLModel{K: 0.0025, Band: 300}
	f.Add(encode(f, wdl), true)
	table := randomNet(board.Hoyito, 7)
	table.WDL = tableModel()
	f.Add(encode(f, table), true)
	f.Add([]byte(Magic), false)
	f.Fuzz(func(t *testing.T, b []byte, seal bool) {
		if seal && len(b) >= 4 {
			b = reseal(b)
		}
		n, err := Decode(b)
		if err != nil {
			return
		}
		out, err := n.AppendBinary(nil)
		if err != nil {
			t.Fatalf("a network read could not be written: %v", err)
		}
		if !bytes.Equal(out, b) {
			t.Fatal("the network read is written back differently")
		}
	})
}
