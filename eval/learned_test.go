package eval

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// randomPositions returns the positions of n random games of v.
func randomPositions(v *board.Variant, n int, seed uint64) []board.Position {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []board.Position
	for range n {
		g := board.NewGame(v.Start())
		for !g.Status().Over() {
			out = append(out, g.Position())
			p := g.Position()
			legal := p.LegalMoves()
			if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
				panic(err)
			}
		}
	}
	return out
}

// randomParams returns weights drawn at random for v's features.
func randomParams(v *board.Variant, seed uint64) *Params {
	rng := rand.New(rand.NewPCG(seed, 9))
	p := &Params{Family: v.Family()}
	for i := 0; i < NumFeatures(v); i++ {
		p.MG[i], p.EG[i] = int32(rng.IntN(401)-200), int32(rng.IntN(401)-200)
	}
	return p
}

// mirror returns p turned through 180 degrees with the sides swapped: the
// same position seen by the other player.
func mirror(t *testing.T, p *board.Position) board.Position {
	v := p.Variant()
	var rows []string
	for r := v.Rows() - 1; r >= 0; r-- {
		var cs []string
		for c := 0; c < v.Cols(); c++ {
			cs = append(cs, fmt.Sprint(p.Count(board.HoleMove(v.Rows()-1-r, v.Cols()-1-c))))
		}
		rows = append(rows, strings.Join(cs, ","))
	}
	side := "S"
	if p.Side() == board.South {
		side = "N"
	}
	s := strings.Join(rows, "/") + " " + side
	if v.Family() == board.Hoyito {
		s += fmt.Sprintf(" %d %d", p.Captured(board.North), p.Captured(board.South))
	}
	m, err := v.ParsePosition(fmt.Sprintf("%s %d", s, p.Clock()))
	if err != nil {
		t.Fatalf("mirror of %s: %v", p.String(), err)
	}
	return m
}

// withSide returns p with the other side to move, if that is a valid
// position.
func withSide(p *board.Position) (board.Position, bool) {
	f := strings.Fields(p.String())
	if f[1] == "S" {
		f[1] = "N"
	} else {
		f[1] = "S"
	}
	q, err := p.Variant().ParsePosition(strings.Join(f, " "))
	return q, err == nil
}

// TestLearnedHandParams checks that the learned evaluation with the
// hand-made weights scores exactly as the hand-made evaluation.
func TestLearnedHandParams(t *testing.T) {
	for _, name := range board.Names() {
		v, _ := board.New(name)
		hand := NewWithWeights(v, DefaultWeights(v.Family()))
		hp := HandParams(v.Family())
		learned := NewLearned(v, &hp)
		for _, p := range randomPositions(v, 20, 1) {
			if a, b := hand.Evaluate(&p), learned.Evaluate(&p); a != b {
				t.Fatalf("%s %s: hand %d, learned with hand weights %d", name, p.String(), a, b)
			}
		}
	}
}

// TestLearnedSymmetry checks, with random weights, that a position and
// its mirror (turned round, sides swapped) score the same for the side to
// move, so from South's point of view they score as negatives; and that,
// without the tempo term, giving the move to the other side negates the
// score.
func TestLearnedSymmetry(t *testing.T) {
	for _, name := range board.Names() {
		v, _ := board.New(name)
		w := randomParams(v, 2)
		e := NewLearned(v, w)
		w.MG[e.tempo()], w.EG[e.tempo()] = 0, 0
		noTempo := NewLearned(v, w)
		flipped := 0
		for _, p := range randomPositions(v, 10, 2) {
			m := mirror(t, &p)
			if a, b := e.Evaluate(&p), e.Evaluate(&m); a != b {
				t.Fatalf("%s %s scores %d, its mirror %s %d", name, p.String(), a, m.String(), b)
			}
			if q, ok := withSide(&p); ok {
				flipped++
				if a, b := noTempo.Evaluate(&p), noTempo.Evaluate(&q); a != -b {
					t.Fatalf("%s %s scores %d, with the other side to move %d", name, p.String(), a, b)
				}
			}
		}
		if flipped == 0 {
			t.Fatalf("%s: no position could change sides", name)
		}
	}
}

// slowActive computes the learned features of p densely, hole by hole
// from the board's rows and the circuits, independently of the scan.
func slowActive(p *board.Position) (x []int, phase int) {
	v := p.Variant()
	x = make([]int, NumFeatures(v))
	me := p.Side()
	nb := Buckets(v.Family())
	bucketOf := func(c int) int {
		var th []int
		if v.Family() == board.Hoyito {
			th = []int{1, 2, 3, 4, 5, 6, 8, 12}
		} else {
			th = []int{1, 2, 3, 4, 5, 7, 10}
		}
		b := 0
		for _, t := range th {
			if c >= t {
				b++
			}
		}
		return b
	}
	sign := func(s board.Side) int {
		if s == me {
			return 1
		}
		return -1
	}
	n := v.CircuitLen()
	if v.Family() == board.Katro {
		f := slowKatro(p)
		for s := board.South; s <= board.North; s++ {
			for k := 0; k < n; k++ {
				if c := p.Count(v.CircuitHole(s, k)); c > 0 {
					x[NumScalar+k*nb+bucketOf(c)-1] += sign(s)
				}
			}
			for t := KatroSeeds; t < numKatro; t++ {
				x[t] += sign(s) * f[s][t]
			}
			x[LKThreats] += sign(s) * slowKatroThreats(p, s)
		}
		x[LKTempo] = 1
		weak := min(p.SeedsOf(board.South), p.SeedsOf(board.North))
		return x, min(PhaseMax, weak*PhaseMax/(v.Total()/2))
	}
	f := slowHoyito(p)
	for s := board.South; s <= board.North; s++ {
		for j := 0; j < n; j++ {
			h := v.CircuitHole(s, (j+int(s)*n/2)%n)
			if c := p.Count(h); c > 0 {
				x[NumScalar+j*nb+bucketOf(c)-1] += sign(s)
			}
		}
		for t := HoyitoCaptured; t < numHoyito; t++ {
			x[t] += sign(s) * f[s][t]
		}
	}
	x[LHThreesAcross] = slowAcross(p, me) - slowAcross(p, me.Other())
	x[LHTempo] = 1
	return x, p.OnBoard() * PhaseMax / v.Total()
}

// slowKatroThreats finds s's threats by reading rows: for each hole of the
// back row holding fewer seeds than the circuit, the hole its first lap
// ends on, by walking the circuit.
func slowKatroThreats(p *board.Position, s board.Side) int {
	v := p.Variant()
	n := v.CircuitLen()
	fr, bd, ofr := p.FrontDepth(s), p.BackDepth(s), p.FrontDepth(s.Other())
	if fr < 0 || ofr < 0 {
		return 0
	}
	t := 0
	for k := 0; k < n; k++ {
		h := v.CircuitHole(s, k)
		c := p.Count(h)
		if k/v.Cols() != bd || c == 0 || c >= n {
			continue
		}
		j := k
		for range c {
			j = (j + 1) % n
		}
		land := v.CircuitHole(s, j)
		if j/v.Cols() != fr || p.Count(land) == 0 {
			continue
		}
		// the opponent's front-row hole in the landing hole's column
		for q := 0; q < n; q++ {
			g := v.CircuitHole(s.Other(), q)
			if q/v.Cols() == ofr && g.Col() == land.Col() && p.Count(g) > 0 {
				t++
			}
		}
	}
	return t
}

// slowAcross counts s's Hoyito III threes in the opponent's row by sowing
// each move's first lap on a copy of the board.
func slowAcross(p *board.Position, s board.Side) int {
	v := p.Variant()
	n := v.CircuitLen()
	t := 0
	for i := 0; i < n; i++ {
		h := v.CircuitHole(s, i)
		c := p.Count(h)
		if v.Owner(h) != s || c == 0 {
			continue
		}
		counts := make([]int, n)
		for j := range counts {
			counts[j] = p.Count(v.CircuitHole(s, j))
		}
		counts[i] = 0
		j := i
		for ; c > 0; c-- {
			j = (j + 1) % n
			counts[j]++
		}
		if counts[j] == 4 && j != i && v.Owner(v.CircuitHole(s, j)) != s {
			t++
		}
	}
	return t
}

// TestLearnedFeaturesMatchSlow compares the scan with the slow dense
// computation, and the score with the dense dot product.
func TestLearnedFeaturesMatchSlow(t *testing.T) {
	for _, name := range board.Names() {
		v, _ := board.New(name)
		w := randomParams(v, 3)
		e := NewLearned(v, w)
		for _, p := range randomPositions(v, 20, 3) {
			var a, b Active
			e.Features(&p, &a)
			// Any evaluator lists the features, whatever its weights.
			NewWithWeights(v, DefaultWeights(v.Family())).Features(&p, &b)
			if a != b {
				t.Fatalf("%s %s: a hand-made evaluator lists other features", name, p.String())
			}
			got := make([]int, NumFeatures(v))
			for _, x := range a.Entries[:a.N] {
				got[x.Index] += int(x.Value)
			}
			want, phase := slowActive(&p)
			if fmt.Sprint(got) != fmt.Sprint(want) || a.Phase != phase {
				t.Fatalf("%s %s:\nfeatures %v phase %d\nwant     %v phase %d", name, p.String(), got, a.Phase, want, phase)
			}
			var mg, eg int64
			for i, x := range want {
				mg += int64(w.MG[i]) * int64(x)
				eg += int64(w.EG[i]) * int64(x)
			}
			score := int((mg*int64(phase) + eg*int64(PhaseMax-phase)) / PhaseMax)
			if s, s2 := e.Evaluate(&p), w.Score(&a); s != score || s2 != score {
				t.Fatalf("%s %s: score %d, from the features %d, dense %d", name, p.String(), s, s2, score)
			}
			sum := 0
			for _, tv := range e.Breakdown(&p) {
				sum += tv.Score
			}
			if sum != score {
				t.Fatalf("%s %s: breakdown adds up to %d, score %d", name, p.String(), sum, score)
			}
		}
	}
}

// TestLearnedAllocs checks that the learned evaluation allocates nothing.
func TestLearnedAllocs(t *testing.T) {
	for _, name := range []string{board.NameKatro, board.NameHoyito3} {
		v, _ := board.New(name)
		e := NewLearned(v, new(BuiltinParams(v)))
		p := randomPositions(v, 1, 4)[10]
		if n := testing.AllocsPerRun(100, func() { e.Evaluate(&p) }); n != 0 {
			t.Errorf("%s: %v allocations per evaluation", name, n)
		}
	}
}
