package search

import (
	"slices"
	"time"
)

// MultiPV: the search finds the best Limits.MultiPV root moves, each with
// an exact score and its own line, as Stockfish does. An iteration
// searches the root once per line: line k (pvIdx = k-1) searches only the
// moves not yet ranked, with an aspiration window around the score that
// move had in the previous iteration, and brings its best to place k.
// After the iteration the ranked moves are sorted by score (a later line
// may come out better than an earlier one when the table lets it see
// deeper), and reported in that order. At a root whose exact value the
// endgame tables give, the moves they prove value-keeping fill the first
// lines and rank first, whatever the others score (see markKeeping). With MultiPV 1 none of this runs:
// the search and its reports are the single-line search's.

// iterateMulti runs one iteration over every line and returns the best
// line's score. The ranked moves are sorted and their scores kept for the
// next iteration's windows, unless the search stopped.
func (s *searcher) iterateMulti(depth int) Score {
	for s.pvIdx = 0; s.pvIdx < s.multiPV; s.pvIdx++ {
		rm := &s.rootMoves[s.pvIdx]
		s.aspiration(depth, rm.prev)
		if s.stopped {
			s.pvIdx = 0
			return 0
		}
		if rm.pvLen == 0 || rm.pv[0] != rm.move {
			rm.pv[0], rm.pvLen = rm.move, 1 // no line beat the window's alpha
		}
	}
	s.pvIdx = 0
	ranked := s.rootMoves[:s.multiPV]
	slices.SortStableFunc(ranked, func(a, b rootMove) int {
		if c := keepsFirst(a, b); c != 0 {
			return c
		}
		return int(b.score) - int(a.score)
	})
	for i := range ranked {
		ranked[i].prev = ranked[i].score
	}
	s.keepSkillLines(depth)
	return ranked[0].score
}

// emitMulti reports the ranked lines of a completed iteration, best first;
// the best line becomes the search's last report.
func (s *searcher) emitMulti(depth int) {
	el := time.Since(s.start)
	nodes := s.totalNodes()
	s.bestPV = append(s.bestPV[:0], s.rootMoves[0].pv[:s.rootMoves[0].pvLen]...)
	for k := 0; k < s.multiPV; k++ {
		rm := &s.rootMoves[k]
		bound := s.proofBound(rm.score, BoundExact)
		_, proven := s.proof(depth, rm.score, bound)
		if rm.keeps {
			bound, proven = BoundExact, true // the tables prove the root's value for it
		}
		info := Info{
			Family:   s.family,
			WDLModel: s.wdl,
			Depth:    depth,
			SelDepth: max(s.seldepth, depth),
			Score:    rm.score,
			Bound:    bound,
			Proven:   proven,
			Nodes:    nodes,
			Time:     el,
			NPS:      nps(nodes, el),
			Hashfull: s.tt.Hashfull(),
			TBHits:   s.totalTBHits(),
			PV:       slices.Clone(rm.pv[:rm.pvLen]),
			MultiPV:  k + 1,
		}
		if k == 0 {
			s.last = info
		}
		if s.cb.Info != nil {
			s.cb.Info(info)
		}
	}
}
