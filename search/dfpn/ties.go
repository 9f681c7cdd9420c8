package dfpn

import "github.com/sower-engine/sower/board"

// attackerSeeds returns the attacker's seeds on p minus the defender's.
// In Katro seeds change sides only by captures, so among a node's
// children this is the size of each move's capture (none for most
// moves).
func (w *worker) attackerSeeds(p *board.Position) int {
	return p.SeedsOf(w.attacker) - p.SeedsOf(w.attacker.Other())
}

// prefer reports whether child a goes before child b of equal numbers:
// where the attacker moves (attack), the one that leaves the attacker more
// seeds than the defender; where the defender moves, fewer. Of children
// of equal seeds the first in move order goes first. (Ties by the static
// evaluation, before 2026-12-06, took about as many nodes and more time:
// docs/dfpn.md, "Ties".)
func (w *worker) prefer(a, b *child, attack bool) bool {
	sa, sb := w.attackerSeeds(&a.pos), w.attackerSeeds(&b.pos)
	if attack {
		return sa > sb
	}
	return sa < sb
}
