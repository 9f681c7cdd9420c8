package gui

import (
	"fmt"
	"math"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/review/marks"
	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// reviewRun is a game review under way: an engine searches every
// position of the game, from the start to the last, over the protocol
// (as sower review does with its own search), and each ply is judged by
// package bench/review/marks.
type reviewRun struct {
	stop        chan struct{} // closed to cancel
	engine      string
	kind, value string // the budget a position, as asked (reviewLimit)
	done        int    // positions searched
	total       int    // the game's positions
	plies       []record.MoveReview
	info        reviewInfo
	// paused is whether play was paused before the review, which pauses
	// it while it runs: its end leaves play as it was.
	paused bool
}

// reviewInfo is what the page shows of a review that a record does not
// keep: its engine and budget, and for every position searched (from the
// start) the engine's move and the win, draw and loss chances it sent,
// from South's view.
type reviewInfo struct {
	engine string
	budget string // "1000 ms a position", "depth 24"; "" for a review read from a record
	pos    []reviewPos
}

// reviewPos is the review's search of one position.
type reviewPos struct {
	best string
	wdl  *[3]int
}

// reviewMsg is the review as the page shows it: under way (Running, with
// Done of Total positions searched) or finished, the plies reviewed (the
// marks themselves are on the moves, plyMsg.Review) and each side's
// counts of every mark (South first).
type reviewMsg struct {
	Running bool              `json:"running"`
	Engine  string            `json:"engine,omitempty"` // "" for a review read from a record
	Done    int               `json:"done"`
	Total   int               `json:"total"`
	Plies   int               `json:"plies"`
	Counts  [2]map[string]int `json:"counts"`
	// Budget is the search of every position ("1000 ms a position",
	// "depth 24"), "" for a review read from a record.
	Budget string `json:"budget"`
	// Accuracy is each side's accuracy (accuracy.go), South first; nil
	// for a side none of whose moves were reviewed.
	Accuracy [2]*float64 `json:"accuracy"`
	// AvgLoss is each side's average loss (averageLosses), South first,
	// in points of win chance (Katro) or seeds of margin (Hoyito III).
	AvgLoss [2]*float64 `json:"avgLoss"`
	// Best is the engine's move in each position reviewed, from the
	// start ("" when unknown), for the page's arrows.
	Best []string `json:"best"`
}

// startReview starts reviewing the whole game with engine r.Engine (the
// analysis engine if none) at a budget per position: r.LimitKind movetime
// (milliseconds, 1000 if empty) or depth. Analysis stops (turning it on
// again cancels the review), play pauses, and the game may not be waiting
// for an engine's move.
func (s *session) startReview(r request) error {
	name := r.Engine
	if name == "" {
		name = s.an.Engine
	}
	if _, ok := s.srv.engineNamed(name); !ok {
		return fmt.Errorf("review: no engine named %q", name)
	}
	kind := r.LimitKind
	if kind == "" {
		kind = "movetime"
	}
	lim, err := reviewLimit(kind, r.LimitValue)
	if err != nil {
		return err
	}
	if s.job != nil && s.job.kind == "move" {
		return fmt.Errorf("review: an engine is thinking about its move; pause first")
	}
	s.stopReview()
	s.an.On = false
	s.stopJob()
	run := &reviewRun{engine: name, kind: kind, value: r.LimitValue, paused: s.paused}
	run.info = reviewInfo{engine: name, budget: budgetText(lim.MoveTime.Milliseconds(), lim.Depth)}
	s.paused = true
	s.runReview(run)
	return nil
}

// reviewLimit reads a review's budget a position: movetime or depth.
func reviewLimit(kind, value string) (timecontrol.Limit, error) {
	if kind != "movetime" && kind != "depth" {
		return timecontrol.Limit{}, fmt.Errorf("review limit %q: want movetime or depth", kind)
	}
	lim, err := parseLimit(kind, value)
	if err != nil {
		return lim, fmt.Errorf("review: %v", err)
	}
	return lim, nil
}

// runReview runs review run from the first position it has not judged
// (the start, or where a review restored from a saved state stood).
func (s *session) runReview(run *reviewRun) {
	lim, _ := reviewLimit(run.kind, run.value) // checked by the caller
	from := len(run.plies)
	run.stop, run.total, run.done = make(chan struct{}), len(s.moves)+1, from
	for len(run.info.pos) < from {
		run.info.pos = append(run.info.pos, reviewPos{}) // searched before a restore: unknown
	}
	run.info.pos = run.info.pos[:from]
	s.rev = run
	req := client.Go{MoveTime: lim.MoveTime, Depth: lim.Depth, Stop: run.stop}
	if lim.MoveTime > 0 {
		// As long as a move may take (a depth has no bound: Cancel).
		req.Wait = lim.MoveTime + s.srv.cfg.Timeout
	}
	start, moves := s.start, append([]board.Move(nil), s.moves...)
	sl := s.slotFor(run.engine)
	opts, gameID := s.gameOptions(), s.gameID
	s.jobs.Add(1)
	go func() {
		defer s.jobs.Done()
		s.reviewGame(run, sl, gameID, opts, start, moves, from, req)
	}()
}

// reviewGame searches every position of the game from start along moves,
// from position from on (in its own goroutine), handing each judged ply
// to the loop; a fault or a cancel ends it.
func (s *session) reviewGame(run *reviewRun, sl *slot, gameID int, opts []client.Option, start board.Position, moves []board.Move, from int, req client.Go) {
	f := start.Variant().Family()
	th := marks.ThresholdsFor(f)
	g := board.NewGame(start)
	for _, m := range moves[:from] {
		g.Play(m) // legal: checked when played
	}
	var prev marks.View
	for i := from; i <= len(moves); i++ {
		var pf proof
		req.Each = func(line string) { pf.read(line) }
		view, wdl, fault := s.reviewPosition(sl, gameID, opts, g, req, &pf)
		if fault != nil {
			s.post(func() {
				if s.rev == run && fault.Kind != client.Aborted {
					s.endReview()
					s.say("The review stopped: engine %s %s. The game is as it was.", run.engine, fault.Detail)
					s.update()
				}
			})
			return
		}
		var ply *record.MoveReview
		if i > from {
			pr := marks.Judge(f, th, &prev, &view, moves[i-1].String())
			ply = &pr
		}
		last := i == len(moves)
		pos := reviewPos{best: view.Move, wdl: wdl}
		s.post(func() { s.reviewed(run, ply, pos, last) })
		if !last {
			g.Play(moves[i]) // legal: checked when played
		}
		prev = view
	}
}

// reviewed takes one position's judgement (ply, nil for the start) of
// review run; after the last, the review replaces the game's.
func (s *session) reviewed(run *reviewRun, ply *record.MoveReview, pos reviewPos, last bool) {
	if s.rev != run {
		return // cancelled, or the game changed
	}
	run.done++
	run.info.pos = append(run.info.pos, pos)
	if ply != nil {
		run.plies = append(run.plies, *ply)
	}
	if last {
		s.review, s.revInfo = run.plies, run.info
		s.endReview()
	}
	s.update()
}

// stopReview cancels a review under way; the game's review stays as it
// was.
func (s *session) stopReview() {
	if s.rev != nil {
		close(s.rev.stop)
		s.endReview()
	}
}

// endReview ends the review under way, done or not: play is paused again
// only if it was before the review.
func (s *session) endReview() {
	if !s.rev.paused {
		s.paused = false
	}
	s.rev = nil
}

// reviewPosition returns the engine's view of g's position: searched
// within req, or for a finished game its result.
// The engine's win, draw and loss chances come too, from South's view,
// when it sent them.
func (s *session) reviewPosition(sl *slot, gameID int, opts []client.Option, g *board.Game, req client.Go, pf *proof) (marks.View, *[3]int, *client.Fault) {
	p := g.Position()
	f := p.Variant().Family()
	if st := g.Status(); st.Over() {
		return finishedView(f, p.Side(), st), nil, nil
	}
	r, fault, _ := sl.work(s.ctx, s.srv, gameID, opts, 1, g, req, func(int) {})
	if fault == nil {
		select {
		case <-req.Stop:
			fault = &client.Fault{Kind: client.Aborted, Detail: "stopped"}
		default:
		}
	}
	if fault != nil {
		return marks.View{}, nil, fault
	}
	var wdl *[3]int
	if e := southEval(r.Info, p.Side()); e != nil {
		wdl = e.WDL
	}
	return searchedView(f, p.Side(), r, pf.proves(r.Info)), wdl, nil
}

// finishedView is a finished game's view: its result, proven.
func finishedView(f board.Family, side board.Side, st board.Status) marks.View {
	v := marks.View{Side: side, Proven: true}
	if f == board.Hoyito {
		d := st.Seeds[side] - st.Seeds[side.Other()]
		v.Value = float64(d)
		south := st.Seeds[board.South] - st.Seeds[board.North]
		south *= 100
		v.CP = &south
	} else {
		v.Value = 0.5
		if w, ok := st.Result.Winner(); ok {
			v.Value = 0
			if w == side {
				v.Value = 1
			}
		}
	}
	d := v.Value
	if f == board.Katro {
		d -= 0.5
	}
	v.Outcome = marks.ProvenDraw
	if d > 0 {
		v.Outcome = marks.ProvenWin
	} else if d < 0 {
		v.Outcome = marks.ProvenLoss
	}
	return v
}

// searchedView is the view of a searched position, from the engine's
// last info line and best move; proven says the score is one the engine
// proved ("info string proven"). As package bench/review reads a search:
// a Katro mate score is a proven result unless its bound says it may be
// less; a proven score is certain; any other is an estimate, its value
// the engine's wdl (the expected score) if it sent one, else the family's
// built-in model of the score; a Hoyito III score is its margin.
func searchedView(f board.Family, side board.Side, r client.Reply, proven bool) marks.View {
	in := r.Info
	v := marks.View{Side: side, Move: r.Move, Line: in.PV, Depth: in.Depth}
	switch {
	case in.IsMate && in.Mate > 0 && (proven || in.Bound != "upperbound"):
		v.Outcome = marks.ProvenWin
	case in.IsMate && in.Mate <= 0 && (proven || in.Bound != "lowerbound"):
		v.Outcome = marks.ProvenLoss
	case proven && in.CP == 0:
		v.Outcome = marks.ProvenDraw
	case proven && in.CP > 0:
		v.Outcome = marks.ProvenWin
	case proven:
		v.Outcome = marks.ProvenLoss
	}
	if f == board.Hoyito {
		v.Value = float64(in.CP) / 100
	} else {
		switch v.Outcome {
		case marks.ProvenWin:
			v.Value = 1
		case marks.ProvenDraw:
			v.Value = 0.5
		case marks.ProvenLoss:
			v.Value = 0
		default:
			if in.HasWDL {
				w := in.WDL
				v.Value = (float64(w[0]) + float64(w[1])/2) / 1000
			} else {
				// The page's own estimate for an engine without wdl
				// (assets/scores.js, squash): the GUI knows engines only
				// through the protocol, not Sower's evaluation.
				v.Value = 1 / (1 + math.Exp(-float64(in.CP)/katroSquash))
			}
		}
	}
	v.Proven = v.Outcome != marks.Unproven
	if e := southEval(in, side); e != nil {
		v.CP, v.Mate = e.CP, e.Mate
	}
	return v
}

// reviewState is the review as the page is sent it, nil when the game
// has none.
func (s *session) reviewState() *reviewMsg {
	var m reviewMsg
	plies := s.review
	switch {
	case s.rev != nil:
		m.Running, m.Engine, m.Done, m.Total = true, s.rev.engine, s.rev.done, s.rev.total
		plies = s.rev.plies
	case len(s.review) == 0:
		return nil
	}
	m.Plies = len(plies)
	m.Counts = marks.Counts(s.start, s.moves, plies)
	info := s.revInfo
	if s.rev != nil {
		info = s.rev.info
	}
	m.Engine, m.Budget = info.engine, info.budget
	for _, p := range info.pos {
		m.Best = append(m.Best, p.best)
	}
	m.Accuracy = accuracies(s.v.Family(), s.start, s.moves, plies)
	m.AvgLoss = averageLosses(s.v.Family(), s.start, s.moves, plies)
	return &m
}

// plyReview is ply i's review as shown: the review under way's, else the
// game's.
func (s *session) plyReview(i int) *record.MoveReview {
	plies := s.review
	if s.rev != nil && len(s.rev.plies) > i {
		plies = s.rev.plies
	}
	if i < len(plies) {
		pr := plies[i]
		return &pr
	}
	return nil
}

// keepReview drops the review of the plies from n on (the game was cut
// there) and cancels a review under way.
func (s *session) keepReview(n int) {
	s.stopReview()
	if n < len(s.review) {
		s.review = s.review[:n]
	}
	if n+1 < len(s.revInfo.pos) {
		s.revInfo.pos = s.revInfo.pos[:n+1] // the position after n plies stays
	}
	if len(s.review) == 0 {
		s.revInfo = reviewInfo{}
	}
}

// readReview takes the review of a record's plies, as far as they were
// all reviewed.
// The engine's move is known where the record gives a better move, or
// marks the move played the best.
func (s *session) readReview(rec *record.GameRecord) {
	s.review, s.revInfo = nil, reviewInfo{}
	for _, m := range rec.Moves {
		if m.Review == nil {
			break
		}
		s.review = append(s.review, *m.Review)
		best := m.Review.Best
		if m.Review.Mark == marks.Best {
			best = m.Move
		}
		s.revInfo.pos = append(s.revInfo.pos, reviewPos{best: best})
	}
}

// writeReview puts the game's review into its record.
func (s *session) writeReview(rec *record.GameRecord) {
	for i := range s.review {
		if i < len(rec.Moves) {
			pr := s.review[i]
			rec.Moves[i].Review = &pr
		}
	}
}

// reviewPly puts ply i's review on its message, and the review's score
// after it as the ply's score (the graph then shows the whole game at one
// budget).
func (s *session) reviewPly(pm *plyMsg, i int) {
	pr := s.plyReview(i)
	if pr == nil {
		return
	}
	pm.Review = pr
	if pr.CP != nil || pr.Mate != nil {
		pm.Play, pm.PlayDepth = pm.Eval, pm.Depth
		pm.Eval = &evalMsg{CP: pr.CP, Mate: pr.Mate, Proven: pr.Proven && pr.CP != nil}
		pm.Depth = pr.Depth
		if pos := s.reviewedPos(i + 1); pos != nil && pr.CP != nil && !pr.Proven {
			pm.Eval.WDL = pos.wdl
		}
	}
}

// reviewedPos is the review's search of the position after n plies, the
// review under way's or else the game's; nil if none.
func (s *session) reviewedPos(n int) *reviewPos {
	info := s.revInfo
	if s.rev != nil && len(s.rev.info.pos) > n {
		info = s.rev.info
	}
	if n < len(info.pos) {
		return &info.pos[n]
	}
	return nil
}

// budgetText writes a review's budget: a move time in milliseconds or a
// depth.
func budgetText(ms int64, depth int) string {
	if depth > 0 {
		return fmt.Sprintf("depth %d", depth)
	}
	return fmt.Sprintf("%d ms a position", ms)
}

// katroSquash is the scale of the logistic that turns a Katro score
// without wdl into South's expected score, as the page's (scores.js).
const katroSquash = 500
