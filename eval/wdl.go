package eval

import (
	"math"

	"github.com/sower-engine/sower/board"
)

// WDL is a forecast of a game's result for the side to move in per mille:
// the chances of a win, a draw and a loss, which add up to exactly 1000.
type WDL struct {
	Win, Draw, Loss int
}

// Certain forecasts: a proven win, draw or loss.
var (
	CertainWin  = WDL{Win: 1000}
	CertainDraw = WDL{Draw: 1000}
	CertainLoss = WDL{Loss: 1000}
)

// WDLModel maps a score, in hundredths of a seed for the side to move, to
// the chances of a win, a draw and a loss (an ordered logistic model):
//
//	win  = σ(K·(score − Band))
//	loss = σ(−K·(score + Band))
//	draw = 1 − win − loss = σ(K·(score + Band)) − σ(K·(score − Band))
//
// where σ(x) = 1/(1 + e^−x). K is the logistic scale of Texel tuning and
// Band half the width of the score range where draws are likely: a score
// of +Band is as likely a draw as a win. With Band 0 there are no draws and
// the expected score, win + draw/2, is Texel's σ(K·score). Both are fitted
// on game results by maximum likelihood (tune.Dataset.FitWDL).
type WDLModel struct {
	K    float64 // per hundredth of a seed
	Band float64 // hundredths of a seed, 0 or more
}

// BuiltinWDL returns the win/draw/loss model of family f, fitted to the
// results of self-play games between Sower's default build (the learned
// evaluation with the built-in weights) on the search scores of quiet
// positions:
//
//	sower datagen --game katro --games 2000 --nodes 5000 --seed 2 --out katro-fit.dat
//	sower datagen --game hoyito3 --games 1500 --nodes 5000 --seed 2 --out hoyito3-fit.dat
//	sower tune --fit-wdl --data katro-fit.dat
//	sower tune --fit-wdl --data hoyito3-fit.dat
//
// Katro games are drawn only by the no-capture limit or repetition, and
// none of the games fitted on was, so its band is 0 and it forecasts no
// draw. The smaller Katro boards, which play with the hand-made weights,
// use Katro's model: it is measured on the 6x6 board only (the calibration
// is in docs/tuning.md). A network evaluation's scores have their own
// scale, so a network file carries its own model (nnue.Net.WDL), and this
// one serves a network only when its file has none.
func BuiltinWDL(f board.Family) WDLModel {
	if f == board.Hoyito {
		return WDLModel{K: hoyitoWDLK, Band: hoyitoWDLBand}
	}
	return WDLModel{K: katroWDLK, Band: katroWDLBand}
}

// The fitted models (see BuiltinWDL).
const (
	katroWDLK     = 0.002080 // 20,621 positions of 2,000 games, no draw among them
	katroWDLBand  = 0
	hoyitoWDLK    = 0.002838 // 57,953 positions of 1,500 games
	hoyitoWDLBand = 359.5
)

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// Chances returns the chances of a win, a draw and a loss at score.
func (m WDLModel) Chances(score float64) (win, draw, loss float64) {
	win = logistic(m.K * (score - m.Band))
	loss = logistic(-m.K * (score + m.Band))
	draw = max(0, 1-win-loss)
	return win, draw, loss
}

// Expected returns the expected score at score: win + draw/2.
func (m WDLModel) Expected(score float64) float64 {
	w, d, _ := m.Chances(score)
	return w + d/2
}

// PerMille returns the forecast at score in per mille, rounded so that the
// three add up to exactly 1000 (each is its share rounded down, and the
// per mille left go to the largest remainders).
func (m WDLModel) PerMille(score int) WDL {
	w, d, l := m.Chances(float64(score))
	return perMille(w, d, l)
}

// perMille rounds three chances adding up to 1 to per mille that add up
// to 1000 (the largest remainder method).
func perMille(w, d, l float64) WDL {
	p := [3]float64{w, d, l}
	sum := w + d + l
	var n [3]int
	var rem [3]float64
	left := 1000
	for i := range p {
		x := 1000 * p[i] / sum
		n[i] = int(math.Floor(x))
		rem[i] = x - float64(n[i])
		left -= n[i]
	}
	for ; left > 0; left-- {
		best := 0
		for i := range rem {
			if rem[i] > rem[best] {
				best = i
			}
		}
		n[best]++
		rem[best] = -1
	}
	return WDL{Win: n[0], Draw: n[1], Loss: n[2]}
}
