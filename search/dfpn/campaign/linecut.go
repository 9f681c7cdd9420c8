package campaign

import (
	"slices"
	"strings"

	"github.com/sower-engine/sower/board"
)

// cutLine cuts piece i, at pos (whose history is hist), stuck again,
// down the line its search waits on, to the deepest position of the line
// at or above the position asked on its own at its last stuck step
// (waits), when there is one below pos: the piece's proof number is
// still carried down to it, as it was to the position asked (the ask may
// have proven replies below it, so that the line now goes on deeper, or
// moved a winner's best try below it, so that the line turns off there).
// That one position holds the piece up: the steps of the piece search
// the tree above it again and again without moving it, and the asks of
// the pieces cut one move at a time below would each ask it again.
// The winner's moves on the line are kept as glue; the loser's other
// replies on the line (which the table holds proven, the line being where
// the piece's proof number is carried by one reply) are pieces; and the
// position at the line's end is cut as cut would cut it: into the loser's
// replies, or kept whole at the winner's turn. No piece is made deeper
// than Config.CutPlies, and the line stops before a position that repeats
// one of its history. It reports whether it cut.
//
// In katro-4x6's run from nothing, e1 c4 a1 f4 f1 and the pieces cut
// below it waited on one position nine plies below it: their proof number
// stood at 20,398 from 1 h 43 min to 3 h 23 min, that position was asked
// on its own three times, and the line was cut four times on one move
// each, before the piece left at the end, the position above it, was
// proven at 3 h 49 min in at most 300 million nodes.
func (c *campaign) cutLine(i int, pos board.Position, hist []uint64, waits string) bool {
	pc := c.pieces[i]
	if waits == "" || c.cfg.CutPlies < 0 || len(pc.Moves) >= c.cfg.CutPlies {
		return false
	}
	line := c.stuckLine(pos)
	// The deepest position both on the line and above (or at) the one
	// asked: its moves from the root are a prefix of both.
	asked, on := strings.Fields(waits), append(slices.Clone(pc.Moves), line...)
	k := 0
	for k < len(asked) && k < len(on) && asked[k] == on[k].String() {
		k++
	}
	if k <= len(pc.Moves) {
		return false
	}
	line = line[:k-len(pc.Moves)]
	seen := slices.Clone(hist)
	p := pos
	base := slices.Clone(pc.Moves)
	var glue []Glue
	var kids []Piece
	for _, m := range line {
		if len(base) >= c.cfg.CutPlies {
			break
		}
		q := p
		if !q.Play(m) || slices.Contains(seen, q.Key()) {
			break
		}
		if p.Side() == c.cfg.Winner {
			glue = append(glue, Glue{Moves: slices.Clone(base), Move: m})
		} else {
			for _, r := range p.LegalMoves() {
				if r != m {
					kids = append(kids, Piece{Moves: append(slices.Clone(base), r)})
				}
			}
		}
		seen = append(seen, p.Key())
		p = q
		base = append(base, m)
	}
	if len(base) == len(pc.Moves) {
		return false // not one move of the line could be cut along
	}
	if p.Side() != c.cfg.Winner && len(base) < c.cfg.CutPlies && len(p.LegalMoves()) > 0 {
		kids = replies(&p, base, kids)
	} else {
		kids = append(kids, Piece{Moves: base})
	}
	c.replace(i, glue, kids)
	return true
}
