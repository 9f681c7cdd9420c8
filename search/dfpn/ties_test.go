package dfpn

import (
	"testing"
)

// TestAttackerEval checks that the evaluation is taken from the attacker's
// point of view: the side to move's score when it attacks, its negation
// when the other side does.
func TestAttackerEval(t *testing.T) {
	p := hardPosition(t)
	s, err := New(Config{HashMiB: 1})
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

// TestNewRefuses checks that New refuses a table under 1 MiB and a count
// of threads out of range.
func TestNewRefuses(t *testing.T) {
	for _, cfg := range []Config{{HashMiB: 0}, {HashMiB: 1, Threads: -1}, {HashMiB: 1, Threads: MaxThreads + 1}} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v): no error", cfg)
		}
	}
}
