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
// by engine1's points (0, ½, 1, 1½, 2). A line gives each engine's proof
// horizon when one reported a mate score (how many plies before the end
// it first did: median and quartiles over the games where it did), and a
// last line lists forfeits, if any.
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
	if h := s.horizonText(); h != "" {
		fmt.Fprintln(w, h)
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

// WriteReport writes the standings of a tournament: a line per pairing
// in the layout of a match's score, the ratings, and the crosstable.
//
//	Tournament (round robin of 3 engines): 12 of 12 games
//	Score of a vs b: 2 - 1 - 1  [0.625] 4
//	Score of a vs c: 3 - 1 - 0  [0.750] 4
//	Score of b vs c: 2 - 2 - 0  [0.500] 4
//	Rank  Name      Elo    +/-  Games   Score    Draw
//	   1  a       110.3  170.4      8   68.8%   12.5%
//	   …
//	Elo: maximum likelihood, logistic (Bradley-Terry) model, draws half a point; the mean at 0; +/- 95%
//	Crosstable (the row's points against the column's, of the games between them):
//	      a        b        c
//	a     -        2.5/4    3/4
//	…
//
// An engine not yet joined to the others by games has "-" for its
// rating. A last line lists forfeits, if any.
func (s *Standings) WriteReport(w io.Writer) {
	fmt.Fprintf(w, "Tournament (%s of %d engines): %d of %d games\n", s.Format, len(s.Names), s.Games, s.Total)
	n := len(s.Names)
	games, points, draws := make([]int, n), make([]float64, n), make([]int, n)
	cross := make([][]string, n)
	for i := range cross {
		cross[i] = make([]string, n)
		cross[i][i] = "-"
	}
	forfeits := make([]map[record.Termination]int, n)
	for i := range forfeits {
		forfeits[i] = map[record.Termination]int{}
	}
	for k, p := range s.Pairings {
		r := s.Results[k]
		fmt.Fprintf(w, "Score of %s vs %s: %s\n", s.Names[p[0]], s.Names[p[1]], scoreText(r.Score))
		sc := r.Score
		pa := float64(sc.Wins) + float64(sc.Draws)/2
		g := sc.Games()
		for side, e := range p {
			games[e] += g
			draws[e] += sc.Draws
			for t, c := range r.Forfeits[side] {
				forfeits[e][t] += c
			}
		}
		points[p[0]] += pa
		points[p[1]] += float64(g) - pa
		cross[p[0]][p[1]] = pointsText(pa) + "/" + strconv.Itoa(g)
		cross[p[1]][p[0]] = pointsText(float64(g)-pa) + "/" + strconv.Itoa(g)
	}
	rt, err := s.Ratings()
	if err != nil {
		fmt.Fprintf(w, "Ratings: %v\n", err)
		return
	}
	width := 4
	for _, name := range s.Names {
		width = max(width, len(name))
	}
	fmt.Fprintf(w, "Rank  %-*s  %7s  %6s  %5s  %6s  %6s\n", width, "Name", "Elo", "+/-", "Games", "Score", "Draw")
	for rank, i := range rankOrder(rt, points) {
		elo, margin := "-", "-"
		if rt.Rated[i] {
			elo, margin = formatFloat(rt.Elo[i], 1), formatFloat(rt.Margin[i], 1)
		}
		score, drawn := "-", "-"
		if games[i] > 0 {
			score = formatFloat(100*points[i]/float64(games[i]), 1) + "%"
			drawn = formatFloat(100*float64(draws[i])/float64(games[i]), 1) + "%"
		}
		fmt.Fprintf(w, "%4d  %-*s  %7s  %6s  %5d  %6s  %6s\n", rank+1, width, s.Names[i], elo, margin, games[i], score, drawn)
	}
	anchor := "the mean at 0"
	if s.Anchor >= 0 {
		anchor = s.Names[s.Anchor] + " at 0"
	}
	fmt.Fprintf(w, "Elo: maximum likelihood, logistic (Bradley-Terry) model, draws half a point; %s; +/- 95%%\n", anchor)
	if rt.Prior {
		fmt.Fprintln(w, "Elo: no finite fit yet (some won or lost every game against the others): one virtual draw added between every two engines that met, as BayesElo does")
	}
	fmt.Fprintln(w, "Crosstable (the row's points against the column's, of the games between them):")
	col := width
	for i := range cross {
		for j := range cross[i] {
			col = max(col, len(cross[i][j]))
		}
	}
	line := []string{fmt.Sprintf("%-*s", width, "")}
	for _, name := range s.Names {
		line = append(line, fmt.Sprintf("%-*s", col, name))
	}
	fmt.Fprintln(w, strings.TrimRight(strings.Join(line, "  "), " "))
	for i, name := range s.Names {
		line = []string{fmt.Sprintf("%-*s", width, name)}
		for j := range cross[i] {
			c := cross[i][j]
			if c == "" {
				c = "."
			}
			line = append(line, fmt.Sprintf("%-*s", col, c))
		}
		fmt.Fprintln(w, strings.TrimRight(strings.Join(line, "  "), " "))
	}
	var parts []string
	for i, f := range forfeits {
		if t := forfeitText(f); t != "" {
			parts = append(parts, s.Names[i]+" "+t)
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "Forfeits: %s\n", strings.Join(parts, "; "))
	}
}

// pointsText writes a number of points: "3", "2.5".
func pointsText(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
