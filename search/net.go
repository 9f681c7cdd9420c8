package search

import (
	"fmt"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval/nnue"
)

// netEval is a search's network evaluation: the network bound to the
// root's board and an accumulator per ply. The accumulator of ply k is
// brought to each position the search evaluates there from itself (a
// sibling's, most often) or from ply k−1's (the parent's, in the
// quiescence search), whichever is closer; it lives in the searcher, so a
// node allocates nothing.
type netEval struct {
	on    bool
	lazy  int // the linear evaluation beyond ± lazy replaces the network's (0: never)
	m     nnue.Model
	accs  [MaxPly + 1]nnue.Accumulator
	cache [evalCacheSize]evalEntry
}

// evalCacheSize is the number of entries of a search's evaluation cache
// (a power of two): 128 KiB.
const evalCacheSize = 1 << 13

// evalEntry is an entry of the evaluation cache: the network's score of
// the last position evaluated whose key falls on it. The key covers
// everything the network reads (the board, the side to move and the
// captures), so a position found there is not evaluated again.
type evalEntry struct {
	key   uint64
	score int32
	ok    bool
}

// SetNet makes the engine evaluate family f's positions with network n,
// or with the linear evaluation (package eval) when n is nil. The boards
// n was not trained for (nnue.Net.Evaluates) keep the linear evaluation.
// Like SetThreads, it is called between searches.
func (e *Engine) SetNet(f board.Family, n *nnue.Net) error {
	if f != board.Katro && f != board.Hoyito {
		return fmt.Errorf("search: unknown family %d", f)
	}
	if n != nil && n.Family != f {
		return fmt.Errorf("search: a %s network cannot evaluate %s", n.Family, f)
	}
	e.nets[f] = n
	return nil
}

// SetNets sets the lazy margin (SetNetLazy) and each network of nets for
// its family (SetNet); the families without one keep their evaluation.
func (e *Engine) SetNets(nets []*nnue.Net, lazy int) error {
	if err := e.SetNetLazy(lazy); err != nil {
		return err
	}
	for _, n := range nets {
		if err := e.SetNet(n.Family, n); err != nil {
			return err
		}
	}
	return nil
}

// MaxNetLazy is the largest margin SetNetLazy takes: 100 seeds.
const MaxNetLazy = 10000

// DefaultNetLazy is the margin the protocol's EvalLazy and the command
// line's --evallazy start with: 12 seeds, the margin of the SPRTs that
// measured the networks at 10+0.1 (docs/nnue.md). An Engine starts with
// 0 (SetNetLazy).
const DefaultNetLazy = 1200

// SetNetLazy makes a search with a network evaluate lopsided positions
// with the linear evaluation: a position whose linear score is beyond
// ± margin (hundredths of a seed) is scored by it, the network is not
// run. 0, the default, always runs the network. The linear evaluation
// is computed first (after the evaluation cache, which holds only the
// network's scores), so it pays where the network costs much more.
// Like SetNet, it is called between searches.
func (e *Engine) SetNetLazy(margin int) error {
	if margin < 0 || margin > MaxNetLazy {
		return fmt.Errorf("search: lazy margin %d: want 0 to %d", margin, MaxNetLazy)
	}
	e.netLazy = margin
	return nil
}

// searchNet returns the network a search of family f within lim
// evaluates with: the engine's (Net), except in a search at a strength
// level (Limits.Skill not nil, FullSkill included), which evaluates with
// the linear evaluation, on which the levels' budgets and errors and the
// Elo ladders UCI_Elo maps onto were measured (docs/strength.md): a
// network, stronger a node, would make every level stronger than its
// calibration says.
func (e *Engine) searchNet(f board.Family, lim Limits) *nnue.Net {
	if lim.Skill != nil {
		return nil
	}
	return e.Net(f)
}

// Net returns the network the engine evaluates family f with, or nil for
// the linear evaluation.
func (e *Engine) Net(f board.Family) *nnue.Net {
	if f != board.Katro && f != board.Hoyito {
		return nil
	}
	return e.nets[f]
}

// useNet sets the network of a search (nil for the linear evaluation)
// and its lazy margin (SetNetLazy), after reset. The accumulators are
// emptied: they may hold another board's positions.
func (s *searcher) useNet(n *nnue.Net, lazy int) error {
	s.net.on, s.net.lazy = false, lazy
	if n == nil || !n.Evaluates(s.root.Variant()) {
		return nil
	}
	m, err := nnue.NewModel(n, s.root.Variant())
	if err != nil {
		return err
	}
	s.net.m, s.net.on = m, true
	for i := range s.net.accs {
		s.net.accs[i].Invalidate()
	}
	clear(s.net.cache[:])
	return nil
}

// network returns the search's network, or nil.
func (n *netEval) network() *nnue.Net {
	if !n.on {
		return nil
	}
	return n.m.Net()
}

// evaluate returns the static evaluation of pos, at ply, for its side to
// move: the network's or the linear evaluation's.
func (s *searcher) evaluate(pos *board.Position, ply int) int {
	if !s.net.on {
		return s.ev.Evaluate(pos)
	}
	// The cache holds only the network's scores, of positions the
	// linear evaluation put within the lazy margin, so it is read first.
	key := pos.Key()
	e := &s.net.cache[key&(evalCacheSize-1)]
	if e.ok && e.key == key {
		return int(e.score)
	}
	if s.net.lazy > 0 {
		if v := s.ev.Evaluate(pos); v > s.net.lazy || v < -s.net.lazy {
			return v
		}
	}
	a := &s.net.accs[ply]
	if ply > 0 {
		s.net.m.UpdateFrom(a, &s.net.accs[ply-1], pos)
	} else {
		s.net.m.Update(a, pos)
	}
	v := s.net.m.Evaluate(a, pos.Side())
	*e = evalEntry{key: key, score: int32(v), ok: true}
	return v
}
