package dfpn

import "github.com/sower-engine/sower/board"

// bounded is the tests' independent solver: plain recursion with
// memoisation that decides whether a side wins within d plies, the rules'
// way (a player with no legal move loses; a position at the no-capture
// limit is drawn unless its side to move has no legal move), over the legal
// moves that board lists. It does not look at repetition: a win within d
// plies never needs a position repeated three times, and proofs are checked
// for cycles elsewhere.
type bounded struct {
	limit int
	memo  map[boundedKey]bool
}

type boundedKey struct {
	pos      uint64 // the board's key: board and side, no clock
	clock, d int
	attacker board.Side
}

func newBounded(v *board.Variant) *bounded {
	return &bounded{limit: v.Rules().NoCaptureLimit, memo: map[boundedKey]bool{}}
}

// winsWithin reports whether attacker wins from p within d plies.
func (b *bounded) winsWithin(p board.Position, attacker board.Side, d int) bool {
	legal := p.LegalMoves()
	if len(legal) == 0 {
		return p.Side() != attacker
	}
	if d == 0 || (b.limit > 0 && p.Clock() >= b.limit) {
		return false
	}
	clock := -1 // the clock matters only when the limit is within reach
	if b.limit > 0 && p.Clock()+d >= b.limit {
		clock = p.Clock()
	}
	k := boundedKey{pos: p.Key(), clock: clock, d: d, attacker: attacker}
	if w, ok := b.memo[k]; ok {
		return w
	}
	attack := p.Side() == attacker
	w := !attack
	for _, m := range legal {
		c := p
		c.Play(m)
		if b.winsWithin(c, attacker, d-1) == attack {
			w = attack
			break
		}
	}
	b.memo[k] = w
	return w
}

// shortest returns the fewest plies in which attacker wins from p, or -1
// beyond max.
func (b *bounded) shortest(p board.Position, attacker board.Side, max int) int {
	for d := 0; d <= max; d++ {
		if b.winsWithin(p, attacker, d) {
			return d
		}
	}
	return -1
}
