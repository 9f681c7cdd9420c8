package search

import (
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
	"github.com/sower-engine/sower/eval/nnue"
)

// NetWDLModel returns the win/draw/loss model of a search of board v with
// network n (nil: the linear evaluation; Engine.Net gives the engine's):
// n's model (nnue.Net.WDL) if n evaluates v and records one, else v's
// family's eval.BuiltinWDL, fitted to the linear evaluation's search
// scores.
func NetWDLModel(n *nnue.Net, v *board.Variant) eval.WDLModel {
	if n != nil && !n.Evaluates(v) {
		n = nil
	}
	return wdlModel(n, v.Family())
}

// Model returns the report's win/draw/loss model: WDLModel, or the
// family's eval.BuiltinWDL when WDLModel is zero.
func (i *Info) Model() eval.WDLModel {
	if i.WDLModel.K > 0 {
		return i.WDLModel
	}
	return eval.BuiltinWDL(i.Family)
}

// wdlModel returns network n's model if it has one (n nil: the linear
// evaluation), else family f's built-in one.
func wdlModel(n *nnue.Net, f board.Family) eval.WDLModel {
	if n != nil && n.WDL.K > 0 {
		return n.WDL
	}
	return eval.BuiltinWDL(f)
}

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
