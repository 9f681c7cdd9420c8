package nnue

import "github.com/sower-engine/sower/board"

// HoleEffect is one non-empty hole's share of a network's score.
type HoleEffect struct {
	Hole  board.Move // the hole
	Seeds int        // the seeds it holds
	// Effect is the score less the score with the hole's seeds taken
	// away (its inputs removed, nothing else changed), in hundredths of a
	// seed for the side to move.
	Effect int
}

// Explain returns the score of p for its side to move, as Evaluate gives
// it, and the effect of every non-empty hole on it, in the order of the
// circuits (as Stockfish's eval shows the effect of each piece). The
// effects need not add up to the score: the network is not linear.
func (m *Model) Explain(p *board.Position) (score int, holes []HoleEffect) {
	var a Accumulator
	m.Refresh(&a, p)
	score = m.Evaluate(&a, p.Side())
	full := a.snap
	for r := 0; r < m.regions; r++ {
		c, _ := p.Circuit(board.Side(r))
		for k := 0; k < m.lanes; k++ {
			if full.bucket[r][k] == 0 {
				continue
			}
			a.snap = full
			a.snap.bucket[r][k] = 0
			m.refresh(&a)
			holes = append(holes, HoleEffect{
				Hole:   m.v.CircuitHole(board.Side(r), k),
				Seeds:  int(c[k]),
				Effect: score - m.Evaluate(&a, p.Side()),
			})
		}
	}
	return score, holes
}
