package dfpn

import (
	"math"

	"github.com/sower-engine/sower/board"
)

// evalCap bounds a first number from the evaluation, so that no position
// looks settled before it is searched.
const evalCap = 1 << 20

// defaultEvalBase is the first numbers of a position the evaluation calls
// even (see evalNumbers).
const defaultEvalBase = 1

// attackerEval returns p's evaluation from the attacker's point of view, in
// hundredths of a seed.
func (w *worker) attackerEval(p *board.Position) int32 {
	v := int32(w.ev.Evaluate(p))
	if p.Side() != w.attacker {
		v = -v
	}
	return v
}

// evalNumbers maps the evaluation v from the attacker's point of view to
// first numbers: base·exp(−v/scale) to prove and base·exp(v/scale) to
// disprove, rounded, each from 1 to evalCap.
func evalNumbers(v int32, scale, base float64) (pn, dn uint32) {
	x := float64(v) / scale
	return expNumber(base * math.Exp(-x)), expNumber(base * math.Exp(x))
}

// expNumber rounds x to a first number from 1 to evalCap.
func expNumber(x float64) uint32 {
	if !(x < evalCap) { // also NaN
		return evalCap
	}
	return uint32(max(1, math.Round(x)))
}

// evalInitial is the first estimate of p from its evaluation v (from the
// attacker's point of view), times p's moves with mobility as in
// InitMobility.
func (w *worker) evalInitial(p *board.Position, v int32, mobility bool) result {
	pn, dn := evalNumbers(v, w.scale, w.evalBase)
	if mobility {
		return w.timesMoves(p, pn, dn)
	}
	return result{pn: pn, dn: dn}
}

// prefer reports whether child a goes before child b of equal numbers
// (TiesEval): where the attacker moves (attack), the one with the higher
// evaluation for the attacker; where the defender moves, the lower. The
// children's evaluations are computed here when they are first needed.
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
