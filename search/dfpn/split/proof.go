package split

import (
	"context"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
	"github.com/sower-engine/sower/search/dfpn"
)

// Oracle returns the winning moves of a certificate of the tree's proof:
// from the tree's proven nodes (WinningMove), and below them from s, the
// solver of the tree's steps, which proves a position again when its
// table has lost it (within s's own node budget: none, unless
// SetMaxNodes set one).
func (t *Tree) Oracle(ctx context.Context, s *dfpn.Solver) cert.Oracle {
	return func(p *board.Position) (board.Move, bool) {
		if m, ok := t.WinningMove(p); ok {
			return m, true
		}
		m, _, ok := s.WinningMove(ctx, p)
		return m, ok
	}
}

// WinningMove returns, at p where the attacker is to move, the move to
// the child of shortest proof of the tree's proven nodes at p (the same
// position and clock; a transposition may put several there); false when the tree has no proven node at p.
// A certificate of the root's proof takes its moves from here first and
// from the leaves' solver (dfpn.Solver.WinningMove) below the tree.
func (t *Tree) WinningMove(p *board.Position) (board.Move, bool) {
	if p.Side() != t.attacker {
		return board.NoMove, false
	}
	if t.proven == nil {
		t.proven = map[uint64][]*Node{}
		t.index(t.root)
	}
	var best *Node
	for _, n := range t.proven[p.Key()] {
		if n.pos != *p {
			continue
		}
		for _, c := range n.children {
			if c.pn == 0 && (best == nil || c.plies < best.plies) {
				best = c
			}
		}
	}
	if best != nil {
		return best.move, true
	}
	return board.NoMove, false
}

// index files the proven expanded nodes where the attacker moves by key.
func (t *Tree) index(n *Node) {
	if n.pn != 0 || n.children == nil {
		return
	}
	if n.pos.Side() == t.attacker {
		t.proven[n.pos.Key()] = append(t.proven[n.pos.Key()], n)
	}
	for _, c := range n.children {
		t.index(c)
	}
}
