package search

import "github.com/sower-engine/sower/eval"

// WDL returns the report's win/draw/loss forecast for the side to move.
// A proven result is certain: a decisive score reported exact or as a
// bound on its own side (a win by at least, a loss by at least) is a
// certain win or loss, and a proven score of 0 (Info.Proven) a certain
// draw. Any other score, a bound of a failed aspiration window included,
// gets m's forecast at that score, as its "cp" shows it; a decisive score
// bounded from its other side (a win at most) is taken as the largest
// score short of decisive.
func (i *Info) WDL(m eval.WDLModel) eval.WDL {
	s := i.Score
	switch {
	case s.Decisive() && s > 0 && (i.Proven || i.Bound != BoundUpper):
		return eval.CertainWin
	case s.Decisive() && s < 0 && (i.Proven || i.Bound != BoundLower):
		return eval.CertainLoss
	case i.Proven && s == 0:
		return eval.CertainDraw
	case i.Proven && s > 0:
		return eval.CertainWin
	case i.Proven && s < 0:
		return eval.CertainLoss
	}
	return m.PerMille(int(max(-(DecisiveMin - 1), min(s, DecisiveMin-1))))
}
