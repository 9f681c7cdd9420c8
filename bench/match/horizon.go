package match

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sower-engine/sower/bench/record"
)

// proofHorizons returns, for each engine of rec's game (engine1 first),
// how many plies before the end it first reported a proven result: the
// plies from the position where it reported a mate score (`score mate N`,
// from its search or its prover) to the end of the game, that move
// included; -1 when it reported none.
func proofHorizons(rec *record.GameRecord) [2]int {
	h := [2]int{-1, -1}
	n := len(rec.Moves)
	for i, m := range rec.Moves {
		if m.Mate == nil {
			continue
		}
		e := 0
		if (m.Side == "S") != (rec.Engine1 == "south") {
			e = 1
		}
		if h[e] < 0 {
			h[e] = n - i
		}
	}
	return h
}

// horizonText is the report's proof horizon line, or "" when no engine
// reported a proven result: for each engine the median and quartiles of
// its proof horizons (proofHorizons) over the games where it reported
// one, and in how many of the games played.
func (s *Summary) horizonText() string {
	games := s.Score.Games()
	var parts []string
	for i, h := range s.Horizons {
		if len(h) == 0 {
			continue
		}
		x := make([]float64, len(h))
		for j, v := range h {
			x[j] = float64(v)
		}
		slices.Sort(x)
		q := func(p float64) string { return formatFloat(quantile(x, p), 1) }
		parts = append(parts, fmt.Sprintf("%s median %s, quartiles %s and %s, in %d of %d games",
			s.Names[i], q(0.5), q(0.25), q(0.75), len(h), games))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Proof horizon (plies before the end at the first mate score): " + strings.Join(parts, "; ")
}

// quantile returns the p-quantile of sorted x (not empty) by linear
// interpolation between the closest ranks, the usual definition (R's
// type 7, NumPy's default): the median of 12, 16, 18, 20 is 17, its
// quartiles 15 and 18.5.
func quantile(x []float64, p float64) float64 {
	h := p * float64(len(x)-1)
	lo := int(h)
	if lo+1 >= len(x) {
		return x[len(x)-1]
	}
	return x[lo] + (h-float64(lo))*(x[lo+1]-x[lo])
}
