package eval

import (
	"fmt"
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
//
// A model may also carry a table (WDLTable): the chances observed at
// scores a fixed step apart, which then replace the logistic's. A game
// whose final margins are far apart (Hoyito III's move by eight seeds)
// does not follow one logistic curve, and a table follows what was seen
// (docs/tuning.md).
type WDLModel struct {
	K     float64  // per hundredth of a seed
	Band  float64  // hundredths of a seed, 0 or more
	Table WDLTable // if not Empty, the forecast; K and Band stay for the scale
}

// The knots of a WDLTable: WDLKnots scores from −WDLSpan to +WDLSpan,
// WDLStep apart (hundredths of a seed).
const (
	WDLStep  = 100
	WDLSpan  = 1600
	WDLKnots = 2*WDLSpan/WDLStep + 1
	// WDLUnit is the unit of a table's chances: 1/10000.
	WDLUnit = 10000
)

// WDLTable gives the chances of a win and of a loss at the knots, in
// units of 1/WDLUnit: Win[i] and Loss[i] at the score −WDLSpan +
// i·WDLStep, Win[i] + Loss[i] at most WDLUnit (the rest is the draw).
// Between two knots the chances are interpolated linearly; beyond the
// last knot on either side they are the last knot's. A score of exactly
// 0 has chances of its own, Win0 and Loss0: the search scores 0 the draws
// it finds (by repetition or the no-capture limit) before they are
// proven, so that positions scored 0 are drawn far more often than those
// scored a little either side. The zero table is empty: no table.
type WDLTable struct {
	Win, Loss   [WDLKnots]uint16
	Win0, Loss0 uint16
}

// Empty reports whether t is the zero table (none).
func (t *WDLTable) Empty() bool { return *t == WDLTable{} }

// Check reports whether t is a table a model may hold: every knot's
// chances within 0 and WDLUnit together.
func (t *WDLTable) Check() error {
	for i := range t.Win {
		if int(t.Win[i])+int(t.Loss[i]) > WDLUnit {
			return fmt.Errorf("win/draw/loss table: at %+d the chances of a win (%d) and a loss (%d) add up to more than %d", KnotScore(i), t.Win[i], t.Loss[i], WDLUnit)
		}
	}
	if int(t.Win0)+int(t.Loss0) > WDLUnit {
		return fmt.Errorf("win/draw/loss table: at exactly 0 the chances of a win (%d) and a loss (%d) add up to more than %d", t.Win0, t.Loss0, WDLUnit)
	}
	return nil
}

// KnotScore returns the score of knot i of a WDLTable.
func KnotScore(i int) int { return -WDLSpan + i*WDLStep }

// KnotOf locates score among a WDLTable's knots: the knot i below it
// (a score beyond the span counts at the last knot on its side) and the
// fraction f of the way to knot i+1, the weights 1−f and f of the table's
// interpolation.
func KnotOf(score float64) (i int, f float64) {
	x := (min(max(score, -WDLSpan), WDLSpan) + WDLSpan) / WDLStep
	i = min(int(x), WDLKnots-2)
	return i, x - float64(i)
}

// chances interpolates t at score.
func (t *WDLTable) chances(score float64) (win, loss float64) {
	if score == 0 {
		return float64(t.Win0) / WDLUnit, float64(t.Loss0) / WDLUnit
	}
	i, f := KnotOf(score)
	win = (float64(t.Win[i])*(1-f) + float64(t.Win[i+1])*f) / WDLUnit
	loss = (float64(t.Loss[i])*(1-f) + float64(t.Loss[i+1])*f) / WDLUnit
	return win, loss
}

// BuiltinWDL returns the win/draw/loss model of family f, fitted to the
// results of self-play games between Sower's default build (the learned
// evaluation with the built-in weights) on the search scores of quiet
// positions:
//
//	sower datagen --game katro --games 2000 --nodes 5000 --seed 2 --out katro-fit.dat
//	sower datagen --game hoyito3 --games 1500 --nodes 5000 --seed 2 --out hoyito3-fit.dat
//	sower tune --fit-wdl --data katro-fit.dat
//	sower tune --fit-wdl --wdl-table --data hoyito3-fit.dat
//
// Katro games are drawn only by the no-capture limit or repetition, and
// none of the games fitted on was, so its band is 0 and it forecasts no
// draw. Hoyito III's forecasts come from its table (WDLTable): its games
// end by margins eight seeds apart, and the results seen at the scores
// between follow no logistic curve (docs/tuning.md). The smaller Katro
// boards, which play with the hand-made weights, use Katro's model: it is
// measured on the 6x6 board only (the calibration is in docs/tuning.md). A network evaluation's scores have their own
// scale, so a network file carries its own model (nnue.Net.WDL), and this
// one serves a network only when its file has none.
func BuiltinWDL(f board.Family) WDLModel {
	if f == board.Hoyito {
		return WDLModel{K: hoyitoWDLK, Band: hoyitoWDLBand, Table: hoyitoWDLTable()}
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

// hoyitoWDLTable returns Hoyito III's table, fitted on the same games.
func hoyitoWDLTable() WDLTable {
	return WDLTable{
		Win:  [WDLKnots]uint16{0, 0, 0, 0, 4, 35, 24, 144, 121, 626, 1474, 1390, 2214, 1824, 2207, 2272, 4580, 6400, 5355, 5223, 4440, 4200, 3291, 4220, 5661, 8339, 8966, 9601, 9817, 9898, 9990, 9988, 10000},
		Loss: [WDLKnots]uint16{10000, 9981, 10000, 9914, 9782, 9600, 9151, 8597, 5931, 4209, 3279, 4261, 4732, 4953, 4867, 6440, 5031, 2149, 2085, 1652, 2432, 1447, 1721, 633, 109, 152, 75, 156, 0, 14, 7, 0, 0},
		Win0: 447, Loss0: 434,
	}
}

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// Chances returns the chances of a win, a draw and a loss at score: the
// table's if the model has one, else the logistic's.
func (m WDLModel) Chances(score float64) (win, draw, loss float64) {
	if !m.Table.Empty() {
		win, loss = m.Table.chances(score)
		return win, max(0, 1-win-loss), loss
	}
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
