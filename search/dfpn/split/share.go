package split

import (
	"errors"
	"fmt"
	"slices"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// A tree's leaves may also be searched elsewhere, several at once (by the
// workers of a broker): Next hands out the most-proving leaf that is not
// already out, expanding on the way a leaf whose searches have used the
// leaf budget, and Record puts a search's numbers back.

// Leaf is an open leaf handed out for a search: where it is and what the
// search is asked.
type Leaf struct {
	Path    []board.Move   // the moves from the root
	Pos     board.Position // the leaf's position
	History []uint64       // the game's keys before Pos
	// Budget is the search's node budget: the leaf budget, or an eighth
	// of it for a leaf not searched yet.
	Budget uint64
}

// PathKey names a path of moves from the root, for maps of the leaves
// out (board.FormatMoves; "" for the root).
func PathKey(path []board.Move) string { return board.FormatMoves(path) }

// Next returns the most-proving open leaf whose path out does not hold,
// and false when no such leaf is worth a search now or the root is
// settled. Where the defender moves, every child must be proven for a
// proof, so the choice is the child of least disproof number among those
// with such a leaf below them. Where the attacker moves, one child's proof
// is enough: the choice is the child of least proof number, or a child
// not searched yet (whose first look the local Step gives every child
// too), and never a sibling of the best child taken because the best is
// out: that search is speculation, most of it wasted once the best child
// is proven (it made distributed proofs several times the nodes of the
// local one). A leaf chosen whose searches have used the leaf budget is
// expanded first, without a search: its children are new leaves (a
// position repeated on the path is settled as the draw it is for the
// search, a finished game as its result), and the choice goes on below
// it.
func (t *Tree) Next(out func(pathKey string) bool) (Leaf, bool) {
	for !t.Settled() {
		free := map[*Node]bool{}
		if !t.markFree(t.root, nil, out, free) {
			return Leaf{}, false
		}
		n, path := t.root, []board.Move(nil)
		for n.children != nil {
			n = t.pickFree(n, free)
			path = append(path, n.move)
		}
		if n.searched < t.leafNodes || len(path) >= dfpn.MaxDepth {
			budget := t.leafNodes
			if n.visits == 0 && n.parent != nil {
				budget = max(1, t.leafNodes/lookShare)
			}
			return Leaf{Path: path, Pos: n.pos, History: t.historyTo(n), Budget: budget}, true
		}
		t.expandBare(n)
	}
	return Leaf{}, false
}

// markFree records in free the nodes with a leaf below them that Next
// may hand out (or such leaves themselves): an open leaf whose path out
// does not hold, reached through the best child where the attacker moves
// (or a child not searched yet) and through any child where the
// defender does. It reports whether n is one.
func (t *Tree) markFree(n *Node, path []board.Move, out func(string) bool, free map[*Node]bool) bool {
	if n.pn == 0 || n.dn == 0 {
		return false
	}
	if n.children == nil {
		if out(PathKey(path)) {
			return false
		}
		free[n] = true
		return true
	}
	var best *Node
	if n.pos.Side() == t.attacker {
		best = t.pick(n)
	}
	any := false
	for _, c := range n.children {
		if best != nil && c != best && !unlooked(c) {
			continue // a sibling of the best child: speculation
		}
		if t.markFree(c, append(path, c.move), out, free) {
			any = true
		}
	}
	free[n] = any
	return any
}

// unlooked reports whether n is a leaf not searched yet.
func unlooked(n *Node) bool { return n.children == nil && n.visits == 0 }

// pickFree is pick among the children of n that free holds.
func (t *Tree) pickFree(n *Node, free map[*Node]bool) *Node {
	attack := n.pos.Side() == t.attacker
	var best *Node
	for _, c := range n.children {
		if !free[c] {
			continue
		}
		if best == nil || (attack && c.pn < best.pn) || (!attack && c.dn < best.dn) {
			best = c
		}
	}
	return best
}

// expandBare expands leaf n without searching its children: each is a
// new open leaf (numbers 1 and 1), or settled when its game is over or
// its position repeats one of its path. The numbers then go back up.
func (t *Tree) expandBare(n *Node) {
	history := append(t.historyTo(n), n.pos.Key())
	moves := n.pos.LegalMoves()
	kids := make([]*Node, 0, len(moves))
	for _, m := range moves {
		c := &Node{move: m, pos: n.pos, parent: n, pn: 1, dn: 1}
		c.pos.Play(m) // legal: from LegalMoves
		switch st := c.pos.Status(history); {
		case slices.Contains(history, c.pos.Key()):
			// A repetition: a draw for the search, as in expand.
			c.pn, c.dn, c.onPath = Infinity, 0, true
		case st.Over():
			if w, ok := st.Result.Winner(); ok && w == t.attacker {
				c.pn, c.dn = 0, Infinity
			} else {
				c.pn, c.dn = Infinity, 0
			}
		}
		kids = append(kids, c)
	}
	n.children = kids
	t.size += len(kids)
	t.proven = nil
	for a := n; a != nil; a = a.parent {
		t.update(a)
	}
}

// ErrNotOpen is Record's error for a path that does not end at an open
// leaf: the leaf was expanded or settled since it was handed out.
var ErrNotOpen = errors.New("not an open leaf of the tree")

// Record sets the numbers of the open leaf at path from a search of it
// that took nodes nodes (Next's leaf, searched elsewhere), and takes
// them back up to the root. A path that is not one of the tree's, or
// does not end at an open leaf (ErrNotOpen), changes nothing.
func (t *Tree) Record(path []board.Move, b dfpn.Bounds, nodes uint64) error {
	n, err := t.find(path)
	if err != nil {
		return err
	}
	if n.children != nil || n.pn == 0 || n.dn == 0 {
		return fmt.Errorf("%s: %w", pathName(n), ErrNotOpen)
	}
	switch {
	case b.PN == 0 && b.DN != Infinity, b.DN == 0 && b.PN != Infinity, b.PN == 0 && b.DN == 0:
		return fmt.Errorf("%s: pn %s dn %s: a settled leaf has the other number inf", pathName(n), number(b.PN), number(b.DN))
	case b.PN > Infinity || b.DN > Infinity:
		return fmt.Errorf("%s: pn %d dn %d: above inf", pathName(n), b.PN, b.DN)
	}
	n.record(b, nodes)
	t.searched += nodes
	t.proven = nil
	for a := n; a != nil; a = a.parent {
		t.update(a)
	}
	return nil
}

// find returns the node at path.
func (t *Tree) find(path []board.Move) (*Node, error) {
	n := t.root
	for i, m := range path {
		var next *Node
		for _, c := range n.children {
			if c.move == m {
				next = c
				break
			}
		}
		if next == nil {
			return nil, fmt.Errorf("%q: no node after %d of its moves", board.FormatMoves(path), i)
		}
		n = next
	}
	return n, nil
}

// Position returns the position at path and the game's keys before it;
// false when path is not one of the tree's.
func (t *Tree) Position(path []board.Move) (board.Position, []uint64, bool) {
	n, err := t.find(path)
	if err != nil {
		return board.Position{}, nil, false
	}
	return n.pos, t.historyTo(n), true
}

// OpenLeaves counts the open leaves below nodes that are not settled:
// the leaves a search may still have to work on.
func (t *Tree) OpenLeaves() int {
	var count func(n *Node) int
	count = func(n *Node) int {
		if n.pn == 0 || n.dn == 0 {
			return 0
		}
		if n.children == nil {
			return 1
		}
		k := 0
		for _, c := range n.children {
			k += count(c)
		}
		return k
	}
	return count(t.root)
}

// IsOpenLeaf reports whether path leads to an open leaf of the tree.
func (t *Tree) IsOpenLeaf(path []board.Move) bool {
	n, err := t.find(path)
	return err == nil && n.children == nil && n.pn != 0 && n.dn != 0
}
