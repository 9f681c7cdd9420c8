package search

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// DefaultProverMiB is the size of the Katro prover's table.
const DefaultProverMiB = 64

// proverShare sets the one-thread prover's budget: after each iteration it
// searches one df-pn node for every proverShare nodes the alpha-beta
// search made since the last slice (a df-pn node plays its children's
// moves and evaluates those that tie, and costs some seven alpha-beta
// nodes: about a fifth of the main thread's time, docs/dfpn.md, "The
// prover in play"). The budget is in nodes, not time, so that searches
// limited by nodes or depth stay reproducible; a slice of fewer than
// minSlice nodes is not run.
const (
	proverShare = 32
	minSlice    = 512
)

// SetProver turns the Katro prover on or off for the next searches: a
// df-pn proof search of the root (package dfpn) beside the alpha-beta
// search, between the main thread's iterations for about a fifth of
// their time (a budget in nodes, see proverShare), or on a thread of its
// own with SetProverThread. It searches as sower solve does (dfpn.Config's
// zero value). A root it proves is reported as the proven win or loss
// (Info.Proven, Callbacks.Proven), a clock-managed search ends on a
// proven win, and the search plays the proof's move: a winning move in a
// proven win, the longest defence along the proof in a proven loss. Off
// by default; its table (DefaultProverMiB) lives as long as the engine,
// so proofs carry over between the moves of a game.
func (e *Engine) SetProver(on bool) {
	e.proverOn = on
	if on && e.solver == nil {
		// Made now, not at the first search, whose clock would pay for
		// clearing the table.
		e.solver, _ = dfpn.New(dfpn.Config{HashMiB: DefaultProverMiB})
	}
}

// SetProverThread gives the prover a thread of its own when Threads is 2
// or more, one of them (the Lazy SMP helpers are one fewer), instead of
// slices of the main thread's time. Off by default: in Katro 6x6 matches
// at 10+0.1 with two threads, the thread cost more strength than its
// proofs won (docs/dfpn.md). Like SetThreads, it is called between
// searches.
func (e *Engine) SetProverThread(on bool) { e.proverThread = on }

// prover is the df-pn search that runs beside one alpha-beta search.
type prover struct {
	solver  *dfpn.Solver
	root    board.Position
	history []uint64
	// The thread mode: the goroutine's context, its end, and its result
	// (written before done is closed; finished is set with it).
	cancel   context.CancelFunc
	done     chan struct{}
	finished atomic.Bool
	res      dfpn.Result
	// sliced: the prover runs between the main thread's iterations.
	sliced bool
	spent  uint64 // the alpha-beta nodes paid for by earlier slices
	ctx    context.Context
	// reported: the proof was reported during the search; line is the
	// proof's line as read from the solver's table (one-thread mode,
	// where the table may be read between iterations).
	reported bool
	line     []board.Move
}

// startProver starts the prover for a Katro search, or returns nil when
// it is off or does not apply (another game, several lines, a weakened
// search, a restricted root, a finished game).
func (e *Engine) startProver(ctx context.Context, s *searcher, lim Limits) *prover {
	if !e.proverOn || s.family != board.Katro || lim.MultiPV > 1 || lim.Skill.weak() || len(lim.SearchMoves) > 0 || s.root.Status(s.keys).Over() {
		return nil
	}
	if e.solver == nil {
		return nil
	}
	p := &prover{solver: e.solver, root: s.root, history: append([]uint64(nil), s.keys...), ctx: ctx}
	if e.Threads() < 2 || !e.proverThread {
		p.sliced = true
		return p
	}
	pctx, cancel := context.WithCancel(ctx)
	p.cancel, p.done = cancel, make(chan struct{})
	e.solver.SetMaxNodes(0)
	go func() {
		defer close(p.done)
		res, err := p.solver.Solve(pctx, p.root, p.history, nil)
		if err == nil {
			p.res = res
			p.finished.Store(true)
		}
	}()
	return p
}

// proved returns the root's proven outcome once the prover has one.
func (p *prover) proved() (dfpn.Result, bool) {
	if p == nil || !p.finished.Load() {
		return dfpn.Result{}, false
	}
	return p.res, p.res.Outcome == dfpn.Win || p.res.Outcome == dfpn.Loss
}

// slice runs the one-thread prover after an iteration that brought the
// alpha-beta search to nodes: one df-pn node for every proverShare
// alpha-beta nodes since the last slice, and not past deadline (the
// search's hard time limit, or zero for a search without a clock).
func (p *prover) slice(nodes uint64, deadline time.Time) {
	if p == nil || !p.sliced || p.finished.Load() {
		return
	}
	budget := (nodes - p.spent) / proverShare
	if budget < minSlice {
		return
	}
	p.spent = nodes
	p.solver.SetMaxNodes(budget)
	ctx := p.ctx
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	res, err := p.solver.Solve(ctx, p.root, p.history, nil)
	if err == nil && res.Outcome != dfpn.Unknown {
		p.res = res
		p.finished.Store(true)
		if res.Outcome == dfpn.Win || res.Outcome == dfpn.Loss {
			p.line = p.solver.Line(p.root, res.Winner)
		}
	}
}

// stop ends the prover's thread and waits for it, so that its table may
// be read.
func (p *prover) stop() {
	if p == nil || p.cancel == nil {
		return
	}
	p.cancel()
	<-p.done
}

// proverStops reports whether the prover's result ends the search now: a
// proven win, in a search that ends on proofs.
func (s *searcher) proverStops() bool {
	res, ok := s.pr.proved()
	return ok && res.Outcome == dfpn.Win && s.stopsEarly()
}

// proverDeadline is the end of the prover's slices: the search's hard
// time limit when it has one.
func (s *searcher) proverDeadline() time.Time {
	if !s.timed || s.pondering {
		return time.Time{}
	}
	return s.clockStart.Add(s.hard)
}

// reportProver reports the prover's proof as soon as the search sees it
// (after an iteration): the proven score as an Info line with the proof's
// line, and the Proof. The search goes on under its limits.
func (s *searcher) reportProver() {
	res, ok := s.pr.proved()
	if !ok || s.pr.reported || (s.proven && s.provenScore.Decisive()) {
		return
	}
	s.pr.reported = true
	s.prove(res, res.Plies, s.pr.line)
}

// applyProof makes the search's answer follow the prover's proof, once the
// prover has stopped: a winning move in a proven win, the longest defence
// along the proof in a proven loss, reported as the last Info (and as a
// Proof if not yet reported). A result the search has proven itself is
// kept (its distances are exact); one only the prover proved is applied
// even when the prover has reported it already (a later iteration may
// have reported a score short of it since, or moved another move first).
func (s *searcher) applyProof(best board.Move) board.Move {
	res, ok := s.pr.proved()
	if !ok || s.searchProved {
		return best
	}
	sv := s.pr.solver
	move, plies := best, res.Plies
	switch res.Outcome {
	case dfpn.Win:
		if m, d, ok := sv.WinningMove(s.ctx, &s.root); ok {
			move, plies = m, d
		}
	case dfpn.Loss:
		if m, d, ok := sv.LongestDefence(&s.root); ok {
			move, plies = m, d
		}
	}
	s.pr.line = sv.Line(s.root, res.Winner)
	if len(s.pr.line) == 0 || s.pr.line[0] != move {
		s.pr.line = []board.Move{move}
	}
	s.prove(res, plies, s.pr.line)
	return move
}

// prove reports a prover's result of plies with its line.
func (s *searcher) prove(res dfpn.Result, plies int, line []board.Move) {
	score := KatroWin(plies)
	if res.Outcome == dfpn.Loss {
		score = -score
	}
	if len(line) > 0 {
		s.bestPV = append(s.bestPV[:0], line...)
	}
	s.partial.valid = false
	depth := max(s.completed, 1)
	s.emit(depth, score, BoundExact, true)
	if s.proven && s.provenScore == score {
		return
	}
	s.proven, s.provenScore = true, score
	if s.cb.Proven != nil {
		s.cb.Proven(Proof{Family: s.family, Depth: depth, Score: score, Plies: plies})
	}
}
