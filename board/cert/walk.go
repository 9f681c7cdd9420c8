package cert

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/sower-engine/sower/board"
)

// Node states of a winner position during the walk.
const (
	unseen = iota // listed, not reached yet
	onPath        // on the line being walked: reaching it again is a cycle
	done          // checked, with its need and depth known
)

// node is a position of the winner: its move and what the walk found.
type node struct {
	line  uint32     // the certificate line that lists it (1-based)
	move  board.Move // the winner's move
	state uint8
	need  int32 // once done: the capture-free plies that must follow it (see walker)
	depth int32 // once done: the plies of its longest line
}

// frame is a position on the line being walked.
type frame struct {
	pos   board.Position
	moves board.MoveList // the moves to try: the winner's one, or the loser's candidates
	next  int            // the index in moves of the next move to try
	node  int32          // the winner's node, or -1 for a position of the loser
	need  int32          // the largest need of the children so far
	depth int32          // the longest line of the children so far, plus one
}

// walker walks a proof from its root: at the winner's turns it plays the
// move its source gives, at the loser's turns every legal move. It checks
// that every line ends in the loser having no legal move, that no position
// is reached again from itself, that no position repeats a position of the
// game's history for the third time, and that no capture-free run reaches
// the no-capture limit.
//
// The clock is not part of a position, so the walk computes for each
// position n reached the number of capture-free plies need(n) that must be
// able to follow it: −1 when the side to move has no legal move (the game
// is over and the rule book's precedence makes it a loss whatever the
// clock), else the largest of 0 and 1 + need(c) over the children c reached
// by a ply without a capture. A position reached with clock k is safe when
// k + need(n) is below the limit (or need(n) is −1). The walk checks this
// for every position it reaches along every line, with the clock the line
// gives it, which covers the root's clock and every reset by a capture.
type walker struct {
	v      *board.Variant
	winner board.Side
	limit  int
	index  *keyTable // the winner's positions reached or listed, numbered as nodes
	nodes  []node
	// lookup returns the node of the winner's position p, or an error.
	lookup func(p *board.Position) (int32, error)
	// moveErr words an illegal move of the winner in p.
	moveErr func(n *node, p *board.Position, err error) error
	losers  *hashSet        // the loser's positions reached, by hash key
	thrice  map[uint64]bool // keys the history holds twice or more
	stack   []frame
	scratch board.Position // the child being visited (see run)
	visits  int
	reached int   // the winner's positions reached
	maxRun  int32 // the largest need of a position reached by a capture
	start   time.Time
	opts    *Options
	ctx     context.Context
	phase   string // of the walk, for Progress: "checking" or "writing"
	// ordinal is set when node.line numbers the winner's positions in the
	// order of a v2 certificate instead of the lines of a v1 file.
	ordinal bool
}

// at words where the certificate gives node n: its line, or its place
// among the positions of a v2 certificate.
func (w *walker) at(n *node) string {
	if w.ordinal {
		return fmt.Sprintf("position %d of the certificate", n.line)
	}
	return fmt.Sprintf("line %d", n.line)
}

func newWalker(ctx context.Context, v *board.Variant, winner board.Side, opts *Options) *walker {
	w := &walker{v: v, winner: winner, limit: v.Rules().NoCaptureLimit,
		index: newKeyTable(0), losers: newHashSet(0), opts: opts, ctx: ctx, start: time.Now()}
	seen := map[uint64]int{}
	for _, k := range opts.History {
		if seen[k]++; seen[k] == 2 {
			if w.thrice == nil {
				w.thrice = map[uint64]bool{}
			}
			w.thrice[k] = true
		}
	}
	return w
}

// progressEvery is how many positions the walk visits between calls of
// Options.Progress and looks at its context.
const progressEvery = 1 << 14

// run walks the proof from root and returns the root's need and depth.
func (w *walker) run(root board.Position) (need, depth int32, err error) {
	need, depth, pushed, err := w.visit(&root)
	if err != nil || !pushed {
		return need, depth, err
	}
	for {
		f := &w.stack[len(w.stack)-1]
		if f.next < f.moves.N {
			m := f.moves.Moves[f.next]
			f.next++
			// The child is played in the walker's scratch position, not in
			// a local one, which the lookup's indirect call would move to
			// the heap at every ply.
			child := &w.scratch
			*child = f.pos
			if !child.Play(m) {
				if f.node >= 0 { // the winner's move, a candidate whose sowing does not end
					return 0, 0, w.refuseMove(&w.nodes[f.node], &f.pos)
				}
				continue // an endless candidate of the loser
			}
			cn, cd, pushed, err := w.visit(child)
			if err != nil {
				return 0, 0, err
			}
			if !pushed {
				w.absorb(f, child, cn, cd)
			}
			continue
		}
		w.finish(f)
		done := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		if len(w.stack) == 0 {
			return done.need, done.depth, nil
		}
		w.absorb(&w.stack[len(w.stack)-1], &done.pos, done.need, done.depth)
	}
}

// visit reaches p. A position whose result is known at once (the loser has
// no legal move, or a winner's position already checked) returns its need
// and depth; any other goes on the stack (pushed). A position where the
// game goes on is checked against the limit with its clock as it is
// reached: one met for the first time by its clock, one already checked by
// its clock and need.
func (w *walker) visit(p *board.Position) (need, depth int32, pushed bool, err error) {
	if w.visits++; w.visits%progressEvery == 0 {
		if err := w.ctx.Err(); err != nil {
			return 0, 0, false, err
		}
		w.progress(w.phase, 0)
	}
	f := frame{pos: *p, node: -1}
	if p.Side() == w.winner {
		i, err := w.lookup(p)
		if err != nil {
			return 0, 0, false, err
		}
		n := &w.nodes[i]
		switch n.state {
		case done:
			return n.need, n.depth, false, w.checkLimit(p, n.need)
		case onPath:
			return 0, 0, false, fmt.Errorf("cycle: position %s (%s) is reached again from itself: the loser could repeat it", positionText(p), w.at(n))
		}
		if err := w.checkMove(n, p); err != nil {
			return 0, 0, false, err
		}
		n.state = onPath
		w.reached++
		f.node = i
		f.moves.Add(n.move)
	} else {
		w.losers.add(p.Key())
		if !p.HasLegalMove() {
			return -1, 0, false, nil // the loser has lost
		}
		p.GenerateMoves(&f.moves)
	}
	if err := w.checkLimit(p, 0); err != nil {
		return 0, 0, false, err
	}
	if w.thrice[p.Key()] {
		return 0, 0, false, fmt.Errorf("position %s occurs for the third time with the game's earlier positions: a draw by repetition", positionText(p))
	}
	w.stack = append(w.stack, f)
	return 0, 0, true, nil
}

// checkMove checks that the winner's move of node n is legal in p.
func (w *walker) checkMove(n *node, p *board.Position) error {
	// The usual case without a sowing: a move among p's candidates is
	// legal if its sowing ends, which run sees as it plays the move
	// (refuseMove). Anything else goes the long way, for the error's words.
	var l board.MoveList
	p.GenerateMoves(&l)
	if slices.Contains(l.Slice(), n.move) {
		return nil
	}
	return w.refuseMove(n, p)
}

// refuseMove returns the error that says why the winner's move of node n
// is not legal in p.
func (w *walker) refuseMove(n *node, p *board.Position) error {
	if !p.HasLegalMove() {
		return fmt.Errorf("position %s (%s): the winner, %s, has no legal move there and loses", positionText(p), w.at(n), p.Side())
	}
	if err := p.CheckMove(n.move); err != nil {
		return w.moveErr(n, p, err)
	}
	return fmt.Errorf("position %s (%s): the winner's move %s was refused and then found legal", positionText(p), w.at(n), n.move)
}

// absorb adds a finished child c, reached from f, with its need and depth.
func (w *walker) absorb(f *frame, c *board.Position, need, depth int32) {
	switch {
	case c.Clock() == 0:
		w.maxRun = max(w.maxRun, need)
	case need+1 > f.need:
		f.need = need + 1
	}
	f.depth = max(f.depth, depth+1)
}

// finish records the result of a position taken off the stack.
func (w *walker) finish(f *frame) {
	if f.node >= 0 {
		n := &w.nodes[f.node]
		n.state, n.need, n.depth = done, f.need, f.depth
	}
}

// checkLimit checks that p, reached with its clock, is safe given its need.
func (w *walker) checkLimit(p *board.Position, need int32) error {
	if w.limit == 0 || need < 0 || int64(p.Clock())+int64(need) < int64(w.limit) {
		return nil
	}
	return w.limitError(*p, need)
}

// limitError follows from p (with need n) a capture-free line that reaches
// the limit and names the position where it does.
func (w *walker) limitError(p board.Position, n int32) error {
	for p.Clock() < w.limit {
		next, ok := w.longerRun(&p, n)
		if !ok {
			break // not expected: the needs were computed from these children
		}
		p, n = next, n-1
	}
	return fmt.Errorf("capture-free run of %s reaches the no-capture limit at %s (the limit is %d)",
		plies(p.Clock()), p.String(), w.limit)
}

// plies words a number of plies.
func plies(n int) string {
	if n == 1 {
		return "1 ply"
	}
	return fmt.Sprintf("%d plies", n)
}

// longerRun returns a child of p reached without a capture whose need is
// n−1, where n is p's need.
func (w *walker) longerRun(p *board.Position, n int32) (board.Position, bool) {
	var l board.MoveList
	p.GenerateMoves(&l)
	for _, m := range l.Slice() {
		c := *p
		if !c.Play(m) || c.Clock() == 0 {
			continue
		}
		if p.Side() == w.winner && m != w.nodeOf(p).move {
			continue
		}
		if w.needOf(&c) == n-1 {
			return c, true
		}
	}
	return *p, false
}

// needOf returns the need of a position reached by the walk: kept for the
// winner's, computed from its children for the loser's.
func (w *walker) needOf(p *board.Position) int32 {
	if p.Side() == w.winner {
		return w.nodeOf(p).need
	}
	if !p.HasLegalMove() {
		return -1
	}
	var l board.MoveList
	p.GenerateMoves(&l)
	need := int32(0)
	for _, m := range l.Slice() {
		if c := *p; c.Play(m) && c.Clock() != 0 {
			need = max(need, w.needOf(&c)+1)
		}
	}
	return need
}

// nodeOf returns the node of p, a position of the winner the walk reached.
func (w *walker) nodeOf(p *board.Position) *node {
	i, _ := w.index.get(keyOf(p))
	return &w.nodes[i]
}

// reserve sizes the walker's tables for about n positions of each side.
func (w *walker) reserve(n int) {
	w.index = newKeyTable(n)
	w.losers = newHashSet(n)
	w.nodes = make([]node, 0, n)
}

// progress reports to Options.Progress, if set.
func (w *walker) progress(phase string, lines int) {
	if w.opts.Progress == nil {
		return
	}
	w.opts.Progress(Progress{Phase: phase, Lines: lines, Winner: w.reached, Loser: w.losers.len(),
		Line: len(w.stack), Elapsed: time.Since(w.start)})
}

// stats fills in what the walk found.
func (w *walker) stats(s *Stats, need, depth int32) {
	s.Winner = w.winner
	s.WinnerReached, s.LoserReached = w.reached, w.losers.len()
	s.Longest, s.CaptureFree, s.LongestRun = int(depth), int(need), int(max(need, w.maxRun))
	s.Elapsed = time.Since(w.start)
}
