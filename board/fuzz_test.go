package board

import (
	"testing"
)

// fuzzVariant picks a variant and rule options from a fuzzer's byte.
func fuzzVariant(t testing.TB, b byte) *Variant {
	names := Names()
	r := DefaultRules()
	r.CaptureSide = CaptureSide(b >> 4 & 1)
	r.LastFour = LastFour(b >> 5 % 3)
	v, err := NewWithRules(names[int(b&15)%len(names)], r)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// FuzzParsePosition checks that no input makes ParsePosition panic, that
// whatever parses is a valid position, and that it formats to text which
// parses back to the same position and the same text.
func FuzzParsePosition(f *testing.F) {
	for i, name := range Names() {
		v, _ := New(name)
		f.Add(byte(i), v.Start().String())
	}
	f.Add(byte(0), "2,2,2,2,2,2/2,2,2,2,2,2/2,2,0,2,2,2/3,3,0,3,3,3/0,3,3,0,3,3/1,0,1,4,4,1 n 0")
	f.Add(byte(4), "8,1,1,1,7,7/0,8,2,7,2,0   N 0 4 0")
	f.Add(byte(4), "0,0,0,0,0,0/0,0,0,0,0,0 S 20 28 3")
	f.Add(byte(3), "2,3,1,4/6,3,1,0/3,0,0,0/1,4,1,3 S 99999999999999999999")
	f.Add(byte(0), "")
	f.Fuzz(func(t *testing.T, b byte, s string) {
		v := fuzzVariant(t, b)
		p, err := v.ParsePosition(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if err := p.Check(); err != nil {
			t.Fatalf("%q parsed to an invalid position: %v", s, err)
		}
		text := p.String()
		q, err := v.ParsePosition(text)
		if err != nil {
			t.Fatalf("%q formats as %q, which does not parse: %v", s, text, err)
		}
		if q != p || q.String() != text {
			t.Fatalf("%q: round trip changed the position: %q then %q", s, text, q.String())
		}
	})
}

// FuzzPlay plays the moves the fuzzer's bytes choose among the legal ones
// and checks the invariants after every move: Check (seeds conserved,
// counts in range, key equal to the key from scratch, validity), that the
// notation round-trips, and that Game and Position agree.
func FuzzPlay(f *testing.F) {
	f.Add(byte(0), []byte{0, 1, 2, 3, 4, 5})
	f.Add(byte(4), []byte{0, 2, 0, 5, 5, 5, 1, 1})
	f.Add(byte(0x14), []byte("hoyito with captures on the opponent's side only"))
	f.Add(byte(0x23), []byte("katro-4x4 under LastFour south"))
	f.Add(byte(0x34), []byte("a long game of hoyito3 with the last four going north......................"))
	f.Fuzz(func(t *testing.T, b byte, choices []byte) {
		v := fuzzVariant(t, b)
		g := NewGame(v.Start())
		for i, c := range choices {
			if g.Status().Over() {
				break
			}
			p := g.Position()
			legal := p.LegalMoves()
			if len(legal) == 0 {
				t.Fatalf("%s: ongoing game without a legal move", p.String())
			}
			m := legal[int(c)%len(legal)]
			if err := p.CheckMove(m); err != nil {
				t.Fatalf("%s: legal move %s rejected: %v", p.String(), m, err)
			}
			if err := g.Play(m); err != nil {
				t.Fatalf("ply %d %s: %v", i, m, err)
			}
			q := g.Position()
			if err := q.Check(); err != nil {
				t.Fatalf("after %s: %s: %v", FormatMoves(g.Moves()), q.String(), err)
			}
			r, err := v.ParsePosition(q.String())
			if err != nil {
				t.Fatalf("%s does not parse: %v", q.String(), err)
			}
			if r.Key() != q.Key() {
				t.Fatalf("%s: key %x after moves, %x after parsing", q.String(), q.Key(), r.Key())
			}
			if v.Family() == Katro && q.Captured(South)+q.Captured(North) != 0 {
				t.Fatalf("Katro seeds left the board")
			}
		}
	})
}

// FuzzParseMove checks that no input makes ParseMove panic and that a parsed
// move formats to text that parses back to it.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"a1", "f6", "pass", "0000", "C3", "g1", "a10", "", "é1"} {
		f.Add(byte(0), s)
	}
	f.Fuzz(func(t *testing.T, b byte, s string) {
		v := fuzzVariant(t, b)
		m, err := v.ParseMove(s)
		if err != nil {
			return
		}
		if m != Pass && !v.OnBoard(m) {
			t.Fatalf("%q parsed to %s, which is not on the board", s, m)
		}
		back, err := v.ParseMove(m.String())
		if err != nil || back != m {
			t.Fatalf("%q parsed to %s, which parses back to %s, %v", s, m, back, err)
		}
	})
}
