package board

import (
	"fmt"
	"strings"
	"testing"
)

// Tests of the rules of play against the rule book (rules.md, the
// "rule book" below). Every expected position was worked out by hand from
// the rule book; the comment of each case shows the sowing lap by lap.
//
// Reminders used throughout:
//
//	Katro 6x6 South circuit: a1 b1 c1 d1 e1 f1 | f2 e2 d2 c2 b2 a2 | a3 b3 c3 d3 e3 f3 | a1
//	Katro 6x6 North circuit: f6 e6 d6 c6 b6 a6 | a5 b5 c5 d5 e5 f5 | f4 e4 d4 c4 b4 a4 | f6
//	katro-4x4 South circuit: a1 b1 c1 d1 | d2 c2 b2 a2 | a1
//	katro-4x4 North circuit: d4 c4 b4 a4 | a3 b3 c3 d3 | d4
//	Hoyito III circuit:      a1 b1 c1 d1 e1 f1 | f2 e2 d2 c2 b2 a2 | a1
//
// Notation lists rows from the top (highest row) down to row 1, each west
// to east.

func parseIn(t *testing.T, v *Variant, s string) Position {
	t.Helper()
	p, err := v.ParsePosition(s)
	if err != nil {
		t.Fatalf("%s: ParsePosition(%q): %v", v.Name(), s, err)
	}
	if err := p.Check(); err != nil {
		t.Fatalf("%s %q: Check: %v", v.Name(), s, err)
	}
	return p
}

func moveIn(t *testing.T, v *Variant, s string) Move {
	t.Helper()
	m, err := v.ParseMove(s)
	if err != nil {
		t.Fatalf("%s: ParseMove(%q): %v", v.Name(), s, err)
	}
	return m
}

// playChecked makes the legal move m on a copy of p through CheckMove and
// Play, checks the result's invariants, and returns it.
func playChecked(t *testing.T, p Position, m Move) Position {
	t.Helper()
	if err := p.CheckMove(m); err != nil {
		t.Fatalf("%s: CheckMove(%s): %v", p.String(), m, err)
	}
	q := p
	if !q.Play(m) {
		t.Fatalf("%s: Play(%s) reported an endless sowing", p.String(), m)
	}
	if err := q.Check(); err != nil {
		t.Fatalf("%s after %s: Check: %v", p.String(), m, err)
	}
	return q
}

// gamePlay plays the legal move m in g and checks the new position.
func gamePlay(t *testing.T, g *Game, m Move) {
	t.Helper()
	if err := g.Play(m); err != nil {
		t.Fatalf("Game.Play(%s): %v", m, err)
	}
	p := g.Position()
	if err := p.Check(); err != nil {
		t.Fatalf("after %s: Check: %v", m, err)
	}
}

// playRaw plays m with Play alone (no legality check) and checks the
// result.
func playRaw(t *testing.T, p *Position, m Move) {
	t.Helper()
	if !p.Play(m) {
		t.Fatalf("Play(%s) = false", m)
	}
	if err := p.Check(); err != nil {
		t.Fatalf("after %s: Check: %v", m, err)
	}
}

func withRules(t *testing.T, name string, edit func(*Rules)) *Variant {
	t.Helper()
	r := DefaultRules()
	edit(&r)
	v, err := NewWithRules(name, r)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// moveCase is one move from one position and the position it must lead to.
type moveCase struct {
	name  string
	game  string
	pos   string
	move  string
	after string
}

func runMoveCases(t *testing.T, cases []moveCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := variantFor(t, tc.game)
			p := parseIn(t, v, tc.pos)
			q := playChecked(t, p, moveIn(t, v, tc.move))
			if got := q.String(); got != tc.after {
				t.Errorf("after %s:\n got %s\nwant %s", tc.move, got, tc.after)
			}
			// After gives the same position, through the same checks.
			if r, err := p.After(moveIn(t, v, tc.move)); err != nil || r.String() != tc.after {
				t.Errorf("After(%s) = %s, %v", tc.move, r.String(), err)
			}
		})
	}
}

// TestKatroFrontRow covers rule 1.5's whole-row priority on both sides,
// for South and for North, on the 6x6 board (three rows each: outer,
// middle, inner) and on katro-4x4 (two rows each: outer and inner).
func TestKatroFrontRow(t *testing.T) {
	runMoveCases(t, []moveCase{
		// --- katro 6x6, South moving ---
		{
			// South's inner row 3 is empty, so South's front row is the
			// middle row 2. f1 (1 seed) sows f2, which held 1 and now
			// holds 2: it lies in the front row. North's front row is row
			// 4 (f4 holds 3); the target f4 holds seeds: capture 3+2 = 5,
			// sown from f2 on: e2 d2 c2 b2 a2. a2 was empty: the move
			// ends. A capture: clock 0. North moves next.
			name:  "S middle row is front when inner is empty",
			game:  NameKatro,
			pos:   "47,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,3/0,0,0,0,0,0/0,0,0,0,0,1/20,0,0,0,0,1 S 0",
			move:  "f1",
			after: "47,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/1,1,1,1,1,0/20,0,0,0,0,0 N 0",
		},
		{
			// The same, but a3 holds a seed: South's front row is row 3,
			// so f2 (now 2) is not in it and there is no capture test
			// even though f4 faces it with 3 seeds. Relay f2's 2: e2 d2.
			// d2 was empty: the move ends. No capture: clock 0 -> 1.
			name:  "S middle row is not front when inner holds seeds",
			game:  NameKatro,
			pos:   "47,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,3/1,0,0,0,0,0/0,0,0,0,0,1/19,0,0,0,0,1 S 0",
			move:  "f1",
			after: "47,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,3/1,0,0,0,0,0/0,0,0,1,1,0/19,0,0,0,0,0 N 1",
		},
		{
			// South's row 1 is empty so the back row is row 2. a2 (1
			// seed) sows a3 (next after a2), which now holds 2, in
			// South's front row 3. North's inner row 4 holds a seed (f4),
			// so North's front row is row 4 and the target is a4, which is
			// empty: no capture, although a5 (3) and a6 (36) in the same
			// column hold seeds. Relay a3's 2: b3 c3; c3 was empty: end.
			name:  "S no capture when the opponent's inner facing hole is empty",
			game:  NameKatro,
			pos:   "36,0,0,0,0,0/3,0,0,0,0,0/0,0,0,0,0,1/1,0,0,0,0,0/1,0,0,0,0,30/0,0,0,0,0,0 S 0",
			move:  "a2",
			after: "36,0,0,0,0,0/3,0,0,0,0,0/0,0,0,0,0,1/0,1,1,0,0,0/0,0,0,0,0,30/0,0,0,0,0,0 N 1",
		},
		{
			// As above, but North's inner row 4 is empty (f4's seed is in
			// a6 now): North's front row is the middle row 5, and the
			// target is a5 (3): capture 3+2 = 5 sown from a3: b3 c3 d3
			// e3 f3. f3 was empty: end. Clock 0.
			name:  "S target in the opponent's middle row when its inner row is empty",
			game:  NameKatro,
			pos:   "37,0,0,0,0,0/3,0,0,0,0,0/0,0,0,0,0,0/1,0,0,0,0,0/1,0,0,0,0,30/0,0,0,0,0,0 S 0",
			move:  "a2",
			after: "37,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/0,1,1,1,1,1/0,0,0,0,0,30/0,0,0,0,0,0 N 0",
		},
		// --- katro 6x6, North moving ---
		{
			// North's inner row 4 is empty: its front row is the middle
			// row 5. a6 (1) sows a5 (next after a6), now 2, in the front
			// row. South's front row is row 3; the target a3 holds 3:
			// capture 3+2 = 5 sown from a5: b5 c5 d5 e5 f5. f5 was empty:
			// end. Clock 0; South to move.
			name:  "N middle row is front when inner is empty",
			game:  NameKatro,
			pos:   "1,0,0,0,0,30/1,0,0,0,0,0/0,0,0,0,0,0/3,0,0,0,0,0/0,0,0,0,0,0/37,0,0,0,0,0 N 0",
			move:  "a6",
			after: "0,0,0,0,0,30/0,1,1,1,1,1/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0/37,0,0,0,0,0 S 0",
		},
		{
			// The same with a seed in a4: North's front row is row 4, a5
			// (now 2) is not in it: relay a5's 2: b5 c5; c5 was empty:
			// end. a3 keeps its 3 seeds. Clock 0 -> 1.
			name:  "N middle row is not front when inner holds seeds",
			game:  NameKatro,
			pos:   "1,0,0,0,0,29/1,0,0,0,0,0/1,0,0,0,0,0/3,0,0,0,0,0/0,0,0,0,0,0/37,0,0,0,0,0 N 0",
			move:  "a6",
			after: "0,0,0,0,0,29/0,1,1,0,0,0/1,0,0,0,0,0/3,0,0,0,0,0/0,0,0,0,0,0/37,0,0,0,0,0 S 1",
		},
		{
			// North's row 6 is empty: back row 5. f5 (1) sows f4 (next
			// after f5), now 2, in North's front row 4. South's inner row
			// 3 holds a seed (a3), so the target is f3, which is empty: no
			// capture although f2 (3) and f1 face it from South's deeper
			// rows. Relay f4's 2: e4 d4; d4 was empty: end.
			name:  "N no capture when the opponent's inner facing hole is empty",
			game:  NameKatro,
			pos:   "0,0,0,0,0,0/30,0,0,0,0,1/0,0,0,0,0,1/1,0,0,0,0,0/0,0,0,0,0,3/36,0,0,0,0,0 N 0",
			move:  "f5",
			after: "0,0,0,0,0,0/30,0,0,0,0,0/0,0,0,1,1,0/1,0,0,0,0,0/0,0,0,0,0,3/36,0,0,0,0,0 S 1",
		},
		{
			// As above with South's row 3 empty: South's front row is
			// row 2 and the target is f2 (3): capture 3+2 = 5 sown from
			// f4: e4 d4 c4 b4 a4. a4 was empty: end. Clock 0.
			name:  "N target in the opponent's middle row when its inner row is empty",
			game:  NameKatro,
			pos:   "0,0,0,0,0,0/30,0,0,0,0,1/0,0,0,0,0,1/0,0,0,0,0,0/0,0,0,0,0,3/37,0,0,0,0,0 N 0",
			move:  "f5",
			after: "0,0,0,0,0,0/30,0,0,0,0,0/1,1,1,1,1,0/0,0,0,0,0,0/0,0,0,0,0,0/37,0,0,0,0,0 S 0",
		},
		// --- katro-4x4, South moving (rows 1 outer, 2 inner) ---
		{
			// South's inner row 2 is empty: the front row is the outer
			// row 1. a1 (1) sows b1, now 2, in the front row. North's
			// front row is its inner row 3; the target b3 holds 2:
			// capture 2+2 = 4 sown from b1: c1 d1 d2 c2. c2 was empty:
			// end. Clock 0.
			name:  "4x4 S outer row is front when inner is empty",
			game:  NameKatro4x4,
			pos:   "18,0,0,0/0,2,0,0/0,0,0,0/1,1,10,0 S 0",
			move:  "a1",
			after: "18,0,0,0/0,0,0,0/0,0,1,1/0,0,11,1 N 0",
		},
		{
			// With a seed in a2 South's front row is row 2: b1 (now 2)
			// is not in it; relay b1's 2: c1 d1. d1 was empty: end. b3
			// is not taken. Clock 0 -> 1.
			name:  "4x4 S outer row is not front when inner holds seeds",
			game:  NameKatro4x4,
			pos:   "18,0,0,0/0,2,0,0/1,0,0,0/1,1,9,0 S 0",
			move:  "a1",
			after: "18,0,0,0/0,2,0,0/1,0,0,0/0,0,10,1 N 1",
		},
		{
			// d1 (1) sows d2, now 2, in South's front row 2. North's
			// inner row 3 holds a seed (a3): the target is d3, empty: no
			// capture although d4 holds 3. Relay d2's 2: c2 b2. b2 was
			// empty: end.
			name:  "4x4 S no capture when the opponent's inner facing hole is empty",
			game:  NameKatro4x4,
			pos:   "0,0,0,3/1,0,0,0/0,0,0,1/26,0,0,1 S 0",
			move:  "d1",
			after: "0,0,0,3/1,0,0,0/0,1,1,0/26,0,0,0 N 1",
		},
		{
			// North's inner row 3 is empty (its seed moved to a4): the
			// target is d4 in North's outer row, 3 seeds: capture 3+2 =
			// 5 sown from d2: c2 b2 a2 a1 b1. b1 was empty: end. Clock 0.
			name:  "4x4 S target in the opponent's outer row when its inner row is empty",
			game:  NameKatro4x4,
			pos:   "1,0,0,3/0,0,0,0/0,0,0,1/26,0,0,1 S 0",
			move:  "d1",
			after: "1,0,0,0/0,0,0,0/1,1,1,0/27,1,0,0 N 0",
		},
		// --- katro-4x4, North moving (rows 4 outer, 3 inner) ---
		{
			// North's inner row 3 is empty: its front row is row 4. d4
			// (1) sows c4, now 2. South's front row is row 2; target c2
			// holds 2: capture 2+2 = 4 sown from c4: b4 a4 a3 b3. b3 was
			// empty: end. Clock 0.
			name:  "4x4 N outer row is front when inner is empty",
			game:  NameKatro4x4,
			pos:   "10,0,1,1/0,0,0,0/0,0,2,0/18,0,0,0 N 0",
			move:  "d4",
			after: "11,1,0,0/1,1,0,0/0,0,0,0/18,0,0,0 S 0",
		},
		{
			// d3 holds seeds: North's front row is row 3, c4 (now 2) is
			// not in it. Relay c4's 2: b4 a4; a4 was empty: end. c2 keeps
			// its seeds.
			name:  "4x4 N outer row is not front when inner holds seeds",
			game:  NameKatro4x4,
			pos:   "0,0,1,1/0,0,0,10/0,0,2,0/18,0,0,0 N 0",
			move:  "d4",
			after: "1,1,0,0/0,0,0,10/0,0,2,0/18,0,0,0 S 1",
		},
		{
			// a4 (1) sows a3 (next after a4), now 2, in North's front
			// row 3. South's inner row 2 holds a seed (d2): the target is
			// a2, empty: no capture although a1 holds 3. Relay a3's 2:
			// b3 c3; c3 was empty: end.
			name:  "4x4 N no capture when the opponent's inner facing hole is empty",
			game:  NameKatro4x4,
			pos:   "1,0,0,10/1,0,0,0/0,0,0,1/3,16,0,0 N 0",
			move:  "a4",
			after: "0,0,0,10/0,1,1,0/0,0,0,1/3,16,0,0 S 1",
		},
		{
			// South's row 2 is empty: the target is a1 (3) in South's
			// outer row: capture 3+2 = 5 sown from a3: b3 c3 d3 d4 c4. c4
			// was empty: end. Clock 0.
			name:  "4x4 N target in the opponent's outer row when its inner row is empty",
			game:  NameKatro4x4,
			pos:   "1,0,0,10/1,0,0,0/0,0,0,0/3,17,0,0 N 0",
			move:  "a4",
			after: "0,0,1,11/0,1,1,1/0,0,0,0/0,17,0,0 S 0",
		},
	})
}

// TestKatroCaptureOfLastSeeds: a capture that takes the opponent's last
// seeds has its last lap sown and ends the move whatever the landing hole
// holds (rule 1.5); the opponent then has no move and loses (rule 1.7).
func TestKatroCaptureOfLastSeeds(t *testing.T) {
	cases := []moveCase{
		{
			// North's only seeds are 2 in b3. d1 (3) sows d2 c2 b2; b2
			// held 1 and now 2, in South's front row 2; the target b3
			// holds 2: capture 2+2 = 4. North has no seed left, so the 4
			// are sown as the last lap: a2 a1 b1 c1, and the move ends in
			// c1 although it now holds 6 (a relay otherwise).
			name:  "simple",
			game:  NameKatro4x4,
			pos:   "0,0,0,0/0,2,0,0/7,1,7,7/0,0,5,3 S 0",
			move:  "d1",
			after: "0,0,0,0/0,0,0,0/8,0,8,8/1,1,6,0 N 0",
		},
		{
			// North's 25 seeds are all in b3. South's lanes a1 b1 c1 d1
			// d2 c2 b2 a2 hold 3 1 0 1 0 1 0 1. Laps of a1:
			//  1: 3 from a1 -> b1 c1 d1; d1 = 2 (row 1; the front row is
			//     row 2, which holds seeds): relay.
			//  2: 2 from d1 -> d2 c2; c2 = 2, front row, target c3 empty:
			//     relay.
			//  3: 2 from c2 -> b2 a2; a2 = 2, target a3 empty: relay.
			//  4: 2 from a2 -> a1 b1; b1 = 3, not front: relay.
			//  5: 3 from b1 -> c1 d1 d2; d2 = 2, target d3 empty: relay.
			//  6: 2 from d2 -> c2 b2; b2 = 2, target b3 = 25: capture 27.
			// Lanes now 1 0 2 1 0 1 0 0, North is empty: the last lap
			// sows 27 = 3x8 + 3 from b2: every lane +3 and a2 a1 b1 +1
			// more: 5 4 5 4 3 4 3 4; it ends in b1 (4 seeds).
			//
			// Without captures this sowing would never end: every 4 laps
			// the hand holds 3 seeds and the single seeds lie 1, 3, 5 and
			// 7 holes ahead of it again, one hole further along (after lap
			// 4: hand 3 at b1, singles at c1 d2 b2 a1), and the laps land
			// on holes holding 2 or 3. Such a cycle lands on every hole of
			// the circuit, so in Katro it always meets the column of the
			// opponent's front row and captures; see TestKatroNoEndless.
			name:  "relay cycle broken by a capture in column b",
			game:  NameKatro4x4,
			pos:   "0,0,0,0/0,25,0,0/1,0,1,0/3,1,0,1 S 0",
			move:  "a1",
			after: "0,0,0,0/0,0,0,0/4,3,4,3/5,4,5,4 N 0",
		},
		{
			// The same with North's seeds in c3: lap 2 lands in c2 (now
			// 2) facing c3 = 25: capture 27. Lanes a1..a2 are then 0 2 1
			// 0 1 0 0 1; 27 seeds from c2: +3 everywhere and b2 a2 a1 +1:
			// 4 5 4 3 4 3 4 5, ending in a1.
			name:  "relay cycle broken by a capture in column c",
			game:  NameKatro4x4,
			pos:   "0,0,0,0/0,0,25,0/1,0,1,0/3,1,0,1 S 0",
			move:  "a1",
			after: "0,0,0,0/0,0,0,0/5,4,3,4/4,5,4,3 N 0",
		},
		{
			// katro 6x6, North capturing South's last seeds. South's only
			// seeds are 17 in d3. North's a6 (4) sows a5 b5 c5 d5; d5
			// held 1 and now 2. North's inner row 4 is empty, so its
			// front row is row 5 and d5 is in it; the target d3 (South's
			// front row 3) holds 17: capture 17+2 = 19. South has no seed
			// left: the last lap sows 19 from d5, once round North's 18
			// holes and one more seed in e5, where it ends although e5
			// now holds 3+2 = 5 (and would relay otherwise: North's front
			// row is now row 4).
			name:  "north takes the last seeds",
			game:  NameKatro,
			pos:   "4,0,0,0,0,47/0,0,0,1,3,0/0,0,0,0,0,0/0,0,0,17,0,0/0,0,0,0,0,0/0,0,0,0,0,0 N 0",
			move:  "a6",
			after: "1,1,1,1,1,48/2,2,2,1,5,1/1,1,1,1,1,1/0,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,0 S 0",
		},
	}
	runMoveCases(t, cases)
	for _, tc := range cases {
		v := variantFor(t, tc.game)
		p := parseIn(t, v, tc.after)
		mover := p.Side().Other()
		want := Status{Result: SouthWins, Reason: ReasonNoMove}
		if mover == North {
			want.Result = NorthWins
		}
		if got := p.Status(nil); got != want {
			t.Errorf("%s: status %+v, want %+v", tc.name, got, want)
		}
		if ms := p.LegalMoves(); len(ms) != 0 || p.HasLegalMove() {
			t.Errorf("%s: the loser has moves %v", tc.name, ms)
		}
		// Through Game as well: the game is over after the move.
		g := NewGame(parseIn(t, v, tc.pos))
		gamePlay(t, g, moveIn(t, v, tc.move))
		if got := g.Status(); got != want {
			t.Errorf("%s: game status %+v, want %+v", tc.name, got, want)
		}
		if err := g.Play(HoleMove(0, 0)); err == nil || !strings.Contains(err.Error(), "the game is over") {
			t.Errorf("%s: a move after the end: %v", tc.name, err)
		}
	}
}

// TestKatroNoEndless: rule 1.6 makes a sowing that reaches lap 1000
// endless, but a Katro sowing never goes round forever. Suppose it did:
// captures only take seeds from the opponent, so after finitely many it
// would go on without captures, and on finitely many states it would
// repeat a cycle. In one turn of the cycle the hand comes back to the same
// hole, having moved forward a whole number (>= 1) of times round the
// circuit, so every hole of the mover's circuit receives seeds; to keep its
// count periodic every hole must also be emptied, and only landing holes
// are, so every hole, in particular each hole of the inner row, is a
// landing hole with 2 or more seeds. Then the inner row holds seeds, so it
// is the front row; the opponent is not empty (else the move had ended)
// and its front row holds seeds in some column; landing there captures, a
// contradiction. So a Katro move is endless only if it needs more than
// 1000 laps, and the longest sowings found by searching are a few hundred
// laps (the rule book quotes 128 in real games).
//
// This test checks the consequence on every katro-4x4 position in which
// South holds at most 7 seeds (in any distribution, both to move) and North
// the rest in a single hole: every candidate move's sowing ends. The set
// includes positions whose sowing would cycle without the capture rule,
// such as the one of TestKatroCaptureOfLastSeeds.
func TestKatroNoEndless(t *testing.T) {
	v := variantFor(t, NameKatro4x4)
	var south, north []Move
	for _, h := range v.Holes() {
		if v.Owner(h) == South {
			south = append(south, h)
		} else {
			north = append(north, h)
		}
	}
	positions := 0
	board := map[Move]int{}
	try := func(total int) {
		for _, n := range north {
			for s := South; s <= North; s++ {
				var b strings.Builder
				for r := 3; r >= 0; r-- {
					for c := 0; c < 4; c++ {
						h := HoleMove(r, c)
						k := board[h]
						if h == n {
							k = 32 - total
						}
						fmt.Fprintf(&b, "%d", k)
						if c < 3 {
							b.WriteByte(',')
						}
					}
					if r > 0 {
						b.WriteByte('/')
					}
				}
				fmt.Fprintf(&b, " %c 0", s.Letter())
				p, err := v.ParsePosition(b.String())
				if err != nil {
					if total == 0 && s == North {
						continue // South, not to move, has no seeds
					}
					t.Fatalf("%s: %v", b.String(), err)
				}
				positions++
				var l MoveList
				p.GenerateMoves(&l)
				for _, m := range l.Slice() {
					c := p
					if !c.Play(m) {
						t.Fatalf("%s: %s reported endless", p.String(), m)
					}
					if err := c.Check(); err != nil {
						t.Fatalf("%s after %s: %v", p.String(), m, err)
					}
				}
			}
		}
	}
	var rec func(i, left, total int)
	rec = func(i, left, total int) {
		if i == len(south) {
			try(total)
			return
		}
		for k := 0; k <= left; k++ {
			board[south[i]] = k
			rec(i+1, left-k, total+k)
		}
		board[south[i]] = 0
	}
	rec(0, 7, 0)
	if positions < 100000 {
		t.Errorf("only %d positions tried", positions)
	}
}

// TestHoyitoEndless covers rule 2.5 with a sowing that really goes round
// forever.
//
// Position 1,2,0,1,2,0/0,1,0,1,3,1 S: in circuit order a1 b1 c1 d1 e1 f1
// f2 e2 d2 c2 b2 a2 the holes hold 0 1 0 1 3 1 0 2 1 0 2 1. Laps of e1:
//
//	1: 3 from e1 -> f1 f2 e2; e2 = 3: relay
//	2: 3 from e2 -> d2 c2 b2; b2 = 3: relay
//	3: 3 from b2 -> a2 a1 b1; b1 = 2: relay
//	4: 2 from b1 -> c1 d1;    d1 = 2: relay
//	5: 2 from d1 -> e1 f1;    f1 = 3: relay 3 from f1
//
// Before lap 1 the hand held 3 at e1 and the holes after it (f1 f2 e2 d2 c2
// b2 a2 a1 b1 c1 d1) held 1 0 2 1 0 2 1 0 1 0 1. Before lap 6 the hand holds
// 3 at f1 and the holes after it (f2 e2 d2 c2 b2 a2 a1 b1 c1 d1 e1) hold
// 1 0 2 1 0 2 1 0 1 0 1: the same picture moved one hole along the circuit.
// The sowing does the same again from there, so it moves one hole every
// 5 laps and is back where it began after 60 laps. Its laps land on holes
// that then hold 3, 3, 2, 2, 3: never 1 (the move would end) nor 4 (a
// capture). Only the lap limit stops it: lap 1000 ends with a relay, so e1
// is endless under either CaptureSide. The other candidates end: b1 sows
// the empty c1; f1 sows the empty f2; d1 makes e1 4 in South's own row, a
// capture under CaptureSide any, and under opponent a relay of 4 from e1
// (f1 f2 e2 d2; d2 = 2), then 2 from d2 (c2 b2; b2 = 3), then 3 from b2
// (a2 a1 b1; b1 = 2), then 2 from b1 (c1 d1), which ends in d1, emptied
// when the move began.
func TestHoyitoEndless(t *testing.T) {
	const pos = "1,2,0,1,2,0/0,1,0,1,3,1 S 16 20 0"
	for _, cs := range []CaptureSide{CaptureAny, CaptureOpponent} {
		v := withRules(t, NameHoyito3, func(r *Rules) { r.CaptureSide = cs })
		p := parseIn(t, v, pos)
		e1 := moveIn(t, v, "e1")
		if c := p; c.Play(e1) {
			t.Errorf("%s: Play(e1) = true, want false (endless)", cs)
		}
		if got := FormatMoves(p.LegalMoves()); got != "b1 d1 f1" {
			t.Errorf("%s: legal moves %q, want \"b1 d1 f1\"", cs, got)
		}
		err := p.CheckMove(e1)
		if err == nil || !strings.Contains(err.Error(), "endless") {
			t.Errorf("%s: CheckMove(e1) = %v, want an endless error", cs, err)
		}
		if _, err := p.After(e1); err == nil {
			t.Errorf("%s: After(e1) succeeded", cs)
		}
		g := NewGame(p)
		if err := g.Play(e1); err == nil || g.Ply() != 0 {
			t.Errorf("%s: Game.Play(e1) = %v", cs, err)
		}
		// Pass is not allowed: South has legal moves.
		if err := p.CheckMove(Pass); err == nil || !strings.Contains(err.Error(), "may not pass") {
			t.Errorf("%s: CheckMove(pass) = %v", cs, err)
		}
		for _, m := range p.LegalMoves() {
			playChecked(t, p, m)
		}
		// perft(1) counts the three legal moves only.
		if n := p.Perft(1); n != 3 {
			t.Errorf("%s: perft(1) = %d, want 3", cs, n)
		}
	}
	// d1 under each option, as worked out above.
	v := variantFor(t, NameHoyito3)
	q := playChecked(t, parseIn(t, v, pos), moveIn(t, v, "d1"))
	if got, want := q.String(), "1,2,0,1,2,0/0,1,0,0,0,1 S 20 20 0"; got != want {
		t.Errorf("d1 (any): %s, want %s", got, want)
	}
	vo := withRules(t, NameHoyito3, func(r *Rules) { r.CaptureSide = CaptureOpponent })
	q = playChecked(t, parseIn(t, vo, pos), moveIn(t, vo, "d1"))
	// In circuit order: a1 1, b1 0 (lifted), c1 1, d1 1, e1 0 (lifted),
	// f1 2, f2 1, e2 3, d2 0 (lifted), c2 1, b2 0 (lifted), a2 2. North
	// to move, clock 0 -> 1.
	if got, want := q.String(), "2,0,1,0,3,1/1,0,1,1,0,2 N 16 20 1"; got != want {
		t.Errorf("d1 (opponent): %s, want %s", got, want)
	}
}

// TestHoyitoFours covers rule 2.4 and the CaptureSide option: a four in
// the opponent's row is captured under both options, a four in the mover's
// own row only under "any" (under "opponent" it relays). A capture gives
// the mover 4 seeds and an extra turn: the side to move does not change and
// the clock goes back to 0.
func TestHoyitoFours(t *testing.T) {
	cases := []struct {
		name   string
		cs     CaptureSide
		pos    string
		move   string
		after  string
		extra  bool // the mover moves again
		gained int  // seeds the mover captured
	}{
		{
			// a1 (2) sows b1 c1; c1 held 3 and now 4, in South's own
			// row: captured under any. Board 12 -> 8 (> 4, the game goes
			// on). South 16 -> 20 and moves again, clock 5 -> 0.
			name: "S own row, any", cs: CaptureAny,
			pos:   "0,0,0,0,7,0/2,0,3,0,0,0 S 16 20 5",
			move:  "a1",
			after: "0,0,0,0,7,0/0,1,0,0,0,0 S 20 20 0", extra: true, gained: 4,
		},
		{
			// Under opponent the four in c1 relays: 4 from c1 -> d1 e1
			// f1 f2; f2 was empty: the move ends. North to move, 5 -> 6.
			name: "S own row, opponent", cs: CaptureOpponent,
			pos:   "0,0,0,0,7,0/2,0,3,0,0,0 S 16 20 5",
			move:  "a1",
			after: "0,0,0,0,7,1/0,1,0,1,1,1 N 16 20 6",
		},
		{
			// f1 (1) sows f2 (3 -> 4), North's row: captured under both.
			name: "S opponent's row, any", cs: CaptureAny,
			pos:   "0,5,0,0,0,3/3,0,0,0,0,1 S 16 20 5",
			move:  "f1",
			after: "0,5,0,0,0,0/3,0,0,0,0,0 S 20 20 0", extra: true, gained: 4,
		},
		{
			name: "S opponent's row, opponent", cs: CaptureOpponent,
			pos:   "0,5,0,0,0,3/3,0,0,0,0,1 S 16 20 5",
			move:  "f1",
			after: "0,5,0,0,0,0/3,0,0,0,0,0 S 20 20 0", extra: true, gained: 4,
		},
		{
			// North: f2 (2) sows e2 d2 (f2's successors); d2 held 3, now
			// 4, in North's own row: captured under any, North 20 -> 24
			// and moves again.
			name: "N own row, any", cs: CaptureAny,
			pos:   "0,0,0,3,0,2/0,0,0,0,7,0 N 16 20 5",
			move:  "f2",
			after: "0,0,0,0,1,0/0,0,0,0,7,0 N 16 24 0", extra: true, gained: 4,
		},
		{
			// Under opponent: relay 4 from d2 -> c2 b2 a2 a1; a1 was
			// empty: the move ends. South to move, clock 6.
			name: "N own row, opponent", cs: CaptureOpponent,
			pos:   "0,0,0,3,0,2/0,0,0,0,7,0 N 16 20 5",
			move:  "f2",
			after: "1,1,1,0,1,0/1,0,0,0,7,0 S 16 20 6",
		},
		{
			// North: a2 (1) sows a1 (3 -> 4), South's row: captured
			// under both options.
			name: "N opponent's row, opponent", cs: CaptureOpponent,
			pos:   "1,0,0,0,0,7/3,0,0,0,0,1 N 16 20 5",
			move:  "a2",
			after: "0,0,0,0,0,7/0,0,0,0,0,1 N 16 24 0", extra: true, gained: 4,
		},
		{
			// Only the landing hole of the last lap is captured (2.4.3):
			// a1 (4) sows b1 c1 d1 e1; b1 and c1 become 4 on the way but
			// are not taken; e1 (1 -> 2) relays 2: f1 f2; f2 (3 -> 4) is
			// the last landing hole: captured. South 12 -> 16.
			name: "only the last landing hole", cs: CaptureAny,
			pos:   "2,0,0,0,0,3/4,3,3,0,1,0 S 12 20 5",
			move:  "a1",
			after: "2,0,0,0,0,0/0,4,4,1,0,1 S 16 20 0", extra: true, gained: 4,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := withRules(t, NameHoyito3, func(r *Rules) { r.CaptureSide = tc.cs })
			p := parseIn(t, v, tc.pos)
			q := playChecked(t, p, moveIn(t, v, tc.move))
			if got := q.String(); got != tc.after {
				t.Errorf("after %s:\n got %s\nwant %s", tc.move, got, tc.after)
			}
			if (q.Side() == p.Side()) != tc.extra {
				t.Errorf("side to move %s after %s's move", q.Side(), p.Side())
			}
			if got := q.Captured(p.Side()) - p.Captured(p.Side()); got != tc.gained {
				t.Errorf("captured %d, want %d", got, tc.gained)
			}
			if q.AfterPass() || q.Status(nil).Over() {
				t.Errorf("state after the move: pass %v, status %+v", q.AfterPass(), q.Status(nil))
			}
			// Extra turns through Game: the same side plays again.
			g := NewGame(p)
			gamePlay(t, g, moveIn(t, v, tc.move))
			gp := g.Position()
			if gp.Side() != q.Side() || gp.String() != tc.after {
				t.Errorf("game position %s", gp.String())
			}
		})
	}
}

// TestHoyitoPass covers rule 2.3 and 2.6 on passes.
func TestHoyitoPass(t *testing.T) {
	v := variantFor(t, NameHoyito3)
	// South's row is empty: South's only legal move is a pass. Board 8
	// (North's row 1+2+3+2), captures 20 + 20.
	const pos = "1,2,3,0,0,2/0,0,0,0,0,0 S 20 20 0"
	p := parseIn(t, v, pos)
	if p.AfterPass() {
		t.Error("a position read from notation is not after a pass")
	}
	if got := p.LegalMoves(); len(got) != 1 || got[0] != Pass {
		t.Errorf("legal moves %v, want [pass]", got)
	}
	var l MoveList
	if p.GenerateMoves(&l); l.N != 0 {
		t.Errorf("candidates %v, want none", l.String())
	}
	if !p.HasLegalMove() {
		t.Error("HasLegalMove = false; a pass counts")
	}
	if err := p.CheckMove(Pass); err != nil {
		t.Errorf("CheckMove(pass) = %v", err)
	}
	if err := p.CheckMove(HoleMove(0, 0)); err == nil || !strings.Contains(err.Error(), "a1 is empty") {
		t.Errorf("CheckMove(a1) = %v", err)
	}
	if n := p.Perft(1); n != 1 {
		t.Errorf("perft(1) = %d, want 1 (the pass)", n)
	}

	// One pass from a position read from notation does not end the game:
	// North moves next, the board is unchanged, the clock counts the pass.
	q := playChecked(t, p, Pass)
	if got, want := q.String(), "1,2,3,0,0,2/0,0,0,0,0,0 N 20 20 1"; got != want {
		t.Errorf("after pass: %s, want %s", got, want)
	}
	if !q.AfterPass() || q.Status(nil).Over() {
		t.Errorf("after one pass: AfterPass %v, status %+v", q.AfterPass(), q.Status(nil))
	}
	if q.Key() == p.Key() {
		t.Error("side to move is part of the key")
	}
	// North has hole moves, so North may not pass.
	if err := q.CheckMove(Pass); err == nil || !strings.Contains(err.Error(), "North has a legal move") {
		t.Errorf("North's CheckMove(pass) = %v", err)
	}
	if got := FormatMoves(q.LegalMoves()); got != "a2 b2 c2 f2" {
		t.Errorf("North's moves %q", got)
	}
	// A hole move after a pass clears the pass state: f2 (2) sows its
	// successors e2 d2; d2 was empty: the move ends.
	r := playChecked(t, q, HoleMove(1, 5))
	if r.AfterPass() {
		t.Error("AfterPass after a hole move")
	}
	if got, want := r.String(), "1,2,3,1,1,0/0,0,0,0,0,0 S 20 20 2"; got != want {
		t.Errorf("after f2: %s, want %s", got, want)
	}

	// Two passes in a row end the game: each player adds the seeds of
	// their own row (South 0, North 8), the board is emptied, South 20,
	// North 28: North wins. Under the rule book's lap limit no position
	// found lets the second player pass legally (see
	// TestHoyitoDoublePassUnreachable; TestHoyitoLapLimit reaches two
	// legal passes with a lowered limit), so here the second pass is made
	// with Play, which does not check legality, to test the scoring.
	d := q
	playRaw(t, &d, Pass)
	if got, want := d.String(), "0,0,0,0,0,0/0,0,0,0,0,0 S 20 28 2"; got != want {
		t.Errorf("after two passes: %s, want %s", got, want)
	}
	want := Status{Result: NorthWins, Reason: ReasonBothPassed, Seeds: [2]int{20, 28}}
	if got := d.Status(nil); got != want {
		t.Errorf("status after two passes %+v, want %+v", got, want)
	}
	if ms := d.LegalMoves(); len(ms) != 0 {
		t.Errorf("moves after the end: %v", ms)
	}
	// With seeds on both rows: South 16 + 3+1 = 20, North 20 + 5+3 = 28.
	e := parseIn(t, v, "0,5,0,0,0,3/3,0,0,0,0,1 S 16 20 7")
	playRaw(t, &e, Pass)
	playRaw(t, &e, Pass)
	if got, want := e.String(), "0,0,0,0,0,0/0,0,0,0,0,0 S 20 28 9"; got != want {
		t.Errorf("after two passes: %s, want %s", got, want)
	}
	if got := e.Status(nil); got != (Status{Result: NorthWins, Reason: ReasonBothPassed, Seeds: [2]int{20, 28}}) {
		t.Errorf("status %+v", got)
	}
	// Equal rows and totals: a draw.
	f := parseIn(t, v, "0,0,2,2,0,0/0,1,0,3,0,0 N 20 20 0")
	playRaw(t, &f, Pass)
	playRaw(t, &f, Pass)
	if got := f.Status(nil); got != (Status{Result: Draw, Reason: ReasonBothPassed, Seeds: [2]int{24, 24}}) {
		t.Errorf("status %+v", got)
	}

	// Through Game: South's pass is accepted, North's is refused.
	g := NewGame(p)
	gamePlay(t, g, Pass)
	if err := g.Play(Pass); err == nil {
		t.Error("Game accepted North's pass")
	}
	if g.Ply() != 1 || g.Status().Over() {
		t.Errorf("ply %d, status %+v", g.Ply(), g.Status())
	}

	// Katro never allows a pass, not even to a side without moves.
	for _, tc := range []struct{ game, pos string }{
		{NameKatro, katroStart},
		{NameKatro4x4, "0,0,0,0/0,0,0,0/8,8,0,0/8,0,0,8 N 0"},
	} {
		kv := variantFor(t, tc.game)
		kp := parseIn(t, kv, tc.pos)
		if err := kp.CheckMove(Pass); err == nil {
			t.Errorf("%s: pass allowed", tc.pos)
		}
		for _, m := range kp.LegalMoves() {
			if m == Pass {
				t.Errorf("%s: pass among the legal moves", tc.pos)
			}
		}
	}
}

// TestHoyitoDoublePassUnreachable records why the two-pass rule is tested
// with Play above: a second pass in a row needs a player with seeds whose
// every move is endless while the other has none or is in the same case.
// The first half cannot happen when one player holds all the seeds on the
// board: this checks every Hoyito board of 8, 12 or 16 seeds all in the row
// of the side to move (both CaptureSide values): some move ends.
func TestHoyitoDoublePassUnreachable(t *testing.T) {
	if testing.Short() {
		t.Skip("exhaustive")
	}
	for _, cs := range []CaptureSide{CaptureAny, CaptureOpponent} {
		v := withRules(t, NameHoyito3, func(r *Rules) { r.CaptureSide = cs })
		for _, total := range []int{8, 12, 16} {
			var row [6]int
			var rec func(i, left int)
			rec = func(i, left int) {
				if i == 5 {
					row[5] = left
					var b strings.Builder
					b.WriteString("0,0,0,0,0,0/")
					for c, n := range row {
						if c > 0 {
							b.WriteByte(',')
						}
						fmt.Fprintf(&b, "%d", n)
					}
					fmt.Fprintf(&b, " S %d %d 0", (48-total)/8*4, 48-total-(48-total)/8*4)
					p := parseIn(t, v, b.String())
					if ms := p.LegalMoves(); len(ms) == 1 && ms[0] == Pass {
						t.Errorf("%s %s: South must pass", cs, b.String())
					}
					return
				}
				for k := 0; k <= left; k++ {
					row[i] = k
					rec(i+1, left-k)
				}
			}
			rec(0, total)
		}
	}
}

// TestHoyitoLastFour covers rule 2.6: a capture that leaves 4 or fewer
// seeds ends the game; the LastFour option says who gets them. The board
// is emptied, the capturer stays the side to move, the clock is 0.
func TestHoyitoLastFour(t *testing.T) {
	cases := []struct {
		name   string
		lf     LastFour
		pos    string
		move   string
		after  string
		status Status
	}{
		// f1 (1) sows f2 (3 -> 4), North's row: South captures 4 (20 ->
		// 24) and 4 seeds are left (a2): the game ends. Those 4 go to
		// the capturer (South): 28 : 20, South wins.
		{"20-20 capturer", LastFourCapturer, "4,0,0,0,0,3/0,0,0,0,0,1 S 20 20 7", "f1",
			"0,0,0,0,0,0/0,0,0,0,0,0 S 28 20 0", Status{SouthWins, ReasonLastFour, [2]int{28, 20}}},
		{"20-20 south", LastFourSouth, "4,0,0,0,0,3/0,0,0,0,0,1 S 20 20 7", "f1",
			"0,0,0,0,0,0/0,0,0,0,0,0 S 28 20 0", Status{SouthWins, ReasonLastFour, [2]int{28, 20}}},
		// To North: 24 : 24, a draw; LastFour changed the result.
		{"20-20 north", LastFourNorth, "4,0,0,0,0,3/0,0,0,0,0,1 S 20 20 7", "f1",
			"0,0,0,0,0,0/0,0,0,0,0,0 S 24 24 0", Status{Draw, ReasonLastFour, [2]int{24, 24}}},
		// From 16 : 24 the capture makes 20 : 24; the last 4 to South
		// (the capturer) make 24 : 24, a draw ...
		{"16-24 capturer", LastFourCapturer, "4,0,0,0,0,3/0,0,0,0,0,1 S 16 24 7", "f1",
			"0,0,0,0,0,0/0,0,0,0,0,0 S 24 24 0", Status{Draw, ReasonLastFour, [2]int{24, 24}}},
		{"16-24 south", LastFourSouth, "4,0,0,0,0,3/0,0,0,0,0,1 S 16 24 7", "f1",
			"0,0,0,0,0,0/0,0,0,0,0,0 S 24 24 0", Status{Draw, ReasonLastFour, [2]int{24, 24}}},
		// ... to North 20 : 28, North wins.
		{"16-24 north", LastFourNorth, "4,0,0,0,0,3/0,0,0,0,0,1 S 16 24 7", "f1",
			"0,0,0,0,0,0/0,0,0,0,0,0 S 20 28 0", Status{NorthWins, ReasonLastFour, [2]int{20, 28}}},
		// North captures: a2 (1) sows a1 (3 -> 4), North 20 -> 24, f1's
		// 4 are left. To the capturer North: 20 : 28; North stays to
		// move.
		{"N capturer", LastFourCapturer, "1,0,0,0,0,0/3,0,0,0,0,4 N 20 20 3", "a2",
			"0,0,0,0,0,0/0,0,0,0,0,0 N 20 28 0", Status{NorthWins, ReasonLastFour, [2]int{20, 28}}},
		{"N south", LastFourSouth, "1,0,0,0,0,0/3,0,0,0,0,4 N 20 20 3", "a2",
			"0,0,0,0,0,0/0,0,0,0,0,0 N 24 24 0", Status{Draw, ReasonLastFour, [2]int{24, 24}}},
		{"N north", LastFourNorth, "1,0,0,0,0,0/3,0,0,0,0,4 N 20 20 3", "a2",
			"0,0,0,0,0,0/0,0,0,0,0,0 N 20 28 0", Status{NorthWins, ReasonLastFour, [2]int{20, 28}}},
		// A capture that leaves 8 does not end the game: f1 -> f2 (4)
		// with a2 4 and b2 4 left.
		{"8 left", LastFourNorth, "4,4,0,0,0,3/0,0,0,0,0,1 S 16 20 7", "f1",
			"4,4,0,0,0,0/0,0,0,0,0,0 S 20 20 0", Status{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := withRules(t, NameHoyito3, func(r *Rules) { r.LastFour = tc.lf })
			p := parseIn(t, v, tc.pos)
			q := playChecked(t, p, moveIn(t, v, tc.move))
			if got := q.String(); got != tc.after {
				t.Errorf("after %s: %s, want %s", tc.move, got, tc.after)
			}
			if got := q.Status(nil); got != tc.status {
				t.Errorf("status %+v, want %+v", got, tc.status)
			}
			if q.Side() != p.Side() || q.Clock() != 0 {
				t.Errorf("side %s clock %d", q.Side(), q.Clock())
			}
			g := NewGame(p)
			gamePlay(t, g, moveIn(t, v, tc.move))
			if got := g.Status(); got != tc.status {
				t.Errorf("game status %+v, want %+v", got, tc.status)
			}
			if !tc.status.Over() {
				return
			}
			if ms := q.LegalMoves(); len(ms) != 0 {
				t.Errorf("moves after the end: %v", ms)
			}
			if err := g.Play(Pass); err == nil || !strings.Contains(err.Error(), "the game is over") {
				t.Errorf("a move after the end: %v", err)
			}
			// The finished position reads back as a finished game with the
			// same result (its reason is then "finished").
			r := parseIn(t, v, q.String())
			if got := r.Status(nil); got.Result != tc.status.Result || got.Reason != ReasonFinished {
				t.Errorf("reparsed status %+v", got)
			}
		})
	}
}

// TestNoCaptureLimit covers the engine convention of rules 1.7 and 2.6.
func TestNoCaptureLimit(t *testing.T) {
	// The front-row case "S middle row is not front when inner holds
	// seeds": f1 relays without a capture (clock + 1); North then has
	// moves (a6).
	const relay = "47,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,3/1,0,0,0,0,0/0,0,0,0,0,1/19,0,0,0,0,1 S "
	// "S middle row is front when inner is empty": f1 captures (clock 0).
	const capture = "47,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,3/0,0,0,0,0,0/0,0,0,0,0,1/20,0,0,0,0,1 S "
	v := variantFor(t, NameKatro)
	f1 := moveIn(t, v, "f1")

	// Clock 199 is not over; the 200th ply without a capture draws.
	g := NewGame(parseIn(t, v, relay+"199"))
	if g.Status().Over() {
		t.Fatalf("clock 199: %+v", g.Status())
	}
	gamePlay(t, g, f1)
	if gp := g.Position(); gp.Check() != nil {
		t.Fatal(gp.Check())
	}
	if got := g.Status(); got != (Status{Result: Draw, Reason: ReasonLimit}) {
		t.Errorf("after the 200th ply: %+v", got)
	}
	if p := g.Position(); p.Clock() != 200 || !p.HasLegalMove() {
		t.Errorf("clock %d, North has moves %v", p.Clock(), p.HasLegalMove())
	}
	if err := g.Play(HoleMove(5, 0)); err == nil || !strings.Contains(err.Error(), "the game is over (no-capture limit)") {
		t.Errorf("move after the limit: %v", err)
	}
	// A capture at clock 199 resets the clock: the game goes on.
	g = NewGame(parseIn(t, v, capture+"199"))
	gamePlay(t, g, f1)
	if gp := g.Position(); g.Status().Over() || gp.Clock() != 0 {
		t.Errorf("after a capture at 199: %+v clock %d", g.Status(), gp.Clock())
	}
	// A clock of 200 read from notation counts: the game is already over.
	p200 := parseIn(t, v, relay+"200")
	if got := p200.Status(nil); got != (Status{Result: Draw, Reason: ReasonLimit}) {
		t.Errorf("clock 200: %+v", got)
	}
	g = NewGame(p200)
	if got := g.Status(); got.Reason != ReasonLimit {
		t.Errorf("game from clock 200: %+v", got)
	}
	if err := g.Play(f1); err == nil {
		t.Error("a move was accepted after the limit")
	}
	// CheckMove does not look at the limit (it needs the game).
	if err := p200.CheckMove(f1); err != nil {
		t.Errorf("CheckMove at clock 200: %v", err)
	}
	// With NoCaptureLimit 0 there is no limit.
	off := withRules(t, NameKatro, func(r *Rules) { r.NoCaptureLimit = 0 })
	for _, clock := range []string{"199", "200", "100000"} {
		g := NewGame(parseIn(t, off, relay+clock))
		if g.Status().Over() {
			t.Errorf("limit off, clock %s: %+v", clock, g.Status())
		}
		if err := g.Play(f1); err != nil || g.Status().Over() {
			t.Errorf("limit off, clock %s after f1: %v %+v", clock, err, g.Status())
		}
	}
	// A smaller limit: 10.
	ten := withRules(t, NameKatro, func(r *Rules) { r.NoCaptureLimit = 10 })
	p10, p9 := parseIn(t, ten, relay+"10"), parseIn(t, ten, relay+"9")
	if got := p10.Status(nil); got.Reason != ReasonLimit {
		t.Errorf("limit 10, clock 10: %+v", got)
	}
	if got := p9.Status(nil); got.Over() {
		t.Errorf("limit 10, clock 9: %+v", got)
	}
	// A Katro player with no legal move loses even at the limit (and
	// even with a repetition in the history): North has no seeds.
	lost := parseIn(t, variantFor(t, NameKatro4x4), "0,0,0,0/0,0,0,0/8,0,8,8/1,1,6,0 N 200")
	want := Status{Result: SouthWins, Reason: ReasonNoMove}
	if got := lost.Status([]uint64{lost.Key(), lost.Key()}); got != want {
		t.Errorf("no move at the limit: %+v, want %+v", got, want)
	}
	if got := NewGame(lost).Status(); got != want {
		t.Errorf("game: no move at the limit: %+v, want %+v", got, want)
	}

	// Hoyito III at the limit: each row goes to its owner. From the case
	// "S opponent's row": a1 (3) sows b1 c1 d1, d1 was empty: no capture,
	// clock 199 -> 200. Rows then: South b1 c1 d1 f1 = 4, North b2 5 +
	// f2 3 = 8: 16+4 = 20 : 20+8 = 28, North wins.
	hv := variantFor(t, NameHoyito3)
	hp := parseIn(t, hv, "0,5,0,0,0,3/3,0,0,0,0,1 S 16 20 199")
	hq := playChecked(t, hp, moveIn(t, hv, "a1"))
	if got, want := hq.String(), "0,5,0,0,0,3/0,1,1,1,0,1 N 16 20 200"; got != want {
		t.Errorf("after a1: %s, want %s", got, want)
	}
	hwant := Status{Result: NorthWins, Reason: ReasonLimit, Seeds: [2]int{20, 28}}
	// Position.Status reports the award without changing the board.
	before := hq.String()
	if got := hq.Status(nil); got != hwant {
		t.Errorf("Position.Status %+v, want %+v", got, hwant)
	}
	if hq.String() != before || hq.OnBoard() != 12 {
		t.Errorf("Status changed the position: %s", hq.String())
	}
	// Game empties the board into the totals.
	hg := NewGame(hp)
	gamePlay(t, hg, moveIn(t, hv, "a1"))
	if got := hg.Status(); got != hwant {
		t.Errorf("Game status %+v, want %+v", got, hwant)
	}
	fin := hg.Position()
	if err := fin.Check(); err != nil {
		t.Fatal(err)
	}
	if got, want := fin.String(), "0,0,0,0,0,0/0,0,0,0,0,0 N 20 28 200"; got != want {
		t.Errorf("Game position %s, want %s", got, want)
	}
	// A Hoyito game read at the limit is settled at once.
	hg = NewGame(parseIn(t, hv, "0,5,0,0,0,3/3,0,0,0,0,1 S 16 20 200"))
	if got, want := hg.Position().String(), "0,0,0,0,0,0/0,0,0,0,0,0 S 20 28 200"; got != want || hg.Status().Reason != ReasonLimit {
		t.Errorf("game read at the limit: %s %+v", got, hg.Status())
	}
	if got := hg.Start().String(); got != "0,5,0,0,0,3/3,0,0,0,0,1 S 16 20 200" {
		t.Errorf("Start changed: %s", got)
	}
	// Passes count toward the limit: South passes at 199.
	pp := parseIn(t, hv, "1,2,3,0,0,2/0,0,0,0,0,0 S 20 20 199")
	hg = NewGame(pp)
	gamePlay(t, hg, Pass)
	// North's row 1+2+3+2 = 8: 20 : 28.
	if got := hg.Status(); got != (Status{Result: NorthWins, Reason: ReasonLimit, Seeds: [2]int{20, 28}}) {
		t.Errorf("pass at 199: %+v", got)
	}
}

// TestClockSaturates plays every legal move (a pass included) of positions
// whose clock is at or next to MaxClock, with no no-capture limit: a ply
// without a capture leaves the clock at MaxClock at most, and every
// position reached reads back from its notation.
func TestClockSaturates(t *testing.T) {
	const near, max = "2147483646", "2147483647" // MaxClock-1, MaxClock
	// The positions' notation without the clock; each has a move without
	// a capture.
	for _, tc := range []struct{ game, pos string }{
		{NameKatro, "47,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,3/1,0,0,0,0,0/0,0,0,0,0,1/19,0,0,0,0,1 S"}, // f1 relays
		{NameKatro4x4, "2,3,1,4/6,3,1,0/3,0,0,0/1,4,1,3 S"},
		{NameHoyito3, "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0"},
		{NameHoyito3, "2,3,3,3,1,9/0,11,5,1,4,2 S 0 4"},
		{NameHoyito3, "1,1,1,1,1,3/0,0,0,0,0,0 S 20 20"}, // South must pass
	} {
		v := withRules(t, tc.game, func(r *Rules) { r.NoCaptureLimit = 0 })
		for _, clock := range []string{near, max} {
			pos := tc.pos + " " + clock
			p := parseIn(t, v, pos)
			saturated := false
			for _, m := range p.LegalMoves() {
				q := p
				if !q.Play(m) {
					t.Fatalf("%s: %s not played", pos, m)
				}
				want := 0 // a capture
				if q.Clock() != 0 {
					want = MaxClock
					saturated = true
				}
				if q.Clock() != want {
					t.Errorf("%s, %s: clock %d, want %d", pos, m, q.Clock(), want)
				}
				s := q.String()
				if r, err := v.ParsePosition(s); err != nil || r.String() != s {
					t.Errorf("%s, %s: %q does not read back: %v", pos, m, s, err)
				}
			}
			if !saturated {
				t.Errorf("%s: no move without a capture", pos)
			}
		}
	}
}

// TestRepetition covers the third-occurrence rule (1.7, 2.6) through Game
// and through Position.Status with a history made by hand.
//
// The Hoyito III position 2,0,1,0,1,0/1,1,0,1,0,1 N comes back after two
// plies. In circuit order a1 b1 c1 d1 e1 f1 f2 e2 d2 c2 b2 a2 it holds
// 1 1 0 1 0 1 0 1 0 1 0 2.
//
//	North a2 (2): a1 b1, b1 = 2: relay; c1 d1, d1 = 2: relay; e1 f1,
//	f1 = 2: relay; f2 e2, e2 = 2: relay; d2 c2, c2 = 2: relay; b2 a2,
//	a2 was emptied: the move ends. Now 2 0 1 0 1 0 1 0 1 0 1 1, South.
//	South a1 (2): b1 c1, c1 = 2: relay; d1 e1; f1 f2; e2 d2; c2 b2, each
//	landing on a single seed (2): relay; a2 a1, a1 was emptied: the move
//	ends. Now 1 1 0 1 0 1 0 1 0 1 0 2 again, North to move.
//
// No lap makes 4, so there is no capture and the capture totals stay.
func TestRepetition(t *testing.T) {
	const p0 = "2,0,1,0,1,0/1,1,0,1,0,1 N 20 20 0"
	const p1 = "1,1,0,1,0,1/2,0,1,0,1,0 S 20 20 1"
	v := variantFor(t, NameHoyito3)
	start := parseIn(t, v, p0)
	g := NewGame(start)
	cycle := []string{"a2", "a1", "a2", "a1"}
	for i, s := range cycle {
		gamePlay(t, g, moveIn(t, v, s))
		p := g.Position()
		if err := p.Check(); err != nil {
			t.Fatal(err)
		}
		st := g.Status()
		switch i {
		case 0, 2:
			// p1 for the first and second time.
			if !strings.HasPrefix(p.String(), strings.TrimSuffix(p1, " 1")) || st.Over() {
				t.Errorf("ply %d: %s %+v", i+1, p.String(), st)
			}
		case 1:
			// p0 for the second time: not over.
			if p.Key() != start.Key() || st.Over() {
				t.Errorf("ply 2: %s %+v", p.String(), st)
			}
		case 3:
			// p0 for the third time: the game ends; each row goes to its
			// owner (South 1+1+1+1 = 4, North 2+1+1 = 4): 24 : 24, a draw.
			want := Status{Result: Draw, Reason: ReasonRepeat, Seeds: [2]int{24, 24}}
			if st != want {
				t.Errorf("third occurrence: %+v, want %+v", st, want)
			}
			if got, want := p.String(), "0,0,0,0,0,0/0,0,0,0,0,0 N 24 24 4"; got != want {
				t.Errorf("final position %s, want %s", got, want)
			}
		}
	}
	if err := g.Play(moveIn(t, v, "a2")); err == nil || !strings.Contains(err.Error(), "repetition") {
		t.Errorf("move after the repetition: %v", err)
	}
	// The first move really gives p1 (clock 1).
	if q := playChecked(t, start, moveIn(t, v, "a2")); q.String() != p1 {
		t.Errorf("a2 gives %s, want %s", q.String(), p1)
	}
	// With other totals the repetition is not a draw: 24 + 4 : 16 + 4.
	g = NewGame(parseIn(t, v, "2,0,1,0,1,0/1,1,0,1,0,1 N 24 16 0"))
	if err := g.PlayAll([]Move{moveIn(t, v, "a2"), moveIn(t, v, "a1"), moveIn(t, v, "a2"), moveIn(t, v, "a1")}); err != nil {
		t.Fatal(err)
	}
	if gp := g.Position(); gp.Check() != nil {
		t.Fatal(gp.Check())
	}
	if got := g.Status(); got != (Status{Result: SouthWins, Reason: ReasonRepeat, Seeds: [2]int{28, 20}}) {
		t.Errorf("24-16: %+v", got)
	}
	// The history Game keeps: the keys of p0 p1 p0 p1.
	if h := g.History(); len(h) != 4 || h[0] != h[2] || h[1] != h[3] || h[0] == h[1] {
		t.Errorf("history %x", h)
	}

	// Position.Status with a hand-made history (Katro): the current
	// position must occur twice before it (three times in all).
	kv := variantFor(t, NameKatro)
	k := kv.Start()
	afterA1 := playChecked(t, k, HoleMove(0, 0))
	other := afterA1.Key()
	for _, tc := range []struct {
		history []uint64
		want    Status
	}{
		{nil, Status{}},
		{[]uint64{k.Key()}, Status{}},
		{[]uint64{k.Key(), other}, Status{}},
		{[]uint64{k.Key(), other, k.Key()}, Status{Result: Draw, Reason: ReasonRepeat}},
		{[]uint64{other, k.Key(), other, k.Key(), other}, Status{Result: Draw, Reason: ReasonRepeat}},
		{[]uint64{other, other, other}, Status{}},
	} {
		if got := k.Status(tc.history); got != tc.want {
			t.Errorf("katro start with history %x: %+v, want %+v", tc.history, got, tc.want)
		}
	}
	// The clock is not part of the position: the same board and side with
	// another clock repeats. The side to move is: North to move is not the
	// start position.
	k9 := parseIn(t, kv, strings.Replace(katroStart, " S 0", " S 9", 1))
	if k9.Key() != k.Key() {
		t.Error("the key depends on the clock")
	}
	kn := parseIn(t, kv, strings.Replace(katroStart, " S 0", " N 0", 1))
	if got := kn.Status([]uint64{k.Key(), k.Key()}); got.Over() {
		t.Errorf("North to move counted as a repetition: %+v", got)
	}
	// Hoyito: captures are part of the position; Position.Status awards
	// the rows without changing the board.
	hp := parseIn(t, v, p0)
	hq := parseIn(t, v, "2,0,1,0,1,0/1,1,0,1,0,1 N 16 24 0")
	if hp.Key() == hq.Key() {
		t.Error("the key ignores the capture totals")
	}
	if got := hp.Status([]uint64{hq.Key(), hq.Key()}); got.Over() {
		t.Errorf("other totals counted as a repetition: %+v", got)
	}
	if got := hp.Status([]uint64{hp.Key(), hq.Key(), hp.Key()}); got != (Status{Result: Draw, Reason: ReasonRepeat, Seeds: [2]int{24, 24}}) {
		t.Errorf("hoyito hand-made history: %+v", got)
	}
	if hp.String() != p0 {
		t.Errorf("Status changed the position: %s", hp.String())
	}
}

// TestHoyitoPerftExtraTurnAndPass: perft (section 5) through an extra turn
// and a pass, counted by hand.
//
// 0,4,0,4,0,3/0,0,0,0,0,1 S 16 20: South's only seed is f1.
//
//	ply 1: f1 sows f2 (3 -> 4), North's row: capture, South again.
//	       1 sequence. Board 8 (b2 4, d2 4): the game goes on.
//	ply 2: South's row is empty: pass. 1 sequence.
//	ply 3: North: d2 (4) -> c2 b2 a2 a1, a1 empty: ends;
//	       b2 (4) -> a2 a1 b1 c1, c1 empty: ends. 2 sequences.
//	ply 4: after d2 South has a1 (1) -> b1, empty: 1 move.
//	       after b2 South has a1 b1 c1 (1 each): a1 -> b1 (2) relay c1 (2)
//	       d1 (1) ends; b1 -> c1 (2) relay d1 e1 ends; c1 -> d1 ends:
//	       3 moves. 1 + 3 = 4 sequences.
func TestHoyitoPerftExtraTurnAndPass(t *testing.T) {
	v := variantFor(t, NameHoyito3)
	p := parseIn(t, v, "0,4,0,4,0,3/0,0,0,0,0,1 S 16 20 0")
	for d, want := range []uint64{1, 1, 1, 2, 4} {
		if got := p.Perft(d); got != want {
			t.Errorf("perft(%d) = %d, want %d", d, got, want)
		}
	}
	if got := p.Divide(3); len(got) != 1 || got[0] != (DivideEntry{HoleMove(0, 5), 2}) {
		t.Errorf("divide(3) = %v", got)
	}
	// Walk the line: f1 (extra turn), pass, d2, a1.
	q := playChecked(t, p, moveIn(t, v, "f1"))
	if got, want := q.String(), "0,4,0,4,0,0/0,0,0,0,0,0 S 20 20 0"; got != want {
		t.Errorf("after f1: %s, want %s", got, want)
	}
	if got := q.LegalMoves(); len(got) != 1 || got[0] != Pass {
		t.Errorf("after f1: moves %v, want [pass]", got)
	}
	q = playChecked(t, q, Pass)
	if got := FormatMoves(q.LegalMoves()); got != "b2 d2" {
		t.Errorf("North's moves %q", got)
	}
	if got := q.Divide(2); len(got) != 2 || got[0].Nodes != 3 || got[1].Nodes != 1 {
		t.Errorf("divide(2) after the pass = %v, want b2 3, d2 1", got)
	}
	q = playChecked(t, q, moveIn(t, v, "d2"))
	if got, want := q.String(), "1,5,1,0,0,0/1,0,0,0,0,0 S 20 20 2"; got != want {
		t.Errorf("after d2: %s, want %s", got, want)
	}
	// The pass is a ply: the extra turn and the pass both count, so the
	// line f1 pass d2 a1 is 4 plies long.
	q = playChecked(t, q, moveIn(t, v, "a1"))
	if q.Side() != North || q.Clock() != 3 {
		t.Errorf("after a1: %s", q.String())
	}
	// A game over counts 0 at depth > 0: the last-four position.
	lf := playChecked(t, parseIn(t, v, "4,0,0,0,0,3/0,0,0,0,0,1 S 20 20 7"), moveIn(t, v, "f1"))
	if got := lf.Perft(1); got != 0 {
		t.Errorf("perft after the last four = %d", got)
	}
	if got := lf.Perft(0); got != 1 {
		t.Errorf("perft(0) = %d", got)
	}
	// Two passes in a row end the game: after South's pass, North's forced
	// (Play) pass leaves an empty board and perft 0.
	pp := parseIn(t, v, "1,2,3,0,0,2/0,0,0,0,0,0 S 20 20 0")
	playRaw(t, &pp, Pass)
	playRaw(t, &pp, Pass)
	if got := pp.Perft(2); got != 0 {
		t.Errorf("perft after two passes = %d", got)
	}
	// Perft ignores the no-capture limit: the same counts at clock 500.
	p500 := parseIn(t, v, "0,4,0,4,0,3/0,0,0,0,0,1 S 16 20 500")
	if got := p500.Perft(4); got != 4 {
		t.Errorf("perft(4) at clock 500 = %d", got)
	}
}

// lapLimited returns the variant with its lap limit (the rule book's 1000)
// lowered to laps, so that short sowings reach rule 1.6/2.5.
func lapLimited(t *testing.T, name string, laps int) *Variant {
	t.Helper()
	v := variantFor(t, name)
	v.maxLaps = laps
	return v
}

// TestKatroLapLimit exercises rule 1.6 with the lap limit lowered: since a
// Katro sowing never goes round forever (TestKatroNoEndless), the limit
// matters only to sowings longer than it. A sowing is endless when lap
// number <limit> ends with a relay or with a capture that leaves the
// opponent seeds; a capture of the opponent's last seeds has its last lap
// sown whatever its number.
func TestKatroLapLimit(t *testing.T) {
	cases := []struct {
		name  string
		game  string
		pos   string
		laps  int    // the lowered limit
		legal string // legal moves
		loses bool   // the side to move has no legal move
	}{
		// The relay cycle of TestKatroCaptureOfLastSeeds: a1 captures
		// North's last seeds at the end of lap 6, then sows its last lap
		// (the 7th). b1 and d1 sow a single seed into an empty hole (lap
		// 1). With the limit at 6, lap 6 ends with a capture of the last
		// seeds: legal.
		{"last seeds at the limit", NameKatro4x4, "0,0,0,0/0,25,0,0/1,0,1,0/3,1,0,1 S 0", 6, "a1 b1 d1", false},
		// With the limit at 5, lap 5 (landing in d2, a relay) would start
		// another lap: a1 is endless.
		{"relay at the limit", NameKatro4x4, "0,0,0,0/0,25,0,0/1,0,1,0/3,1,0,1 S 0", 5, "b1 d1", false},
		// d1 captures North's last seeds at the end of lap 1 (see
		// TestKatroCaptureOfLastSeeds): legal even with a limit of 1.
		// c1 (5) sows d1 d2 c2 b2 a2; a2 (7 -> 8) is in the front row
		// but a3 is empty: a relay at lap 1, endless.
		{"last seeds at lap 1", NameKatro4x4, "0,0,0,0/0,2,0,0/7,1,7,7/0,0,5,3 S 0", 1, "d1", false},
		// f1 captures at the end of lap 1 and North keeps its 47 seeds
		// in a6: with a limit of 1 that capture would start lap 2, so f1
		// is endless. a1 (20) sows once round South's 18 holes and b1 c1
		// again: c1 (2) is in row 1 while row 3 holds seeds: a relay at
		// lap 1. No legal move: South loses (rule 1.7).
		{"every move endless", NameKatro, "47,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,3/0,0,0,0,0,0/0,0,0,0,0,1/20,0,0,0,0,1 S 0", 1, "", true},
		// With a limit of 2, f1's second lap ends in the empty a2: legal.
		// a1 relays again at lap 2 (c1's 2 seeds: d1 e1, e1 = 2).
		{"capture then end at the limit", NameKatro, "47,0,0,0,0,0/0,0,0,0,0,0/0,0,0,0,0,3/0,0,0,0,0,0/0,0,0,0,0,1/20,0,0,0,0,1 S 0", 2, "f1", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := lapLimited(t, tc.game, tc.laps)
			p := parseIn(t, v, tc.pos)
			if got := FormatMoves(p.LegalMoves()); got != tc.legal {
				t.Errorf("legal moves %q, want %q", got, tc.legal)
			}
			var l MoveList
			p.GenerateMoves(&l)
			for _, m := range l.Slice() {
				legal := strings.Contains(" "+tc.legal+" ", " "+m.String()+" ")
				c := p
				if c.Play(m) != legal {
					t.Errorf("Play(%s) = %v, want %v", m, !legal, legal)
				}
				err := p.CheckMove(m)
				switch {
				case legal && err != nil:
					t.Errorf("CheckMove(%s) = %v", m, err)
				case legal:
					playChecked(t, p, m)
				case !tc.loses && (err == nil || !strings.Contains(err.Error(), "endless")):
					t.Errorf("CheckMove(%s) = %v, want an endless error", m, err)
				case tc.loses && (err == nil || !strings.Contains(err.Error(), "has no legal move")):
					t.Errorf("CheckMove(%s) = %v, want no legal move", m, err)
				}
			}
			st := p.Status(nil)
			if tc.loses {
				if st != (Status{Result: NorthWins, Reason: ReasonNoMove}) || p.HasLegalMove() {
					t.Errorf("status %+v, HasLegalMove %v", st, p.HasLegalMove())
				}
				if n := p.Perft(1); n != 0 {
					t.Errorf("perft(1) = %d", n)
				}
			} else if st.Over() {
				t.Errorf("status %+v", st)
			}
		})
	}
	// The default limit is the rule book's 1000.
	if v := variantFor(t, NameKatro); v.maxLaps != 1000 || MaxLaps != 1000 {
		t.Errorf("lap limit %d, MaxLaps %d", v.maxLaps, MaxLaps)
	}
}

// TestHoyitoLapLimit: with the lap limit lowered to 1, a player whose
// every move needs more laps must pass (rule 2.3), and then two passes in
// a row are reached through legal play.
//
// 0,0,0,16,0,0/0,0,0,0,0,0: North's only seeds are 16 in d2. d2 sows 16 =
// 12 + 4: one seed in every hole (d2 included) and c2 b2 a2 a1 one more;
// the lap ends in a1, which now holds 2: a relay, so lap 1 would be
// followed by lap 2 and d2 is endless under a limit of 1. (Under the
// rule book's limit it ends at lap 8.)
func TestHoyitoLapLimit(t *testing.T) {
	v := lapLimited(t, NameHoyito3, 1)
	p := parseIn(t, v, "0,0,0,16,0,0/0,0,0,0,0,0 N 16 16 0")
	d2 := moveIn(t, v, "d2")
	if got := p.LegalMoves(); len(got) != 1 || got[0] != Pass {
		t.Errorf("legal moves %v, want [pass]", got)
	}
	if err := p.CheckMove(d2); err == nil || !strings.Contains(err.Error(), "endless") {
		t.Errorf("CheckMove(d2) = %v", err)
	}
	if err := p.CheckMove(Pass); err != nil {
		t.Errorf("CheckMove(pass) = %v", err)
	}
	if c := p; c.Play(d2) {
		t.Error("Play(d2) = true")
	}
	// Read from notation, North's pass is not a second pass: South (no
	// seeds) must pass next, and that second pass ends the game. Each
	// player adds their own row: South 16 + 0, North 16 + 16 = 32.
	g := NewGame(p)
	gamePlay(t, g, Pass)
	if g.Status().Over() {
		t.Fatalf("one pass ended the game: %+v", g.Status())
	}
	gp := g.Position()
	if got := gp.LegalMoves(); len(got) != 1 || got[0] != Pass || !gp.AfterPass() {
		t.Errorf("South's moves %v, after pass %v", got, gp.AfterPass())
	}
	gamePlay(t, g, Pass)
	want := Status{Result: NorthWins, Reason: ReasonBothPassed, Seeds: [2]int{16, 32}}
	if got := g.Status(); got != want {
		t.Errorf("status %+v, want %+v", got, want)
	}
	if got, want := g.Position().String(), "0,0,0,0,0,0/0,0,0,0,0,0 N 16 32 2"; got != want {
		t.Errorf("final %s, want %s", got, want)
	}
	if err := g.Play(Pass); err == nil {
		t.Error("a pass after the end")
	}
	// Perft: pass, pass, then nothing.
	for d, want := range []uint64{1, 1, 1, 0} {
		if got := p.Perft(d); got != want {
			t.Errorf("perft(%d) = %d, want %d", d, got, want)
		}
	}
	// Under the rule book's limit d2 is legal and North may not pass.
	full := variantFor(t, NameHoyito3)
	q := parseIn(t, full, p.String())
	if got := FormatMoves(q.LegalMoves()); got != "d2" {
		t.Errorf("default limit: moves %q", got)
	}
	if err := q.CheckMove(Pass); err == nil {
		t.Error("default limit: North may pass")
	}
}

func TestRepetitionOption(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Repetition
		ok   bool
	}{{"threefold", RepetitionThreefold, true}, {" OFF ", RepetitionOff, true}, {"twofold", 0, false}, {"", 0, false}} {
		got, err := ParseRepetition(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseRepetition(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
		if c.ok && got.String() != strings.ToLower(strings.TrimSpace(c.in)) {
			t.Errorf("%v.String() = %q", got, got.String())
		}
	}
	r := DefaultRules()
	r.Repetition = RepetitionOff
	r.NoCaptureLimit = 0
	if _, err := NewWithRules(NameHoyito3, r); err == nil || !strings.Contains(err.Error(), "Repetition off") {
		t.Errorf("Repetition off with no limit: err %v, want a refusal naming Repetition off", err)
	}
	// A position repeated a third time ends the game under threefold, and
	// not under off.
	for _, rep := range []Repetition{RepetitionThreefold, RepetitionOff} {
		r := DefaultRules()
		r.Repetition = rep
		v, err := NewWithRules(NameHoyito3, r)
		if err != nil {
			t.Fatal(err)
		}
		p, err := v.ParsePosition("1,1,1,3,0,2/0,0,0,0,0,0 S 20 20 0")
		if err != nil {
			t.Fatal(err)
		}
		// Playing the first legal move every time comes back to a
		// position a third time after 25 plies, with no capture.
		g := NewGame(p)
		for i := 0; i < 48 && !g.Status().Over(); i++ {
			pos := g.Position()
			ms := pos.LegalMoves()
			if err := g.Play(ms[0]); err != nil {
				t.Fatal(err)
			}
		}
		over := g.Status().Over()
		if rep == RepetitionThreefold && (!over || g.Status().Reason != ReasonRepeat) {
			t.Errorf("threefold: status %+v after %d plies, want a repetition", g.Status(), g.Ply())
		}
		if rep == RepetitionOff && over && g.Status().Reason == ReasonRepeat {
			t.Errorf("off: the game ended by repetition after %d plies", g.Ply())
		}
	}
}

// Balance is the seeds a side holds less the opponent's in Katro, its
// captures less the opponent's in Hoyito III, counted by hand.
func TestBalance(t *testing.T) {
	for _, tc := range []struct {
		game, pos    string
		south, north int
	}{
		// North holds 18+2 = 20 (rows 4 and 3), South 1+1+10 = 12.
		{NameKatro4x4, "18,0,0,0/0,2,0,0/0,0,0,0/1,1,10,0 S 0", -8, 8},
		{NameKatro4x4, "0,0,0,3/1,0,0,0/0,0,0,1/26,0,0,1 S 0", 24, -24},
		// The seeds on the board do not count in Hoyito III: captures do.
		{NameHoyito3, "4,4,4,4,4,4/4,4,4,4,4,0 S 0 4 0", -4, 4},
		{NameHoyito3, "1,1,1,3,0,2/0,0,0,0,0,0 S 20 20 0", 0, 0},
	} {
		v, err := New(tc.game)
		if err != nil {
			t.Fatal(err)
		}
		p := parseIn(t, v, tc.pos)
		if s, n := p.Balance(South), p.Balance(North); s != tc.south || n != tc.north {
			t.Errorf("%s %q: Balance South %d, North %d; want %d, %d", tc.game, tc.pos, s, n, tc.south, tc.north)
		}
	}
}
