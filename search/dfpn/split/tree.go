package split

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// Infinity is the proof or disproof number of a settled node.
const Infinity = dfpn.Infinity

// Tree is the top of a proof of the attacker's win at a root: the nodes
// it has expanded, kept whole (no table replaces them), with the numbers
// the leaves' bounded df-pn searches left. It is not safe for concurrent
// use.
type Tree struct {
	root      *Node
	history   []uint64 // the game's keys before the root
	attacker  board.Side
	leafNodes uint64
	size      int    // nodes in the tree
	searched  uint64 // nodes of every leaf search, this run and the saved ones
	// proven files the proven nodes where the attacker moves by key, for
	// WinningMove (made on its first call, dropped by every step).
	proven map[uint64][]*Node
}

// Node is a position of the tree: a leaf, searched by df-pn or not yet, or
// an expanded node whose children are all the position's legal moves.
type Node struct {
	move     board.Move // the move from the parent (board.NoMove at the root)
	pos      board.Position
	pn, dn   uint32
	plies    int    // proven: the plies of the proof from here
	onPath   bool   // disproven by a leaf search that rests on the path
	searched uint64 // nodes of the leaf searches of this position
	visits   int    // leaf searches of this position
	parent   *Node
	children []*Node
}

// New returns the tree of root, whose game's keys before it are history,
// for attacker's win, each leaf search limited to about leafNodes nodes
// (at least 1). The root is a leaf not yet searched.
func New(root board.Position, history []uint64, attacker board.Side, leafNodes uint64) (*Tree, error) {
	if v := root.Variant(); v == nil || v.Family() != board.Katro {
		return nil, dfpn.ErrNotKatro
	}
	if leafNodes == 0 {
		return nil, fmt.Errorf("split: a leaf search needs a budget of at least 1 node")
	}
	t := &Tree{history: history, attacker: attacker, leafNodes: leafNodes, size: 1}
	t.root = &Node{move: board.NoMove, pos: root, pn: 1, dn: 1}
	return t, nil
}

// Attacker returns the side whose win the tree proves.
func (t *Tree) Attacker() board.Side { return t.attacker }

// LeafNodes returns the node budget of a leaf search.
func (t *Tree) LeafNodes() uint64 { return t.leafNodes }

// Root returns the root's numbers: pn 0 when the attacker's win is
// proven, dn 0 when it is disproven.
func (t *Tree) Root() (pn, dn uint32) { return t.root.pn, t.root.dn }

// Plies returns, once the root is proven, the plies of its proof.
func (t *Tree) Plies() int { return t.root.plies }

// Size returns the number of positions in the tree.
func (t *Tree) Size() int { return t.size }

// Searched returns the nodes of every leaf search the tree has recorded.
func (t *Tree) Searched() uint64 { return t.searched }

// Settled reports whether the root is proven or disproven.
func (t *Tree) Settled() bool { return t.root.pn == 0 || t.root.dn == 0 }

// OnPath reports whether the root's disproof rests on a leaf's disproof
// that holds only for the path the tree reached it by (a repetition of a
// position before it, or the depth bound).
func (t *Tree) OnPath() bool { return t.root.dn == 0 && t.root.onPath }

// Step is what one call of Tree.Step did.
type Step struct {
	Path     []board.Move // the moves from the root to the leaf chosen
	Expanded bool         // the leaf was expanded and its children searched
	Searches int          // positions searched (1, or the leaf's children)
	PN, DN   uint32       // the leaf's numbers after the step
	Nodes    uint64
	Time     time.Duration
}

// Step goes down the tree to its most-proving leaf (the child of least
// proof number where the attacker moves, of least disproof number where
// the defender does) and works on it with s: a leaf whose searches so
// far add up to less than the tree's leaf budget is searched with df-pn
// within that budget (again: the table holds what the last search found);
// a leaf searched that much and still open is expanded, each of its
// children searched in turn within an eighth of the budget (lookShare).
// The numbers then go back up to the root. s's table is kept from
// one step to the next, so what one leaf proved serves the others. When
// ctx is cancelled the step's searches are dropped and the tree is as it
// was. report, if not nil, is the searches' progress. A line deeper than
// dfpn.MaxDepth plies is refused.
func (t *Tree) Step(ctx context.Context, s *dfpn.Solver, report func(dfpn.Progress)) (Step, error) {
	if t.Settled() {
		return Step{}, fmt.Errorf("split: the root is already %s", t.verdict())
	}
	start := time.Now()
	leaf, path := t.mostProving()
	st := Step{Path: path}
	if len(path) >= dfpn.MaxDepth {
		return Step{}, fmt.Errorf("split: the most-proving leaf is %d plies deep, the most a line may be", len(path))
	}
	if leaf.searched < t.leafNodes {
		n, nodes, err := s.ProveWithin(ctx, leaf.pos, t.historyTo(leaf), t.attacker, t.leafNodes, report)
		if err != nil {
			return Step{}, err
		}
		leaf.record(n, nodes)
		st.Searches, st.Nodes = 1, nodes
	} else {
		kids, nodes, err := t.expand(ctx, s, leaf, report)
		if err != nil {
			return Step{}, err
		}
		leaf.children = kids
		t.size += len(kids)
		st.Expanded, st.Searches, st.Nodes = true, len(kids), nodes
	}
	t.searched += st.Nodes
	t.proven = nil
	for n := leaf; n != nil; n = n.parent {
		t.update(n)
	}
	st.PN, st.DN, st.Time = leaf.pn, leaf.dn, time.Since(start)
	return st, nil
}

// verdict words a settled root.
func (t *Tree) verdict() string {
	if t.root.pn == 0 {
		return fmt.Sprintf("proven: %s wins", t.attacker)
	}
	return fmt.Sprintf("disproven: %s does not win", t.attacker)
}

// record sets a leaf's numbers from a search of it.
func (n *Node) record(num dfpn.Bounds, nodes uint64) {
	n.pn, n.dn, n.plies, n.onPath = num.PN, num.DN, num.Plies, num.OnPath
	n.searched += nodes
	n.visits++
}

// lookShare is the share of the leaf budget a new child's first search
// gets when its parent is expanded: enough to give it numbers (most are
// in the table already, from the parent's search); the child the tree
// then chooses is searched with the whole budget before it is expanded in
// turn, and its siblings only if they come to be chosen.
const lookShare = 8

// expand searches each legal move's position of leaf and returns them as
// its children (nothing changed when ctx is cancelled).
func (t *Tree) expand(ctx context.Context, s *dfpn.Solver, leaf *Node, report func(dfpn.Progress)) ([]*Node, uint64, error) {
	moves := leaf.pos.LegalMoves()
	kids := make([]*Node, 0, len(moves))
	history := append(t.historyTo(leaf), leaf.pos.Key())
	var total uint64
	for _, m := range moves {
		c := &Node{move: m, pos: leaf.pos, parent: leaf}
		if !c.pos.Play(m) {
			return nil, 0, fmt.Errorf("split: %s is not legal at %s", m, leaf.pos.String())
		}
		if slices.Contains(history, c.pos.Key()) {
			// A repetition: a draw for the search, as df-pn counts it on
			// its own lines, that holds for this path only.
			c.record(dfpn.Bounds{PN: Infinity, DN: 0, OnPath: true}, 0)
			kids = append(kids, c)
			continue
		}
		n, nodes, err := s.ProveWithin(ctx, c.pos, history, t.attacker, max(1, t.leafNodes/lookShare), report)
		if err != nil {
			return nil, 0, err
		}
		c.record(n, nodes)
		total += nodes
		kids = append(kids, c)
	}
	return kids, total, nil
}

// historyTo returns the keys of the game's positions before n: the
// history before the root, then the positions of the path down to n.
func (t *Tree) historyTo(n *Node) []uint64 {
	var above []uint64
	for a := n.parent; a != nil; a = a.parent {
		above = append(above, a.pos.Key())
	}
	h := make([]uint64, 0, len(t.history)+len(above)+1)
	h = append(h, t.history...)
	for i := len(above) - 1; i >= 0; i-- {
		h = append(h, above[i])
	}
	return h
}

// mostProving returns the leaf the next step works on and the moves to it.
func (t *Tree) mostProving() (*Node, []board.Move) {
	var path []board.Move
	n := t.root
	for n.children != nil {
		n = t.pick(n)
		path = append(path, n.move)
	}
	return n, path
}

// pick returns the child of n to go down to: the least proof number where
// the attacker moves, the least disproof number where the defender does
// (the first generated of equals).
func (t *Tree) pick(n *Node) *Node {
	attack := n.pos.Side() == t.attacker
	best := n.children[0]
	for _, c := range n.children[1:] {
		if (attack && c.pn < best.pn) || (!attack && c.dn < best.dn) {
			best = c
		}
	}
	return best
}

// update sets an expanded node's numbers from its children: where the
// attacker moves, the least proof number and the sum of the disproof
// numbers; where the defender moves, the sum of the proof numbers and the
// least disproof number. A proven node's plies are one more than its
// shortest proven child's (attacker to move) or longest child's.
func (t *Tree) update(n *Node) {
	if n.children == nil {
		return
	}
	attack := n.pos.Side() == t.attacker
	least, sum, plies := uint32(Infinity), uint32(0), 0
	// A disproof rests on the path when one of the children it needs
	// does: every child where the attacker moves, the cleanest refutation
	// where the defender does.
	onPath := !attack
	for _, c := range n.children {
		if c.dn == 0 {
			if attack {
				onPath = onPath || c.onPath
			} else {
				onPath = onPath && c.onPath
			}
		}
		num, other := c.pn, c.dn
		if !attack {
			num, other = c.dn, c.pn
		}
		least = min(least, num)
		sum = satadd(sum, other)
		switch {
		case c.pn != 0:
		case attack && (plies == 0 || c.plies+1 < plies):
			plies = c.plies + 1
		case !attack:
			plies = max(plies, c.plies+1)
		}
	}
	if attack {
		n.pn, n.dn = least, sum
	} else {
		n.pn, n.dn = sum, least
	}
	n.plies = 0
	if n.pn == 0 {
		n.plies = plies
	}
	n.onPath = n.dn == 0 && onPath
}

// satadd adds two numbers, saturating below Infinity unless one is
// Infinity (as the solver's sums do: a sum of open numbers stays open).
func satadd(a, b uint32) uint32 {
	switch {
	case a >= Infinity || b >= Infinity:
		return Infinity
	case a >= Infinity-1-b:
		return Infinity - 1
	}
	return a + b
}
