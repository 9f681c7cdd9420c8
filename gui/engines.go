package gui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// job is an engine at work for the session: a move or an analysis.
type job struct {
	gen    int
	kind   string // "move" or "analysis"
	key    string // what it works on; a change of key restarts it
	stop   chan struct{}
	engine string
	side   board.Side
	move   timecontrol.Move // a move's request and time (kind "move")
}

// slot is one engine process of a session; jobs take its lock while they
// use it.
type slot struct {
	warmed bool // a start was asked for ahead of the first job (loop only)

	mu     sync.Mutex
	spec   Engine
	e      *client.Engine
	gameID int    // the game its last ucinewgame was for
	opts   string // the game's options as last sent
}

// stopJob stops the engine's work, if any; its answer will be ignored.
func (s *session) stopJob() {
	if s.job != nil {
		close(s.job.stop)
		s.job = nil
	}
}

// slotFor returns the session's slot for an engine.
func (s *session) slotFor(name string) *slot {
	sl := s.slots[name]
	if sl == nil {
		spec, _ := s.srv.engineNamed(name)
		sl = &slot{spec: spec}
		s.slots[name] = sl
	}
	return sl
}

// warm starts an engine's process ahead of its first move, so that its
// start-up time does not count against that move.
func (s *session) warm(name string) {
	sl := s.slotFor(name)
	if sl.warmed {
		return
	}
	sl.warmed = true
	s.jobs.Add(1)
	go func() {
		defer s.jobs.Done()
		sl.mu.Lock()
		defer sl.mu.Unlock()
		if sl.e == nil && s.ctx.Err() == nil {
			sl.start(s.ctx, s.srv) // a failure is reported by the first job
		}
	}()
}

// gameOptions are the options the engines get for this game.
func (s *session) gameOptions() []client.Option {
	opts := record.GameOptions(s.v)
	if o, ok := s.srv.tablePath(s.v); ok {
		opts = append(opts, o)
	}
	return opts
}

// startJob starts the engine's work on game g: a move for side, or an
// analysis.
func (s *session) startJob(kind, key string, g *board.Game, side board.Side) {
	s.gen++
	j := &job{gen: s.gen, kind: kind, key: key, stop: make(chan struct{}), side: side}
	req := client.Go{Stop: j.stop}
	multipv := 1
	if kind == "analysis" {
		j.engine = s.an.Engine
		req.Infinite = true
		multipv = s.an.MultiPV
	} else {
		j.engine = s.players[side]
		// As sower match asks for a move: the same request, wait and
		// margin from the same limit.
		j.move = timecontrol.NewMove([2]timecontrol.Limit{s.limit, s.limit}, s.clocks, side, timeMargin, s.srv.cfg.Timeout)
		req = j.move.Go
		req.Stop = j.stop
	}
	fen := g.Position()
	fenText := fen.String()
	var pf proof // Each runs in the job's goroutine, before Think returns
	req.Each = func(line string) {
		if pf.read(line) {
			return
		}
		var in client.Info
		in.Parse(line)
		if !in.HasDepth || !in.HasScore {
			// Not a line of the analysis: "info string …", or a root
			// move report ("info depth D currmove M currmovenumber N").
			return
		}
		proven := pf.proves(in)
		s.post(func() {
			if s.job != nil && s.job.gen == j.gen {
				m := infoOf(j, in, proven, fenText, fen.Side())
				if j.kind == "analysis" {
					s.keepInfo(m)
				}
				s.send(m)
			}
		})
	}
	s.job = j
	sl := s.slotFor(j.engine)
	opts, gameID := s.gameOptions(), s.gameID
	s.jobs.Add(1)
	go func() {
		defer s.jobs.Done()
		ready := func(mpv int) { s.post(func() { s.multiPV(j.engine, mpv) }) }
		r, f, up := sl.work(s.ctx, s.srv, gameID, opts, multipv, g, req, ready)
		proven := pf.proves(r.Info)
		s.post(func() { s.jobDone(j, r, proven, f, up) })
	}()
}

// infoOf turns an info line into its message.
func infoOf(j *job, in client.Info, proven bool, fen string, mover board.Side) infoMsg {
	m := infoMsg{Type: "info", Gen: j.gen, Engine: j.engine, MultiPV: max(in.MultiPV, 1), Depth: in.Depth, SelDepth: in.SelDepth,
		Bound: in.Bound, Nodes: in.Nodes, NPS: in.NPS, TimeMS: in.TimeMS, PV: in.PV, Fen: fen}
	switch {
	case in.IsMate:
		m.Score = "mate " + strconv.Itoa(in.Mate)
	case in.HasScore:
		m.Score = "cp " + strconv.Itoa(in.CP)
	}
	if in.HasWDL {
		w := in.WDL
		m.WDL = &w
	}
	m.Eval = southEval(in, mover)
	if m.Eval != nil && proven {
		m.Eval.Proven = true
	}
	if m.PV == nil {
		m.PV = []string{}
	}
	return m
}

// work runs one job on the slot's engine, starting it if needed, and
// returns the reply or a fault, and whether an engine process is running
// afterwards (after a fault, a fresh one). ready gets the number of lines
// the engine offers (its MultiPV maximum, 1 without the option) before
// the search.
func (sl *slot) work(ctx context.Context, srv *Server, gameID int, opts []client.Option, multipv int, g *board.Game, req client.Go, ready func(mpv int)) (client.Reply, *client.Fault, bool) {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if sl.e == nil {
		if f := sl.start(ctx, srv); f != nil {
			return client.Reply{}, &client.Fault{Kind: f.Kind, Detail: "could not start: " + f.Detail}, false
		}
	}
	opts = withoutUnknown(sl.e, opts)
	mpv := 1
	d, hasMPV := sl.e.HasOption("MultiPV")
	if hasMPV {
		mpv = max(d.Max, 1)
		opts = append(opts, client.Option{Name: d.Name, Value: strconv.Itoa(max(1, min(multipv, mpv)))})
	}
	if d, ok := sl.e.HasOption("UCI_ShowWDL"); ok && d.Type == "check" {
		// Win, draw and loss chances for the page's main figure; an
		// engine without the option gets no setoption for it.
		opts = append(opts, client.Option{Name: d.Name, Value: "true"})
	}
	ready(mpv)
	var f *client.Fault
	key := fmt.Sprint(opts)
	switch {
	case sl.gameID != gameID:
		f = sl.e.NewGame(ctx, opts)
		sl.gameID = gameID
	case sl.opts != key:
		f = sl.e.SetOptions(opts)
	}
	sl.opts = key
	var r client.Reply
	if f == nil {
		select {
		case <-req.Stop:
			return r, nil, true // stopped before it began
		default:
		}
		r, f = sl.e.Think(ctx, g, req)
	}
	if f != nil && f.Kind != client.Aborted {
		sl.restart(ctx, srv, f)
	}
	return r, f, sl.e != nil
}

// restart replaces an engine whose state is unknown after fault f with a
// fresh process, noting in f if that fails (the next job tries again).
func (sl *slot) restart(ctx context.Context, srv *Server, f *client.Fault) {
	sl.e.Close(0)
	sl.e = nil
	if f2 := sl.start(ctx, srv); f2 != nil {
		f.Detail += "; restarting it failed: " + f2.Detail
	}
}

// start starts the slot's engine (its lock held). The log names the
// process by the engine and a number counted over the server's life,
// "sower(3)", so that the processes of one engine (several pages, a
// restart) can be told apart; a log that cannot be written is noted once.
func (sl *slot) start(ctx context.Context, srv *Server) *client.Fault {
	label := fmt.Sprintf("%s(%d)", sl.spec.Name, srv.procs.Add(1))
	e, f := client.Start(ctx, client.Spec{Name: label, Command: sl.spec.Command}, srv.cfg.Timeout, srv.log)
	if err := srv.log.Err(); err != nil {
		srv.logBad.Do(func() { srv.note("writing the engine log: %v; the log is stopped", err) })
	}
	if f != nil {
		return f
	}
	sl.e, sl.gameID, sl.opts = e, 0, ""
	return nil
}

// multiPV notes how many lines an engine offers.
func (s *session) multiPV(engine string, mpv int) {
	if s.maxMPV[engine] == mpv {
		return
	}
	s.maxMPV[engine] = mpv
	if engine == s.an.Engine {
		s.an.MaxMultiPV = mpv
		s.clampMultiPV()
		s.update()
	}
}

// jobDone takes an engine's answer, or its fault; proven says the
// answer's score is a proven result, up whether the engine's process runs
// after it.
func (s *session) jobDone(j *job, r client.Reply, proven bool, f *client.Fault, up bool) {
	current := s.job != nil && s.job.gen == j.gen
	if f != nil && f.Kind == client.Aborted {
		return
	}
	if f != nil && current {
		s.job = nil
		what := f.Detail
		if f.Kind == client.TimeOut && j.kind == "move" {
			what = j.move.NoAnswer() // as sower match says it
		}
		s.engineTrouble(j, what, up)
		s.update()
		return
	}
	if !current || j.kind != "move" {
		return
	}
	s.job = nil
	if late := j.move.Late(r.Elapsed); late != "" {
		// Over its time as sower match counts it: a forfeit there, engine
		// trouble here (the move is asked for again).
		s.engineTrouble(j, late, up)
		s.update()
		return
	}
	g := s.gameAt(s.view)
	m, err := s.v.ParseMove(r.Move)
	if err == nil {
		err = g.Play(m)
	}
	if err != nil {
		what := fmt.Sprintf("sent an illegal move: %q: %v", r.Move, err)
		if r.Move == "" || r.Move == board.NoMove.String() {
			what = fmt.Sprintf("sent bestmove %q but the game is not over", r.Move)
		}
		s.killEngine(j.engine)
		s.engineTrouble(j, what, true)
		s.update()
		return
	}
	s.settleClock()
	if s.step {
		s.step, s.paused = false, true
	}
	s.played(m, j.side, j.engine, r)
	s.proven[len(s.proven)-1] = proven
	s.update()
}

// killEngine replaces an engine's process (after an illegal move) with a
// fresh one.
func (s *session) killEngine(name string) {
	sl := s.slots[name]
	s.jobs.Add(1)
	go func() {
		defer s.jobs.Done()
		sl.mu.Lock()
		defer sl.mu.Unlock()
		if sl.e != nil {
			sl.restart(s.ctx, s.srv, &client.Fault{})
		}
	}()
}

// engineTrouble reports a fault; restarted says whether a fresh process
// has replaced the engine's (else it is started when next needed). The
// game is kept. After two faults in a row at one ply play pauses, so
// that a broken engine does not loop.
func (s *session) engineTrouble(j *job, what string, restarted bool) {
	s.faults++
	who := j.engine
	if j.kind == "move" {
		who += " (" + strings.ToLower(j.side.String()) + ")"
	}
	msg := fmt.Sprintf("Engine %s %s. The game is kept and the engine restarted.", who, what)
	if !restarted {
		msg = fmt.Sprintf("Engine %s %s. The game is kept; the engine will be started again when it is next needed.", who, what)
	}
	if j.kind == "move" && s.faults >= 2 {
		s.paused = true
		msg += " Play is paused: press Resume to try again."
	}
	if j.kind == "analysis" && s.faults >= 2 {
		s.an.On = false
		msg += " Analysis is off."
	}
	s.srv.note("engine %s: %s", j.engine, what)
	s.say("%s", msg)
}
