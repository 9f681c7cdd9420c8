package dfpn

import (
	"testing"
)

// TestEvalNumbers checks the evaluation's first numbers against values
// worked out by hand: base·e^(∓v/scale), rounded, from 1 to evalCap.
func TestEvalNumbers(t *testing.T) {
	for _, tc := range []struct {
		v           int32
		scale, base float64
		pn, dn      uint32
	}{
		{0, 400, 1, 1, 1},
		{0, 400, 4, 4, 4},
		{440, 400, 1, 1, 3},        // e^1.1 = 3.004
		{-440, 400, 1, 3, 1},       // the same for the defender
		{-800, 400, 2, 15, 1},      // 2·e^2 = 14.78; 2·e^−2 = 0.27, at least 1
		{300, 100, 1, 1, 20},       // e^3 = 20.09
		{8000, 100, 1, 1, evalCap}, // e^80: capped
		{-8000, 100, 1, evalCap, 1},
	} {
		pn, dn := evalNumbers(tc.v, tc.scale, tc.base)
		if pn != tc.pn || dn != tc.dn {
			t.Errorf("evalNumbers(%d, %g, %g) = %d, %d; want %d, %d", tc.v, tc.scale, tc.base, pn, dn, tc.pn, tc.dn)
		}
	}
}

// TestParseInit checks that every estimate's and way of breaking ties'
// name reads back, and that an unknown name is refused.
func TestParseInit(t *testing.T) {
	for in := InitMobility; in <= InitLookaheadSum; in++ {
		got, err := ParseInit(in.String())
		if err != nil || got != in {
			t.Errorf("ParseInit(%q) = %v, %v; want %v", in.String(), got, err, in)
		}
	}
	if _, err := ParseInit("evaluation"); err == nil {
		t.Error(`ParseInit("evaluation"): no error`)
	}
	for tie := TiesEval; tie <= TiesFirst; tie++ {
		got, err := ParseTies(tie.String())
		if err != nil || got != tie {
			t.Errorf("ParseTies(%q) = %v, %v; want %v", tie.String(), got, err, tie)
		}
	}
	if _, err := ParseTies("last"); err == nil {
		t.Error(`ParseTies("last"): no error`)
	}
}

// TestAttackerEval checks that the evaluation is taken from the attacker's
// point of view: the side to move's score when it attacks, its negation
// when the other side does.
func TestAttackerEval(t *testing.T) {
	p := hardPosition(t)
	s, err := New(Config{HashMiB: 1, Init: InitEval})
	if err != nil {
		t.Fatal(err)
	}
	s.setVariant(p.Variant())
	score := int32(s.ev.Evaluate(&p))
	if score == 0 {
		t.Fatalf("%s: the evaluation is 0; the test needs a position it does not call even", hardish)
	}
	for _, tc := range []struct {
		attacker bool // the side to move attacks
		want     int32
	}{{true, score}, {false, -score}} {
		s.main.attacker = p.Side()
		if !tc.attacker {
			s.main.attacker = p.Side().Other()
		}
		if got := s.main.attackerEval(&p); got != tc.want {
			t.Errorf("side to move attacks %v: %d; want %d", tc.attacker, got, tc.want)
		}
	}
}

// TestNewRefuses checks that New refuses a negative evaluation scale, an
// unknown estimate and an unknown way of breaking ties.
func TestNewRefuses(t *testing.T) {
	for _, cfg := range []Config{{HashMiB: 1, EvalScale: -1}, {HashMiB: 1, Init: InitLookaheadSum + 1}, {HashMiB: 1, Ties: TiesFirst + 1}} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v): no error", cfg)
		}
	}
}
