package match

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// eloSlope is ln 10 / 400: the logistic model's expected score at an Elo
// difference d is 1 / (1 + e^(−eloSlope·d)).
const eloSlope = math.Ln10 / 400

// Result is what engine A scored against engine B, A's wins, losses and
// draws, for a rating fit.
type Result struct {
	A, B int
	WDL  WDL
}

// Ratings are Elo ratings fitted to a tournament's games (FitRatings).
type Ratings struct {
	// Elo and Margin are each engine's rating and the half-width of its
	// 95% interval; both are NaN for an engine not rated (see Rated), and
	// the margin is 0 for a named anchor.
	Elo, Margin []float64
	// Rated tells the engines rated: those joined to the anchor (or, with
	// the mean as anchor, to the first engine that played) by games.
	// Ratings of engines with no games between them cannot be compared.
	Rated []bool
	// Prior is set when the results have no finite maximum-likelihood
	// fit — some engines won, or lost, every game they played against the
	// others — and one virtual draw was added to the games of every two
	// engines that met, as BayesElo's prior does.
	Prior bool
}

// FitRatings fits Elo ratings to the results of n engines by maximum
// likelihood in the logistic (Bradley–Terry) model, as Ordo and BayesElo
// do: engine i is expected to score 1 / (1 + 10^((Rj − Ri)/400)) a game
// against engine j, a draw counting half a win and half a loss, and the
// ratings are those under which the games played are most likely; at
// them each engine's expected score over its games equals its score.
// anchor is the engine fixed at 0, or −1 to fix the mean of the rated
// engines at 0. Newton's method (gonum's optimize) finds the fit (the
// log-likelihood is concave); the margins are 1.96 standard errors from the inverse of its
// curvature (the Fisher information) under the anchor's constraint.
func FitRatings(n int, results []Result, anchor int) (Ratings, error) {
	if anchor < -1 || anchor >= n {
		return Ratings{}, errors.New("rating anchor out of range")
	}
	games := make([][]float64, n)  // games[i][j]: games between i and j
	points := make([][]float64, n) // points[i][j]: i's points against j
	for i := range n {
		games[i], points[i] = make([]float64, n), make([]float64, n)
	}
	for _, r := range results {
		if r.A < 0 || r.A >= n || r.B < 0 || r.B >= n || r.A == r.B {
			return Ratings{}, errors.New("a result between engines out of range")
		}
		g := float64(r.WDL.Games())
		pa := float64(r.WDL.Wins) + float64(r.WDL.Draws)/2
		games[r.A][r.B] += g
		games[r.B][r.A] += g
		points[r.A][r.B] += pa
		points[r.B][r.A] += g - pa
	}
	rt := Ratings{Elo: make([]float64, n), Margin: make([]float64, n), Rated: make([]bool, n)}
	for i := range n {
		rt.Elo[i], rt.Margin[i] = math.NaN(), math.NaN()
	}
	rated := component(games, anchor)
	if len(rated) < 2 {
		return rt, nil
	}
	if !stronglyConnected(points, rated) {
		rt.Prior = true
		for _, i := range rated {
			for _, j := range rated {
				if games[i][j] > 0 {
					games[i][j]++
					points[i][j] += 0.5
				}
			}
		}
	}
	fixed := 0 // the place in rated of the engine held at 0 while fitting
	for k, i := range rated {
		if i == anchor {
			fixed = k
		}
	}
	f := fit{games: games, points: points, engines: rated}
	elo := f.maximize(fixed)
	info := f.information(elo)
	cov := covariance(info, fixed, anchor < 0)
	mean := 0.0
	if anchor < 0 {
		for _, e := range elo {
			mean += e / float64(len(elo))
		}
	}
	for k, i := range rated {
		rt.Rated[i] = true
		rt.Elo[i] = elo[k] - mean
		rt.Margin[i] = z975 * math.Sqrt(max(cov[k][k], 0))
	}
	return rt, nil
}

// component returns the engines joined by games to from (or, when from
// is −1, to the first engine that played), from first.
func component(games [][]float64, from int) []int {
	n := len(games)
	if from < 0 {
		for i := range n {
			for j := range n {
				if games[i][j] > 0 && from < 0 {
					from = i
				}
			}
		}
		if from < 0 {
			return nil
		}
	}
	seen := make([]bool, n)
	seen[from] = true
	out := []int{from}
	for k := 0; k < len(out); k++ {
		for j := range n {
			if games[out[k]][j] > 0 && !seen[j] {
				seen[j] = true
				out = append(out, j)
			}
		}
	}
	return out
}

// stronglyConnected reports whether every engine of set can be reached
// from every other by steps from an engine to one it scored points
// against: the condition for a finite maximum-likelihood fit.
func stronglyConnected(points [][]float64, set []int) bool {
	reach := func(forward bool) int {
		seen := map[int]bool{set[0]: true}
		stack := []int{set[0]}
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, j := range set {
				p := points[i][j]
				if !forward {
					p = points[j][i]
				}
				if p > 0 && !seen[j] {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		return len(seen)
	}
	return reach(true) == len(set) && reach(false) == len(set)
}

// fit is the likelihood of the games between a set of engines.
type fit struct {
	games, points [][]float64
	engines       []int
}

// logSigmoid returns ln(1 / (1 + e^−x)) without overflow.
func logSigmoid(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

// logLikelihood returns the log-likelihood of the games at ratings elo
// (by place in f.engines).
func (f *fit) logLikelihood(elo []float64) float64 {
	l := 0.0
	for a, i := range f.engines {
		for b, j := range f.engines {
			if b > a && f.games[i][j] > 0 {
				x := eloSlope * (elo[a] - elo[b])
				l += f.points[i][j]*logSigmoid(x) + f.points[j][i]*logSigmoid(-x)
			}
		}
	}
	return l
}

// expected returns the expected score of one game at an Elo difference.
func expected(d float64) float64 { return 1 / (1 + math.Exp(-eloSlope*d)) }

// information returns the Fisher information of the ratings at elo: the
// negated second derivatives of the log-likelihood.
func (f *fit) information(elo []float64) *mat.SymDense {
	m := len(f.engines)
	h := mat.NewSymDense(m, nil)
	for a, i := range f.engines {
		for b, j := range f.engines {
			if b > a && f.games[i][j] > 0 {
				p := expected(elo[a] - elo[b])
				w := eloSlope * eloSlope * f.games[i][j] * p * (1 - p)
				h.SetSym(a, b, h.At(a, b)-w)
				h.SetSym(a, a, h.At(a, a)+w)
				h.SetSym(b, b, h.At(b, b)+w)
			}
		}
	}
	return h
}

// gradient returns the log-likelihood's derivatives at elo.
func (f *fit) gradient(elo []float64) []float64 {
	grad := make([]float64, len(f.engines))
	for a, i := range f.engines {
		for b, j := range f.engines {
			if a != b && f.games[i][j] > 0 {
				grad[a] += eloSlope * (f.points[i][j] - f.games[i][j]*expected(elo[a]-elo[b]))
			}
		}
	}
	return grad
}

// maximize returns the ratings of largest likelihood with engine fixed
// (a place in f.engines) at 0: gonum's Newton method on the other
// ratings, which the concave log-likelihood suits.
func (f *fit) maximize(fixed int) []float64 {
	m := len(f.engines)
	full := func(x []float64) []float64 { return insertZero(x, fixed) }
	p := optimize.Problem{
		Func: func(x []float64) float64 { return -f.logLikelihood(full(x)) },
		Grad: func(grad, x []float64) {
			for k, g := range dropAt(f.gradient(full(x)), fixed) {
				grad[k] = -g
			}
		},
		Hess: func(h *mat.SymDense, x []float64) {
			h.CopySym(withoutAt(f.information(full(x)), fixed))
		},
	}
	settings := &optimize.Settings{GradientThreshold: 1e-12, MajorIterations: 200}
	res, err := optimize.Minimize(p, make([]float64, m-1), settings, &optimize.Newton{})
	if err != nil && res == nil {
		return make([]float64, m)
	}
	return full(res.X)
}

// insertZero returns x with a 0 put in at place k.
func insertZero(x []float64, k int) []float64 {
	out := make([]float64, 0, len(x)+1)
	out = append(out, x[:k]...)
	out = append(out, 0)
	return append(out, x[k:]...)
}

// dropAt returns x without its element k.
func dropAt(x []float64, k int) []float64 {
	out := make([]float64, 0, len(x)-1)
	out = append(out, x[:k]...)
	return append(out, x[k+1:]...)
}

// withoutAt returns the symmetric matrix a without row and column k.
func withoutAt(a *mat.SymDense, k int) *mat.SymDense {
	n := a.SymmetricDim()
	out := mat.NewSymDense(n-1, nil)
	for i, r := 0, 0; i < n; i++ {
		if i == k {
			continue
		}
		for j, c := 0, 0; j < n; j++ {
			if j == k {
				continue
			}
			out.SetSym(r, c, a.At(i, j))
			c++
		}
		r++
	}
	return out
}

// covariance returns the covariance of the ratings from their Fisher
// information: held at 0, engine fixed has none, and the others' is the
// inverse of the information without it; with the mean held at 0
// (mean set) it is the information's pseudo-inverse, (I + J/m)⁻¹ − J/m
// for J the matrix of ones, since the information's null space is the
// common shift of all ratings. Entries are NaN when the information
// cannot be inverted.
func covariance(info *mat.SymDense, fixed int, mean bool) [][]float64 {
	m := info.SymmetricDim()
	out := make([][]float64, m)
	for a := range out {
		out[a] = make([]float64, m)
		for b := range out[a] {
			out[a][b] = math.NaN()
		}
	}
	if mean {
		shifted := mat.NewSymDense(m, nil)
		for a := range m {
			for b := a; b < m; b++ {
				shifted.SetSym(a, b, info.At(a, b)+1/float64(m))
			}
		}
		inv, ok := inverse(shifted)
		if ok {
			for a := range m {
				for b := range m {
					out[a][b] = inv.At(a, b) - 1/float64(m)
				}
			}
		}
		return out
	}
	inv, ok := inverse(withoutAt(info, fixed))
	if !ok {
		return out
	}
	for a, k := 0, 0; a < m; a++ {
		if a == fixed {
			for b := range out[a] {
				out[a][b], out[b][a] = 0, 0
			}
			continue
		}
		for b, l := 0, 0; b < m; b++ {
			if b != fixed {
				out[a][b] = inv.At(k, l)
				l++
			}
		}
		k++
	}
	return out
}

// inverse returns the inverse of a positive definite matrix by its
// Cholesky factorization, or false when it is not positive definite.
func inverse(a *mat.SymDense) (*mat.SymDense, bool) {
	var c mat.Cholesky
	if !c.Factorize(a) {
		return nil, false
	}
	var inv mat.SymDense
	if err := c.InverseTo(&inv); err != nil {
		return nil, false
	}
	return &inv, true
}
