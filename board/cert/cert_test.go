package cert_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
)

// proofCase is a position the slow solver proved, with its certificate.
type proofCase struct {
	root   board.Position // in a variant without the no-capture limit
	winner board.Side
	solver *slowSolver
	cert   []byte
	stats  cert.Stats
}

// games are the Katro boards the tests prove positions of.
var games = []string{board.NameKatro4x4, board.NameKatro6x3, board.NameKatro4x6}

// provedCases returns positions of game that the slow solver proves within
// its budget, reached by random play until one side holds at most a few
// seeds, both the position and the one before it, with their certificates
// written without a no-capture limit.
func provedCases(t *testing.T, game string, want int) []proofCase {
	t.Helper()
	v, err := board.NewWithRules(game, board.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, uint64(len(game))))
	var cases []proofCase
	for try := 0; len(cases) < want && try < 50*want; try++ {
		p, prev, ok := randomLate(v, rng, 2+try%4)
		if !ok {
			continue
		}
		for _, q := range []board.Position{p, prev} {
			s := newSlowSolver(5000)
			r, ok := s.solve(q)
			if !ok || r == draw {
				continue
			}
			c := proofCase{root: q, winner: q.Side(), solver: s}
			if r == loss {
				c.winner = q.Side().Other()
			}
			var b bytes.Buffer
			if c.stats, err = cert.Write(context.Background(), &b, q, c.winner, s.oracle, cert.Options{}); err != nil {
				t.Fatalf("%s: Write: %v", q.String(), err)
			}
			c.cert = b.Bytes()
			cases = append(cases, c)
		}
	}
	if len(cases) < want {
		t.Fatalf("%s: %d positions proved, want %d", game, len(cases), want)
	}
	return cases
}

// withLimit returns p in the same game with the no-capture limit lim.
func withLimit(t *testing.T, p board.Position, lim int) board.Position {
	t.Helper()
	v, err := p.Variant().WithRules(board.Rules{NoCaptureLimit: lim})
	if err != nil {
		t.Fatal(err)
	}
	q, err := v.ParsePosition(p.String())
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// verify checks a certificate from root.
func verify(root board.Position, c []byte) (cert.Stats, error) {
	return cert.Verify(context.Background(), bytes.NewReader(c), root, cert.Options{})
}

// TestWriteVerify proves positions of every Katro board with the slow
// solver, writes their certificates, and checks that Verify accepts them,
// that two writes are byte-identical, and that the statistics agree with
// the tests' own count of the proof.
func TestWriteVerify(t *testing.T) {
	for _, game := range games {
		cases := provedCases(t, game, 12)
		wins := [2]int{}
		for _, c := range cases {
			if c.winner == c.root.Side() {
				wins[0]++
			} else {
				wins[1]++
			}
			st, err := verify(c.root, c.cert)
			if err != nil {
				t.Errorf("%s: %v\n%s", c.root.String(), err, c.cert)
				continue
			}
			var again bytes.Buffer
			if _, err := cert.Write(context.Background(), &again, c.root, c.winner, c.solver.oracle, cert.Options{}); err != nil || !bytes.Equal(again.Bytes(), c.cert) {
				t.Errorf("%s: a second Write differs (%v)", c.root.String(), err)
			}
			want := slowCount(t, c)
			if st.Winner != c.winner || st.Listed != want.listed || st.WinnerReached != want.listed || st.Unused != 0 ||
				st.Longest != want.longest || st.CaptureFree != want.captureFree || st.LongestRun != want.longestRun || st.LoserReached != want.loser {
				t.Errorf("%s: stats %+v, want winner %s and %+v", c.root.String(), st, c.winner, want)
			}
			if st != c.stats && (st.Listed != c.stats.Listed || st.Longest != c.stats.Longest || st.CaptureFree != c.stats.CaptureFree) {
				t.Errorf("%s: Write's stats %+v, Verify's %+v", c.root.String(), c.stats, st)
			}
			// The default limit of 200 plies is far beyond these proofs.
			if _, err := verify(withLimit(t, c.root, board.DefaultNoCaptureLimit), c.cert); err != nil {
				t.Errorf("%s with the default limit: %v", c.root.String(), err)
			}
		}
		if wins[0] == 0 || wins[1] == 0 {
			t.Errorf("%s: %d wins for the side to move and %d for the other: want both", game, wins[0], wins[1])
		}
	}
}

// proofCount is what the tests count of a proof by themselves.
type proofCount struct {
	listed, loser, longest, captureFree, longestRun int
}

// slowCount walks c's proof with the solver's moves by plain recursion
// over notation strings: the winner's positions, the loser's, the longest
// line, and the longest capture-free runs after which the game goes on:
// from the root, and anywhere.
func slowCount(t *testing.T, c proofCase) proofCount {
	winners, losers := map[string]bool{}, map[string]bool{}
	type result struct{ longest, run int }
	memo := map[string]result{}
	longestRun := 0
	var walk func(p board.Position) result
	walk = func(p board.Position) result {
		k := noClock(&p)
		if r, ok := memo[k]; ok {
			return r
		}
		var moves []board.Move
		if p.Side() == c.winner {
			winners[k] = true
			m, ok := c.solver.oracle(&p)
			if !ok {
				t.Fatalf("no move for %s", k)
			}
			moves = []board.Move{m}
		} else {
			losers[k] = true
			moves = p.LegalMoves()
		}
		r := result{run: -1}
		if len(moves) > 0 {
			r.run = 0
		}
		for _, m := range moves {
			child, err := p.After(m)
			if err != nil {
				t.Fatal(err)
			}
			cr := walk(child)
			r.longest = max(r.longest, cr.longest+1)
			if child.Clock() > 0 {
				r.run = max(r.run, cr.run+1)
			} else {
				longestRun = max(longestRun, cr.run)
			}
		}
		memo[k] = r
		return r
	}
	r := walk(c.root)
	return proofCount{listed: len(winners), loser: len(losers), longest: r.longest, captureFree: r.run, longestRun: max(longestRun, r.run)}
}

// lines splits a certificate into its lines, without their newlines.
func lines(c []byte) []string { return strings.Split(strings.TrimSuffix(string(c), "\n"), "\n") }

// join joins lines into a certificate.
func join(ls []string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }

// positionLines returns the indexes of c's position lines.
func positionLines(ls []string) []int {
	var is []int
	for i, l := range ls {
		if !strings.HasPrefix(l, "#") {
			is = append(is, i)
		}
	}
	return is
}

// withoutHeader drops the header lines.
func withoutHeader(ls []string) []string {
	var out []string
	for _, i := range positionLines(ls) {
		out = append(out, ls[i])
	}
	return out
}

// bigCase returns a proved case of game whose proof has at least n lines
// of the winner.
func bigCase(t *testing.T, game string, n int) proofCase {
	for _, c := range provedCases(t, game, 30) {
		if c.stats.Listed >= n && c.stats.CaptureFree >= 2 {
			return c
		}
	}
	t.Fatalf("%s: no proof of %d lines", game, n)
	return proofCase{}
}

// isFormat reports whether err is a *cert.FormatError.
func isFormat(err error) bool {
	var fe *cert.FormatError
	return errors.As(err, &fe)
}

// TestVerifyAllocations checks that reading and checking allocate little
// beyond the index: a certificate with 20,000 more lines (listed, never
// reached) costs well under one allocation a line.
func TestVerifyAllocations(t *testing.T) {
	c := bigCase(t, board.NameKatro4x4, 2)
	seen := map[string]bool{}
	for _, l := range lines(c.cert) {
		pos, _, _ := strings.Cut(l, "\t")
		seen[pos] = true
	}
	more := append([]byte(nil), c.cert...)
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 20000; {
		p := c.root.Variant().Start()
		for ply := 0; ply < 200 && n < 20000; ply++ {
			ms := p.LegalMoves()
			if len(ms) == 0 {
				break
			}
			if k := noClock(&p); !seen[k] {
				seen[k] = true
				more = append(more, k+"\t"+ms[0].String()+"\n"...)
				n++
			}
			p, _ = p.After(ms[rng.IntN(len(ms))])
		}
	}
	more = bytes.ReplaceAll(more, []byte(fmt.Sprintf("# positions %d\n", c.stats.Listed)), nil)
	allocs := func(b []byte) float64 {
		return testing.AllocsPerRun(3, func() {
			if _, err := verify(c.root, b); err != nil {
				t.Fatal(err)
			}
		})
	}
	base, big := allocs(c.cert), allocs(more)
	if per := (big - base) / 20000; per > 0.2 {
		t.Errorf("%.0f allocations for %d lines, %.0f for 20,000 more: %.2f a line", base, c.stats.Listed, big, per)
	}
	t.Logf("%.0f allocations for %d lines, %.0f for 20,000 more", base, c.stats.Listed, big)
	// Progress is reported as the lines are read.
	var reports []cert.Progress
	opts := cert.Options{Progress: func(p cert.Progress) { reports = append(reports, p) }}
	if _, err := cert.Verify(context.Background(), bytes.NewReader(more), c.root, opts); err != nil {
		t.Fatal(err)
	}
	if len(reports) == 0 || reports[0].Phase != "reading" || reports[0].Lines == 0 {
		t.Errorf("progress reports %+v, want one while reading", reports)
	}
}
