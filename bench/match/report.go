package match

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/sower-engine/sower/bench/record"
)

// WriteReport writes the summary in cutechess-cli's layout, engine1 first:
//
//	Score of A vs B: 12 - 5 - 3  [0.675] 20
//	...      A playing South: 7 - 2 - 1  [0.750] 10
//	...      A playing North: 5 - 3 - 2  [0.600] 10
//	...      South vs North: 9 - 8 - 3  [0.525] 20
//	Elo difference: 127.0 +/- 166.3, LOS: 95.7 %, DrawRatio: 15.0 %
//	Ptnml(0-2): [0, 2, 3, 4, 1]
//	SPRT: llr 0.41 (13.9%), lbound -2.94, ubound 2.94
//
// The SPRT line appears with a test and ends in " - H0 was accepted" or
// " - H1 was accepted" once the test has decided; Ptnml counts the pairs
// by engine1's points (0, ½, 1, 1½, 2). A last line lists forfeits, if any.
func (s *Summary) WriteReport(w io.Writer) {
	a, b := s.Names[0], s.Names[1]
	fmt.Fprintf(w, "Score of %s vs %s: %s\n", a, b, scoreText(s.Score))
	fmt.Fprintf(w, "...      %s playing South: %s\n", a, scoreText(s.AsSouth))
	fmt.Fprintf(w, "...      %s playing North: %s\n", a, scoreText(s.AsNorth))
	fmt.Fprintf(w, "...      South vs North: %s\n", scoreText(s.Sides))
	fmt.Fprintf(w, "Elo difference: %s, LOS: %s %%, DrawRatio: %s %%\n",
		eloText(s.Score), formatFloat(100*s.Score.LOS(), 1), formatFloat(100*s.Score.DrawRatio(), 1))
	p := s.Pairs
	fmt.Fprintf(w, "Ptnml(0-2): [%d, %d, %d, %d, %d]\n", p[0], p[1], p[2], p[3], p[4])
	if s.SPRT != nil {
		lo, hi := s.SPRT.Bounds()
		line := fmt.Sprintf("SPRT: llr %s (%s%%), lbound %s, ubound %s",
			formatG3(s.LLR), formatFloat(100*s.LLR/hi, 1), formatG3(lo), formatG3(hi))
		switch s.Decision {
		case AcceptH0:
			line += " - H0 was accepted"
		case AcceptH1:
			line += " - H1 was accepted"
		}
		fmt.Fprintln(w, line)
	}
	var parts []string
	for i, f := range s.Forfeits {
		if n := forfeitText(f); n != "" {
			parts = append(parts, s.Names[i]+" "+n)
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "Forfeits: %s\n", strings.Join(parts, "; "))
	}
}

// forfeitText writes forfeit counts in a fixed order: "2 time forfeit, 1
// crash", or "" for none.
func forfeitText(f map[record.Termination]int) string {
	var parts []string
	for _, t := range []record.Termination{record.IllegalMove, record.TimeForfeit, record.Crash, record.NoAnswer} {
		if n := f[t]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, t))
		}
	}
	return strings.Join(parts, ", ")
}

// scoreText writes "W - L - D  [score] N" as cutechess-cli does.
func scoreText(r WDL) string {
	sc := 0.0
	if r.Games() > 0 {
		sc = r.Score()
	}
	return fmt.Sprintf("%d - %d - %d  [%.3f] %d", r.Wins, r.Losses, r.Draws, sc, r.Games())
}

// eloText writes the Elo difference and its 95% margin, "22.3 +/- 27.1".
// A margin whose interval reaches a score of 0 or 1 (a clean sweep, or
// too few games to keep the interval inside) is unbounded in Elo and
// written "+/- inf", never "nan"; with no game yet there is no difference
// to write.
func eloText(r WDL) string {
	if r.Games() == 0 {
		return "none (no games)"
	}
	m := r.ErrorMargin()
	if math.IsNaN(m) {
		m = math.Inf(1)
	}
	return formatFloat(r.Elo(), 1) + " +/- " + formatFloat(m, 1)
}

// formatFloat writes x with prec decimals, or "nan", "inf", "-inf".
func formatFloat(x float64, prec int) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	case x == 0:
		x = 0 // no "-0.0"
	}
	return strconv.FormatFloat(x, 'f', prec, 64)
}

// formatG3 writes x with three significant digits, as %g does.
func formatG3(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }
