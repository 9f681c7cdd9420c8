package record

import "slices"

// Side lines are written in PGN as recursive annotation variations
// (RAV): a line that replaces a move follows it in parentheses, and a
// line that branches from within another is nested in it after the move
// it replaces, as chess PGN writes variations:
//
//	1. a1 {0.100s} (b1 d4 (c4 a1) b2) (c1) 1... a4
//
// Each line of MoveRecord.Lines is the whole line from the move it
// replaces; lines that share their first moves are written as one
// variation with the later ones nested where they part.

// ravTokens writes the side lines that replace one move as PGN tokens,
// parentheses joined to the moves they enclose.
func ravTokens(lines [][]string) []string {
	var toks []string
	for _, v := range ravGroups(lines) {
		toks = append(toks, v...)
	}
	return toks
}

// ravGroups writes lines that replace one move: lines with the same
// first move as one variation (ravVariation), one after another.
func ravGroups(lines [][]string) [][]string {
	var out [][]string
	done := make([]bool, len(lines))
	for i, l := range lines {
		if done[i] || len(l) == 0 {
			continue
		}
		var group [][]string
		for j := i; j < len(lines); j++ {
			if !done[j] && len(lines[j]) > 0 && lines[j][0] == l[0] {
				group, done[j] = append(group, lines[j]), true
			}
		}
		out = append(out, ravVariation(group)...)
	}
	return out
}

// ravVariation writes lines that all begin with the same move: the
// first in full, the others nested after its move they replace. A line
// that cannot be nested (it is the first's start, or repeats it) is a
// variation of its own, after.
func ravVariation(group [][]string) [][]string {
	main := group[0]
	var alone [][]string
	nested := make([][][]string, len(main)) // the lines parting from main at each move
	for _, l := range group[1:] {
		k := 0
		for k < len(l) && k < len(main) && l[k] == main[k] {
			k++
		}
		if k == len(l) || k == len(main) {
			if k == len(l) && len(l) == len(main) {
				continue // main again
			}
			alone = append(alone, l)
			continue
		}
		nested[k] = append(nested[k], l[k:])
	}
	var toks []string
	for k, mv := range main {
		toks = append(toks, pgnMove(mv))
		for _, v := range ravGroups(nested[k]) {
			toks = append(toks, v...)
		}
	}
	toks[0] = "(" + toks[0]
	toks[len(toks)-1] += ")"
	out := [][]string{toks}
	for _, l := range alone {
		out = append(out, ravVariation([][]string{l})...)
	}
	return out
}

// ravFrame is a variation being read: the moves before it along its
// line from the move it replaces (base), its own moves, and where its
// line goes (the index of the replaced main-line move and of the line
// among that move's Lines).
type ravFrame struct {
	base, moves []string
	ply, line   int
}

// openVariation starts a variation that replaces the last move read, of
// the main line (stack empty) or of the innermost variation, keeping its
// place among the lines of its main-line move so that lines read back in
// the order they were written.
func (g *GameRecord) openVariation(stack []ravFrame) ([]ravFrame, bool) {
	f := ravFrame{ply: len(g.Moves) - 1}
	if n := len(stack); n > 0 {
		top := stack[n-1]
		if len(top.moves) == 0 {
			return stack, false
		}
		f.base = slices.Concat(top.base, top.moves[:len(top.moves)-1])
		f.ply = top.ply
	}
	if f.ply < 0 {
		return stack, false
	}
	f.line = len(g.Moves[f.ply].Lines)
	g.Moves[f.ply].Lines = append(g.Moves[f.ply].Lines, nil)
	return append(stack, f), true
}

// closeVariation ends the innermost variation: its whole line goes in its
// place, or, empty, is dropped.
func (g *GameRecord) closeVariation(stack []ravFrame) []ravFrame {
	f := stack[len(stack)-1]
	lines := g.Moves[f.ply].Lines
	if len(f.moves) == 0 {
		// Its place is the last: a variation opened in it would have
		// needed a move first.
		lines = slices.Delete(lines, f.line, f.line+1)
	} else {
		lines[f.line] = slices.Concat(f.base, f.moves)
	}
	if len(lines) == 0 {
		lines = nil
	}
	g.Moves[f.ply].Lines = lines
	return stack[:len(stack)-1]
}
