package dfpn

import "github.com/sower-engine/sower/board"

// attackerEval returns p's evaluation from the attacker's point of view, in
// hundredths of a seed.
func (w *worker) attackerEval(p *board.Position) int32 {
	v := int32(w.ev.Evaluate(p))
	if p.Side() != w.attacker {
		v = -v
	}
	return v
}

// prefer reports whether child a goes before child b of equal numbers:
// where the attacker moves (attack), the one with the higher evaluation
// for the attacker; where the defender moves, the lower. The children's
// evaluations are computed here when they are first needed.
func (w *worker) prefer(a, b *child, attack bool) bool {
	w.evaluate(a)
	w.evaluate(b)
	if attack {
		return a.est > b.est
	}
	return a.est < b.est
}

// evaluate sets child c's evaluation unless it has it.
func (w *worker) evaluate(c *child) {
	if !c.hasEst {
		c.est, c.hasEst = w.attackerEval(&c.pos), true
		w.cache.putEval(c.key, c.est)
	}
}
