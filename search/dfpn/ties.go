package dfpn

// prefer reports whether child a goes before child b of equal numbers:
// where the attacker moves (attack), the one that leaves the attacker more
// seeds than the defender; where the defender moves, fewer. Of children
// of equal seeds the first in move order goes first. (Ties by the static
// evaluation, before 2026-12-06, took about as many nodes and more time:
// docs/dfpn.md, "Ties".)
func (w *worker) prefer(a, b *child, attack bool) bool {
	// The attacker's seed balance (board.Position.Balance): in Katro seeds
	// change sides only by captures, so this is the size of each move's
	// capture.
	sa, sb := a.pos.Balance(w.attacker), b.pos.Balance(w.attacker)
	if attack {
		return sa > sb
	}
	return sa < sb
}
