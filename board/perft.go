package board

// Perft counts the move sequences of exactly depth plies from p (rule book
// section 5): 1 at depth 0; otherwise the sum over the legal moves of the
// children's counts. A position where the game is over counts 0 at depth
// above 0. The no-capture limit and repetition are ignored; every other rule
// that ends a game applies. A Hoyito III pass is a move and an extra turn is
// a ply of its own.
func (p *Position) Perft(depth int) uint64 { return perft(*p, depth) }

// perft takes its position by value: a pointer would make the recursion's
// copies escape to the heap.
func perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var l MoveList
	p.GenerateMoves(&l)
	var n uint64
	legal := false
	for _, m := range l.Slice() {
		c := p
		if !c.Play(m) {
			continue
		}
		legal = true
		if depth == 1 {
			n++
		} else {
			n += perft(c, depth-1)
		}
	}
	if !legal && p.v.family == Hoyito && p.OnBoard() > 0 {
		c := p
		c.Play(Pass)
		n += perft(c, depth-1)
	}
	return n
}

// DivideEntry is one legal move and the perft count below it.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide returns, for each legal move in LegalMoves order, the perft count
// of depth-1 below it (depth ≥ 1).
func (p *Position) Divide(depth int) []DivideEntry {
	var out []DivideEntry
	for _, m := range p.LegalMoves() {
		c := *p
		c.Play(m)
		out = append(out, DivideEntry{m, c.Perft(depth - 1)})
	}
	return out
}
