package dfpn

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
)

// proofOf solves p and writes the certificate of its winner's win.
func proofOf(t *testing.T, s *Solver, p board.Position) (Result, []byte) {
	t.Helper()
	res, err := s.Solve(context.Background(), p, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Win && res.Outcome != Loss {
		return res, nil
	}
	var buf bytes.Buffer
	oracle := func(q *board.Position) (board.Move, bool) {
		m, _, ok := s.WinningMove(context.Background(), q)
		return m, ok
	}
	if _, err := cert.Write(context.Background(), &buf, p, res.Winner, oracle, cert.Options{}); err != nil {
		t.Fatalf("%s: writing the certificate: %v", p.String(), err)
	}
	return res, buf.Bytes()
}

// TestCertificatesVerify writes the certificates of df-pn's proofs (the
// starts of katro-4x4 and katro-6x3, and random late positions of every
// small board) and checks them with the rules alone: every proof holds,
// its longest line is within the plies df-pn states, and a copy with a
// move changed or a line removed is refused, naming a position.
func TestCertificatesVerify(t *testing.T) {
	count := 60
	switch {
	case raceEnabled:
		count = 4
	case testing.Short():
		count = 15
	}
	for _, tc := range configsUnderTest() {
		t.Run(tc.name, func(t *testing.T) {
			n := count
			if tc.cfg != (Config{Threads: 1}) {
				n = max(count/3, 4)
			}
			certificatesVerify(t, tc.cfg, n)
		})
	}
}

// certificatesVerify is TestCertificatesVerify with a solver of
// configuration cfg on count roots of each board.
func certificatesVerify(t *testing.T, cfg Config, count int) {
	cfg.HashMiB, cfg.MaxNodes = 16, 200_000
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"katro-4x4", "katro-6x3", "katro-4x6"} {
		v, err := board.New(name)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(11, uint64(len(name))))
		roots := []board.Position{}
		if name != "katro-4x6" {
			roots = append(roots, v.Start())
		}
		for len(roots) < count {
			if p, ok := lateSample(v, rng, 20); ok {
				roots = append(roots, p)
			}
		}
		proven := 0
		for i, p := range roots {
			res, file := proofOf(t, s, p)
			if file == nil {
				continue
			}
			proven++
			st, err := cert.Verify(context.Background(), bytes.NewReader(file), p, cert.Options{})
			if err != nil {
				t.Fatalf("%s %s: the certificate of df-pn's proof is refused: %v", name, p.String(), err)
			}
			if st.Winner != res.Winner || st.Longest > res.Plies {
				t.Errorf("%s %s: certificate proves %s in %d plies; df-pn said %s in at most %d", name, p.String(), st.Winner, st.Longest, res.Winner, res.Plies)
			}
			if i%5 == 0 {
				checkDamaged(t, p, file)
			}
		}
		if proven < len(roots)*3/4 {
			t.Errorf("%s: only %d of %d roots proven", name, proven, len(roots))
		}
	}
}

// checkDamaged checks that a certificate with its first position's line
// removed is refused, naming the position, and that one with that
// position's move replaced by another is refused unless the other move
// wins too.
func checkDamaged(t *testing.T, root board.Position, file []byte) {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(string(file), "\n") {
		if !strings.HasPrefix(l, "# positions") { // the count would give the removal away first
			lines = append(lines, l)
		}
	}
	first := -1
	for i, l := range lines {
		if l != "" && l[0] != '#' {
			first = i
			break
		}
	}
	if first < 0 {
		return
	}
	removed := strings.Join(append(append([]string{}, lines[:first]...), lines[first+1:]...), "\n")
	if _, err := cert.Verify(context.Background(), strings.NewReader(removed), root, cert.Options{}); err == nil || !strings.Contains(err.Error(), "not in the certificate") {
		t.Errorf("%s: a certificate without its root's line: %v", root.String(), err)
	}
	fields := strings.Split(lines[first], "\t")
	v := root.Variant()
	p, err := v.ParsePosition(fields[0] + " 0")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range p.LegalMoves() {
		if m.String() == fields[1] {
			continue
		}
		changed := append([]string{}, lines...)
		changed[first] = fields[0] + "\t" + m.String()
		_, err := cert.Verify(context.Background(), strings.NewReader(strings.Join(changed, "\n")), root, cert.Options{})
		if err == nil {
			continue // another winning move: the proof may still hold
		}
		if !strings.Contains(err.Error(), ",") {
			t.Errorf("%s: the refusal names no position: %v", root.String(), err)
		}
	}
}
