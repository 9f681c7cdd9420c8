package board

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// playRandom plays up to plies random legal moves from p, calling visit
// after each with the position reached. It stops when the game is over.
func playRandom(t testing.TB, p Position, rng *rand.Rand, plies int, visit func(Position)) {
	t.Helper()
	g := NewGame(p)
	for i := 0; i < plies && !g.Status().Over(); i++ {
		cur := g.Position()
		legal := cur.LegalMoves()
		if len(legal) == 0 {
			t.Fatalf("%s: no legal move but status %v", cur.String(), g.Status())
		}
		if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
			t.Fatalf("%s: %v", cur.String(), err)
		}
		visit(g.Position())
	}
}

// noClock drops the clock field: positions equal but for the clock are the
// same position for the repetition rule, so they must share a key.
func noClock(p Position) string {
	s := p.String()
	return s[:strings.LastIndexByte(s, ' ')]
}

// TestKeyIncremental checks after every move of many random games that the
// incremental key equals the key computed from scratch (Check does that
// with the other invariants), and that the key is a function of the
// position: equal positions reached by any route have equal keys, and no two
// different positions seen share one.
func TestKeyIncremental(t *testing.T) {
	for _, name := range Names() {
		for _, cs := range []CaptureSide{CaptureAny, CaptureOpponent} {
			r := DefaultRules()
			r.CaptureSide = cs
			v, _ := NewWithRules(name, r)
			rng := rand.New(rand.NewPCG(1, uint64(len(name))))
			keyOf := map[string]uint64{}
			posOf := map[uint64]string{}
			transpositions := 0
			for range 200 {
				playRandom(t, v.Start(), rng, 300, func(p Position) {
					if err := p.Check(); err != nil {
						t.Fatalf("%s %s: %v", name, p.String(), err)
					}
					s := noClock(p)
					if k, ok := keyOf[s]; ok {
						transpositions++
						if k != p.Key() {
							t.Fatalf("%s: %s has keys %x and %x", name, s, k, p.Key())
						}
					}
					if o, ok := posOf[p.Key()]; ok && o != s {
						t.Fatalf("%s: key %x shared by %s and %s", name, p.Key(), o, s)
					}
					keyOf[s], posOf[p.Key()] = p.Key(), s
				})
			}
			t.Logf("%s %s: %d positions, %d seen again", name, cs, len(keyOf), transpositions)
		}
	}
}

// TestKeyTransposition finds, in the perft tree of each game, positions
// reached by two different move orders and checks their keys agree; the
// test fails if the tree holds no such pair, since it would then test
// nothing.
func TestKeyTransposition(t *testing.T) {
	for _, name := range Names() {
		v, _ := New(name)
		type seen struct {
			path string
			key  uint64
		}
		byPos := map[string]seen{}
		found := 0
		var walk func(p Position, path string, depth int)
		walk = func(p Position, path string, depth int) {
			s := noClock(p)
			if o, ok := byPos[s]; ok && o.path != path {
				found++
				if o.key != p.Key() {
					t.Errorf("%s: %s reached by %q and %q with keys %x and %x", name, s, o.path, path, o.key, p.Key())
				}
			} else {
				byPos[s] = seen{path, p.Key()}
			}
			if depth == 0 {
				return
			}
			for _, m := range p.LegalMoves() {
				c := p
				c.Play(m)
				walk(c, path+" "+m.String(), depth-1)
			}
		}
		walk(v.Start(), "", 6)
		if found == 0 {
			t.Errorf("%s: no transposition within 6 plies of the start", name)
		}
		t.Logf("%s: %d transpositions", name, found)
	}
}

// TestKeyDiffers checks that the side to move and the capture totals are
// part of the key.
func TestKeyDiffers(t *testing.T) {
	v, _ := New(NameHoyito3)
	a, err := v.ParsePosition("4,4,4,4,4,4/4,4,4,4,4,0 S 0 4 0")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := v.ParsePosition("4,4,4,4,4,4/4,4,4,4,4,0 N 0 4 0")
	c, _ := v.ParsePosition("4,4,4,4,4,4/4,4,4,4,4,0 S 4 0 0")
	d, _ := v.ParsePosition("4,4,4,4,4,4/4,4,4,4,4,0 S 0 4 17")
	if a.Key() == b.Key() || a.Key() == c.Key() {
		t.Errorf("side or captures not in the key: %x %x %x", a.Key(), b.Key(), c.Key())
	}
	if a.Key() != d.Key() {
		t.Errorf("the clock changed the key: %x %x", a.Key(), d.Key())
	}
}
