// Tests of the score conventions: Katro wins and losses by distance, proven
// Hoyito III margins, which scores are decisive, the protocol's "cp" and
// "mate" forms, and the conversion of decisive scores to and from the
// transposition table's node-relative form.

package search

import (
	"testing"

	"github.com/sower-engine/sower/board"
)

func TestScoreUCI(t *testing.T) {
	tests := []struct {
		name  string
		s     Score
		f     board.Family
		want  string
		plies int // MatePlies for Katro wins and losses
	}{
		{"katro win in 1 ply", KatroWin(1), board.Katro, "mate 1", 1},
		{"katro win in 3 plies", KatroWin(3), board.Katro, "mate 2", 3},
		{"katro win in 5 plies", KatroWin(5), board.Katro, "mate 3", 5},
		{"katro win in 6 plies", KatroWin(6), board.Katro, "mate 3", 6},
		{"katro loss in 4 plies", -KatroWin(4), board.Katro, "mate -2", 4},
		{"katro loss in 2 plies", -KatroWin(2), board.Katro, "mate -1", 2},
		{"katro lost now", -KatroWin(0), board.Katro, "mate 0", 0},
		{"katro lost now, -Mate", -Mate, board.Katro, "mate 0", 0},
		{"katro win at MaxPly", KatroWin(MaxPly), board.Katro, "mate 64", MaxPly},
		{"katro evaluation", 137, board.Katro, "cp 137", -1},
		{"katro negative evaluation", -42, board.Katro, "cp -42", -1},
		{"katro draw", 0, board.Katro, "cp 0", -1},
		{"largest evaluation", DecisiveMin - 1, board.Katro, "cp 15871", -1},
		{"hoyito proven win by 6", HoyitoEnd(6, 3), board.Hoyito, "cp 600", -1},
		{"hoyito proven loss by 2", HoyitoEnd(-2, 5), board.Hoyito, "cp -200", -1},
		{"hoyito proven win by 1 at MaxPly", HoyitoEnd(1, MaxPly), board.Hoyito, "cp 100", -1},
		{"hoyito proven win by 48", HoyitoEnd(48, 0), board.Hoyito, "cp 4800", -1},
		{"hoyito proven draw", HoyitoEnd(0, 7), board.Hoyito, "cp 0", -1},
		{"hoyito evaluation", -250, board.Hoyito, "cp -250", -1},
	}
	for _, tc := range tests {
		if got := tc.s.UCI(tc.f); got != tc.want {
			t.Errorf("%s: Score(%d).UCI = %q, want %q", tc.name, tc.s, got, tc.want)
		}
		if tc.plies >= 0 {
			if !tc.s.Decisive() {
				t.Errorf("%s: not decisive", tc.name)
			}
			if got := tc.s.MatePlies(); got != tc.plies {
				t.Errorf("%s: MatePlies = %d, want %d", tc.name, got, tc.plies)
			}
		}
	}
}

func TestKatroScores(t *testing.T) {
	for p := 0; p <= MaxPly; p++ {
		w := KatroWin(p)
		if w != Mate-Score(p) {
			t.Fatalf("KatroWin(%d) = %d, want Mate-%d", p, w, p)
		}
		if !w.Decisive() || !(-w).Decisive() {
			t.Errorf("KatroWin(%d) is not decisive", p)
		}
		if w.MatePlies() != p || (-w).MatePlies() != p {
			t.Errorf("KatroWin(%d): MatePlies %d and %d", p, w.MatePlies(), (-w).MatePlies())
		}
		if p > 0 && !(w < KatroWin(p-1)) {
			t.Errorf("a win in %d plies does not score below a win in %d", p, p-1)
		}
		if p > 0 && !(-w > -KatroWin(p-1)) {
			t.Errorf("a loss in %d plies does not score above a loss in %d", p, p-1)
		}
		if w >= Infinity || w <= HoyitoEnd(48, 0) {
			t.Errorf("KatroWin(%d) = %d is outside (largest Hoyito III score, Infinity)", p, w)
		}
	}
	for _, s := range []Score{0, 1, -1, 100, -3000, DecisiveMin - 1, -(DecisiveMin - 1)} {
		if s.Decisive() {
			t.Errorf("Score(%d) is decisive", s)
		}
	}
}

func TestHoyitoScores(t *testing.T) {
	for m := -48; m <= 48; m++ {
		for p := 0; p <= MaxPly; p++ {
			s := HoyitoEnd(m, p)
			if m == 0 {
				if s != 0 {
					t.Fatalf("HoyitoEnd(0, %d) = %d, want 0", p, s)
				}
				continue
			}
			if !s.Decisive() {
				t.Fatalf("HoyitoEnd(%d, %d) = %d is not decisive", m, p, s)
			}
			if got := s.Margin(); got != m {
				t.Fatalf("HoyitoEnd(%d, %d).Margin() = %d", m, p, got)
			}
			if HoyitoEnd(-m, p) != -s {
				t.Fatalf("HoyitoEnd(%d, %d) is not the negation of HoyitoEnd(%d, %d)", -m, p, m, p)
			}
			// Table entries hold scores as int16, relative to the node.
			if tt := toTT(s, MaxPly); tt > 32767 || tt < -32768 {
				t.Fatalf("HoyitoEnd(%d, %d) stored at ply %d is %d, beyond int16", m, p, MaxPly, tt)
			}
			// A bigger margin beats a smaller one whatever the plies; a
			// faster win beats a slower one with the same margin.
			if m > 1 && !(s > HoyitoEnd(m-1, 0)) {
				t.Fatalf("HoyitoEnd(%d, %d) does not beat HoyitoEnd(%d, 0)", m, p, m-1)
			}
			if m > 0 && p > 0 && !(s < HoyitoEnd(m, p-1)) {
				t.Fatalf("a win by %d at ply %d does not score below one at ply %d", m, p, p-1)
			}
			// Any proven win beats any evaluation.
			if m > 0 && !(s > DecisiveMin-1) {
				t.Fatalf("HoyitoEnd(%d, %d) does not beat the largest evaluation", m, p)
			}
		}
	}
}

// A decisive score found at ply p and stored in the table is loaded at ply
// q as the same game end seen from q: the distance from the node to the end
// is kept. Ordinary scores pass through unchanged.
func TestTTScoreRoundTrip(t *testing.T) {
	type end struct {
		name string
		at   func(ply int) Score // the score of the end when the root is ply plies above it
		dist int                 // plies from the storing node to the end
	}
	var ends []end
	for _, d := range []int{0, 1, 2, 5, 17, 40} {
		ends = append(ends,
			end{"katro win", func(ply int) Score { return KatroWin(ply + d) }, d},
			end{"katro loss", func(ply int) Score { return -KatroWin(ply + d) }, d},
			end{"hoyito win by 3", func(ply int) Score { return HoyitoEnd(3, ply+d) }, d},
			end{"hoyito loss by 10", func(ply int) Score { return HoyitoEnd(-10, ply+d) }, d},
		)
	}
	for _, e := range ends {
		for p := 0; p+e.dist <= MaxPly; p += 3 {
			s := e.at(p) // as scored by a node at ply p
			stored := toTT(s, p)
			if got := fromTT(stored, p); got != s {
				t.Errorf("%s in %d: fromTT(toTT(%d, %d), %d) = %d", e.name, e.dist, s, p, p, got)
			}
			for q := 0; q+e.dist <= MaxPly; q += 5 {
				if got, want := fromTT(stored, q), e.at(q); got != want {
					t.Errorf("%s in %d: stored at ply %d, loaded at ply %d: %d, want %d", e.name, e.dist, p, q, got, want)
				}
			}
		}
	}
	for _, s := range []Score{0, 1, -1, 99, -1234, DecisiveMin - 1, -(DecisiveMin - 1)} {
		for p := 0; p <= MaxPly; p += 7 {
			if toTT(s, p) != s || fromTT(s, p) != s {
				t.Errorf("ordinary score %d changed at ply %d: %d, %d", s, p, toTT(s, p), fromTT(s, p))
			}
		}
	}
}

// TestScoreText checks the notation for people against scores built by
// hand: seeds with two decimals and a sign, Katro mates in moves as #n.
func TestScoreText(t *testing.T) {
	for _, c := range []struct {
		s    Score
		f    board.Family
		want string
	}{
		{231, board.Katro, "+2.31"}, {-5, board.Katro, "-0.05"}, {0, board.Katro, "+0.00"},
		{KatroWin(1), board.Katro, "#1"}, {KatroWin(17), board.Katro, "#9"}, {-KatroWin(2), board.Katro, "#-1"}, {-KatroWin(16), board.Katro, "#-8"},
		{HoyitoEnd(8, 5), board.Hoyito, "+8.00"}, {-HoyitoEnd(36, 5), board.Hoyito, "-36.00"}, {150, board.Hoyito, "+1.50"},
	} {
		if got := c.s.Text(c.f); got != c.want {
			t.Errorf("%d (%s): %q, want %q", c.s, c.f, got, c.want)
		}
	}
}
