package gui

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sower-engine/sower/bench/match"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// pingEvery is how often the server pings the page.
const pingEvery = 20 * time.Second

// timeMargin is how far past its clock or move time an engine may answer
// before it is said to have run out of time.
const timeMargin = time.Second

// maxNoCaptureLimit bounds the no-capture limit a page may ask for.
const maxNoCaptureLimit = 100000

// session is one game played over one WebSocket. Its state belongs to
// the loop goroutine (run); the reader and the engine jobs hand it work
// through post.
type session struct {
	srv  *Server
	conn *wsConn
	ctx  context.Context

	events chan func()
	quit   chan struct{} // closed when the loop ends
	jobs   sync.WaitGroup
	done   bool // the page has gone

	slots  map[string]*slot // engines started for this game, by name
	maxMPV map[string]int   // the MultiPV maximum each engine declared

	// The game: its variant, start, the moves played and for each who
	// made it, the engine's reply and the clocks after it.
	gameID  int
	v       *board.Variant
	start   board.Position
	moves   []board.Move
	replies []client.Reply
	by      []string
	clockAt [][2]time.Duration
	view    int // the ply shown

	players [2]string
	limit   limit
	clocks  [2]time.Duration
	running int // the side whose clock runs, -1 for none
	since   time.Time
	flag    *time.Timer // falls when a person's running clock runs out
	lost    *timeLoss   // a person's loss on time, if the game ended so
	paused  bool
	step    bool // play one engine move, then pause
	faults  int  // engine faults in a row at this ply
	an      analysis

	gen  int  // numbers the engine jobs
	job  *job // the job running, if any
	sent struct {
		gameID, view int
		counts       []int
		fen          string
	}
}

// limit is the engines' limit for a game.
type limit struct {
	kind     string // movetime, depth or tc
	value    string
	moveTime time.Duration
	depth    int
	base     time.Duration
	inc      time.Duration
}

// String writes the limit as records write it.
func (l limit) String() string {
	return l.kind + "=" + l.value
}

// timeLoss is a person's loss on time: side's clock ran out after ply
// plies, which ends the game there.
type timeLoss struct {
	ply  int
	side board.Side
}

// winner returns the side that won on time.
func (l *timeLoss) winner() board.Result {
	if l.side == board.South {
		return board.NorthWins
	}
	return board.SouthWins
}

// loser returns the losing side's name ("south" or "north").
func (l *timeLoss) loser() string {
	return strings.ToLower(l.side.String())
}

// job is an engine at work for the session: a move or an analysis.
type job struct {
	gen    int
	kind   string // "move" or "analysis"
	key    string // what it works on; a change of key restarts it
	stop   chan struct{}
	engine string
	side   board.Side
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

func newSession(srv *Server, c *wsConn) *session {
	s := &session{
		srv: srv, conn: c,
		events: make(chan func(), 64), quit: make(chan struct{}),
		slots: map[string]*slot{}, maxMPV: map[string]int{}, running: -1,
	}
	v, _ := board.New(board.NameKatro)
	s.v, s.start = v, v.Start()
	s.players = [2]string{"human", srv.cfg.Engines[0].Name}
	s.limit = limit{kind: "movetime", value: "1000", moveTime: time.Second}
	s.an = analysis{Engine: srv.cfg.Engines[0].Name, MultiPV: 1, MaxMultiPV: 1}
	return s
}

// post hands f to the loop; it is dropped once the loop has ended.
func (s *session) post(f func()) {
	select {
	case s.events <- f:
	case <-s.quit:
	}
}

// run serves the page until it leaves or ctx ends, then stops the
// engines.
func (s *session) run(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	s.ctx = ctx
	go func() {
		for {
			msg, err := s.conn.ReadMessage()
			if err != nil {
				s.post(func() { s.done = true })
				return
			}
			s.post(func() { s.handle(msg) })
		}
	}()
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	for !s.done {
		select {
		case f := <-s.events:
			f()
		case <-ping.C:
			s.conn.Ping()
		case <-ctx.Done():
			s.done = true
		}
	}
	s.stopJob()
	if s.flag != nil {
		s.flag.Stop()
	}
	cancel()
	s.conn.Close()
	close(s.quit)
	s.jobs.Wait()
	for _, sl := range s.slots {
		sl.mu.Lock()
		if sl.e != nil {
			sl.e.Close(100 * time.Millisecond)
			sl.e = nil
		}
		sl.mu.Unlock()
	}
}

// send writes a message to the page.
func (s *session) send(m any) {
	b, err := json.Marshal(m)
	if err != nil {
		panic(err) // our own types always marshal
	}
	if err := s.conn.WriteText(b); err != nil {
		s.done = true
	}
}

// say puts text in the page's #message ("" clears it).
func (s *session) say(format string, a ...any) {
	s.send(noteMsg{Type: "message", Text: fmt.Sprintf(format, a...)})
}

// handle acts on one message from the page.
func (s *session) handle(b []byte) {
	var r request
	if err := json.Unmarshal(b, &r); err != nil {
		s.say("bad message from the page: %v", err)
		return
	}
	if r.Type == "preview" {
		if err := s.preview(r.Fen, r.Moves); err != nil {
			s.say("%v", err)
		}
		return
	}
	var err error
	switch r.Type {
	case "new":
		err = s.newGame(r)
	case "setup":
		err = s.setup(r.Fen)
	case "move":
		err = s.humanMove(r.Move, r.Ply)
	case "goto":
		s.view = max(0, min(r.Ply, len(s.moves)))
	case "takeback":
		s.takeBack()
	case "resume":
		s.resumeHere()
	case "pause":
		s.paused, s.step = !s.paused, false
		s.faults = 0
	case "step":
		s.paused, s.step = true, true
		s.faults = 0
	case "analyse":
		err = s.setAnalysis(r)
	case "export":
		err = s.export(r.Format)
	case "import":
		err = s.importRecord(r.Text)
	case "hello":
	default:
		err = fmt.Errorf("unknown message type %q", r.Type)
	}
	if err != nil {
		s.say("%v", err)
	} else if r.Type != "export" && r.Type != "hello" {
		s.say("")
	}
	s.update()
}

// preview sends the position after moves from fen (a line of the
// analysis) without changing the game.
func (s *session) preview(fen, moves string) error {
	p, err := parseFen(s.v, fen)
	if err != nil {
		return err
	}
	g := board.NewGame(p)
	ms, err := s.v.ParseMoves(moves)
	if err == nil {
		err = g.PlayAll(ms)
	}
	if err != nil {
		return fmt.Errorf("line %s: %v", moves, err)
	}
	q := g.Position()
	m := previewMsg{Type: "preview", Fen: q.String(), Moves: moves, Captured: [2]int{q.Captured(board.South), q.Captured(board.North)}}
	for _, h := range s.v.Holes() {
		m.Counts = append(m.Counts, q.Count(h))
	}
	s.send(m)
	return nil
}

// gameAt replays the game to ply n.
func (s *session) gameAt(n int) *board.Game {
	g := board.NewGame(s.start)
	for _, m := range s.moves[:n] {
		g.Play(m) // legal: checked when played
	}
	return g
}

// parseLimit reads a limit from the page.
func parseLimit(kind, value string) (limit, error) {
	l := limit{kind: kind, value: strings.TrimSpace(value)}
	if l.value == "" {
		l.value = map[string]string{"movetime": "1000", "depth": "8", "tc": "60+1"}[kind]
	}
	switch kind {
	case "movetime":
		ms, err := strconv.ParseUint(l.value, 10, 32)
		if err != nil || ms == 0 {
			return l, fmt.Errorf("movetime %q: want a positive number of milliseconds", value)
		}
		l.moveTime = time.Duration(ms) * time.Millisecond
	case "depth":
		d, err := strconv.ParseUint(l.value, 10, 8)
		if err != nil || d == 0 {
			return l, fmt.Errorf("depth %q: want a positive number of plies", value)
		}
		l.depth = int(d)
	case "tc":
		tc, err := match.ParseTC(l.value)
		if err != nil {
			return l, err
		}
		l.base, l.inc = tc.Base, tc.Inc
	default:
		return l, fmt.Errorf("limit %q: want movetime, depth or tc", kind)
	}
	return l, nil
}

// player checks a player's name: human or one of the engines.
func (s *session) player(name, side string) (string, error) {
	switch {
	case name == "" && side == "south":
		return "human", nil
	case name == "":
		return s.srv.cfg.Engines[0].Name, nil
	case name == "human":
		return name, nil
	}
	if _, ok := s.srv.engineNamed(name); ok {
		return name, nil
	}
	return "", fmt.Errorf("%s: no engine named %q (the engines are %s)", side, name, strings.Join(s.srv.names(), ", "))
}

// newGame starts a game from a request; on any error nothing changes.
func (s *session) newGame(r request) error {
	name := r.Game
	if name == "" {
		name = board.NameKatro
	}
	rules := board.DefaultRules()
	var err error
	if r.CaptureSide != "" {
		if rules.CaptureSide, err = board.ParseCaptureSide(r.CaptureSide); err != nil {
			return err
		}
	}
	if r.LastFour != "" {
		if rules.LastFour, err = board.ParseLastFour(r.LastFour); err != nil {
			return err
		}
	}
	if n := r.NoCaptureLimit; n != nil {
		if *n < 0 || *n > maxNoCaptureLimit {
			return fmt.Errorf("no-capture limit %d: want 0 (off) to %d plies", *n, maxNoCaptureLimit)
		}
		rules.NoCaptureLimit = *n
	}
	v, err := board.NewWithRules(name, rules)
	if err != nil {
		return err
	}
	if r.Repetition != "" && v.Family() == board.Hoyito { // a Katro game keeps threefold
		if rules.Repetition, err = board.ParseRepetition(r.Repetition); err != nil {
			return err
		}
		if v, err = v.WithRules(rules); err != nil {
			return err
		}
	}
	var players [2]string
	if players[board.South], err = s.player(r.South, "south"); err != nil {
		return err
	}
	if players[board.North], err = s.player(r.North, "north"); err != nil {
		return err
	}
	kind := r.LimitKind
	if kind == "" {
		kind = "movetime"
	}
	lim, err := parseLimit(kind, r.LimitValue)
	if err != nil {
		return err
	}
	start := v.Start()
	if f := strings.TrimSpace(r.Fen); f != "" {
		if start, err = parseFen(v, f); err != nil {
			return err
		}
	}
	g := board.NewGame(start)
	if ms := strings.TrimSpace(strings.ReplaceAll(r.Moves, ",", " ")); ms != "" {
		for i, t := range strings.Fields(ms) {
			m, err := v.ParseMove(t)
			if err == nil {
				err = g.Play(m)
			}
			if err != nil {
				return fmt.Errorf("moves: move %d: %v", i+1, err)
			}
		}
	}
	s.stopJob()
	s.players, s.limit = players, lim
	s.begin(v, start, g.Moves())
	return nil
}

// parseFen reads a position as the protocol does, with its message.
func parseFen(v *board.Variant, f string) (board.Position, error) {
	p, err := v.ParsePosition(f)
	if err != nil {
		return p, fmt.Errorf("fen: %v (the game is %s)", err, v.Name())
	}
	return p, nil
}

// begin starts a game of v from start with moves already played (by
// people, as far as the record goes).
func (s *session) begin(v *board.Variant, start board.Position, moves []board.Move) {
	s.gameID++
	s.v, s.start = v, start
	s.moves = append([]board.Move(nil), moves...)
	s.replies = make([]client.Reply, len(moves))
	s.by = make([]string, len(moves))
	for i := range s.by {
		s.by[i] = "human"
	}
	s.clocks = [2]time.Duration{s.limit.base, s.limit.base}
	s.clockAt = make([][2]time.Duration, len(moves))
	for i := range s.clockAt {
		s.clockAt[i] = s.clocks
	}
	s.view = len(moves)
	s.running = -1
	s.lost = nil
	s.paused, s.step, s.faults = false, false, 0
}

// setup sets up a position from notation in the current game and rules;
// bad notation changes nothing.
func (s *session) setup(f string) error {
	p, err := parseFen(s.v, strings.TrimSpace(f))
	if err != nil {
		return err
	}
	s.stopJob()
	s.begin(s.v, p, nil)
	return nil
}

// humanMove plays a person's move at ply (the ply shown), cutting the
// game there if it went further.
func (s *session) humanMove(text string, ply int) error {
	if ply != s.view {
		return nil // the page had not caught up: its state follows
	}
	g := s.gameAt(s.view)
	if st := g.Status(); st.Over() {
		return fmt.Errorf("%s: the game is over (%s)", text, st.Reason)
	}
	if l := s.lostAt(s.view); l != nil {
		return fmt.Errorf("%s: the game is over (%s lost on time)", text, l.loser())
	}
	p := g.Position()
	side := p.Side()
	if !s.an.On && s.players[side] != "human" {
		return fmt.Errorf("%s: it is %s's turn (%s)", text, strings.ToLower(side.String()), s.players[side])
	}
	if s.running >= 0 && s.flagFell(board.Side(s.running)) {
		return nil // too late: the state shows the loss on time
	}
	m, err := s.v.ParseMove(text)
	if err == nil {
		err = g.Play(m)
	}
	if err != nil {
		return err
	}
	s.settleClock()
	s.cut(s.view)
	s.played(m, side, "human", client.Reply{})
	return nil
}

// cut drops the plies after n (resuming from an earlier position).
func (s *session) cut(n int) {
	if n >= len(s.moves) {
		return
	}
	s.stopJob()
	s.lost = nil
	s.moves, s.replies, s.by, s.clockAt = s.moves[:n], s.replies[:n], s.by[:n], s.clockAt[:n]
	s.clocks = [2]time.Duration{s.limit.base, s.limit.base}
	if n > 0 {
		s.clocks = s.clockAt[n-1]
	}
	s.running = -1
	s.view = n
}

// played appends a move made by side and shows it.
func (s *session) played(m board.Move, side board.Side, by string, r client.Reply) {
	if s.limit.kind == "tc" {
		s.clocks[side] += s.limit.inc
	}
	s.moves = append(s.moves, m)
	s.replies = append(s.replies, r)
	s.by = append(s.by, by)
	s.clockAt = append(s.clockAt, s.clocks)
	s.view = len(s.moves)
	s.running = -1
	s.faults = 0
}

// takeBack undoes the last ply, and against an engine, back to the
// person's last turn.
func (s *session) takeBack() {
	n := min(s.view, len(s.moves))
	if n == 0 {
		if s.lostAt(0) != nil { // lost on time before the first move
			s.lost = nil
			s.clocks = [2]time.Duration{s.limit.base, s.limit.base}
			s.running = -1
		}
		return
	}
	n--
	if !s.an.On {
		for n > 0 && s.players[s.sideAt(n)] != "human" {
			n--
		}
	}
	s.cut(n)
	if s.players[board.South] != "human" && s.players[board.North] != "human" {
		s.paused = true
	}
}

// sideAt returns the side to move after n plies.
func (s *session) sideAt(n int) board.Side {
	g := s.gameAt(n)
	p := g.Position()
	return p.Side()
}

// resumeHere cuts the game at the shown ply and lets play go on.
func (s *session) resumeHere() {
	s.cut(s.view)
	s.paused, s.step, s.faults = false, false, 0
}

// setAnalysis turns the analysis on or off.
func (s *session) setAnalysis(r request) error {
	if r.On {
		name := r.Engine
		if name == "" {
			name = s.an.Engine
		}
		if _, ok := s.srv.engineNamed(name); !ok {
			return fmt.Errorf("no engine named %q (the engines are %s)", name, strings.Join(s.srv.names(), ", "))
		}
		s.an.Engine = name
		s.an.MaxMultiPV = max(s.maxMPV[name], 1)
		if !s.an.On {
			s.faults = 0
		}
	}
	s.an.On = r.On
	if r.MultiPV > 0 {
		s.an.MultiPV = r.MultiPV
	}
	s.clampMultiPV()
	return nil
}

// clampMultiPV keeps the lines asked for within what the analysing
// engine offers, once it has said.
func (s *session) clampMultiPV() {
	if mpv := s.maxMPV[s.an.Engine]; mpv > 0 {
		s.an.MultiPV = min(s.an.MultiPV, mpv)
	}
}

// settleClock charges the running clock with the time since it started.
func (s *session) settleClock() {
	if s.running < 0 || s.limit.kind != "tc" {
		return
	}
	now := time.Now()
	s.clocks[s.running] = max(s.clocks[s.running]-now.Sub(s.since), 0)
	s.since = now
}

// update starts or stops the engine's work to fit the state, then sends
// the state.
func (s *session) update() {
	if s.done {
		return
	}
	s.settleClock()
	g := s.gameAt(s.view)
	over := g.Status().Over() || s.lostAt(s.view) != nil
	p := g.Position()
	side := p.Side()
	want, key := "", ""
	switch {
	case over:
	case s.an.On:
		want, key = "analysis", fmt.Sprintf("%d %s %s %d", s.gameID, client.PositionCommand(g), s.an.Engine, s.an.MultiPV)
	case s.view == len(s.moves) && s.players[side] != "human" && !(s.paused && !s.step) && s.faults < 2:
		want, key = "move", fmt.Sprintf("%d %d", s.gameID, s.view)
	}
	if s.job != nil && (s.job.kind != want || s.job.key != key) {
		s.stopJob()
	}
	for _, name := range s.players {
		if name != "human" {
			s.warm(name)
		}
	}
	if s.job == nil && want != "" {
		s.startJob(want, key, g, side)
	}
	// The clock of the side to move at the end of the game runs, whatever
	// ply is shown: looking back does not stop a person's clock. An
	// engine's search stops while the page shows an earlier ply, and so
	// does its clock.
	run := -1
	end := g
	if s.view != len(s.moves) {
		end = s.gameAt(len(s.moves))
	}
	endPos := end.Position()
	toMove := endPos.Side()
	endOver := end.Status().Over() || s.lostAt(len(s.moves)) != nil
	if !endOver && !s.an.On && !(s.paused && s.job == nil) &&
		(s.view == len(s.moves) || s.players[toMove] == "human") {
		run = int(toMove)
	}
	if run != s.running {
		s.running, s.since = run, time.Now()
	}
	s.armFlag()
	s.sendState(g)
}

// lostAt returns the loss on time that ends the game at ply n, if any.
func (s *session) lostAt(n int) *timeLoss {
	if s.lost != nil && s.lost.ply == n {
		return s.lost
	}
	return nil
}

// armFlag sets the flag to fall when the running clock of a person runs
// out. (An engine's clock is watched by its move's deadline instead.)
func (s *session) armFlag() {
	if s.flag != nil {
		s.flag.Stop()
		s.flag = nil
	}
	if s.limit.kind != "tc" || s.running < 0 || s.players[s.running] != "human" {
		return
	}
	side := board.Side(s.running)
	left := s.clocks[side] - time.Since(s.since)
	s.flag = time.AfterFunc(max(left, 0), func() {
		s.post(func() {
			if !s.done && s.flagFell(side) {
				s.update()
			}
		})
	})
}

// flagFell reports whether side is a person whose running clock has run
// out; if so, the game ends there, lost on time by side.
func (s *session) flagFell(side board.Side) bool {
	s.settleClock()
	if s.limit.kind != "tc" || s.running != int(side) || s.players[side] != "human" || s.clocks[side] > 0 {
		return false
	}
	s.lost = &timeLoss{ply: len(s.moves), side: side}
	s.running = -1
	s.view = len(s.moves) // show the end of the game
	return true
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
	return match.GameOptions(s.v)
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
		l := s.limit
		switch l.kind {
		case "movetime":
			req.MoveTime, req.Wait, req.Timed = l.moveTime, l.moveTime+timeMargin, true
		case "depth":
			req.Depth, req.Wait = l.depth, s.srv.cfg.Timeout
		case "tc":
			req.Clock, req.Inc, req.HasClock = s.clocks, [2]time.Duration{l.inc, l.inc}, [2]bool{true, true}
			req.Wait, req.Timed = s.clocks[side]+timeMargin, true
		}
	}
	fen := g.Position()
	fenText := fen.String()
	req.Each = func(line string) {
		var in client.Info
		in.Parse(line)
		if !in.HasDepth || !in.HasScore {
			// Not a line of the analysis: "info string …", or a root
			// move report ("info depth D currmove M currmovenumber N").
			return
		}
		s.post(func() {
			if s.job != nil && s.job.gen == j.gen {
				s.send(infoOf(j, in, fenText))
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
		s.post(func() { s.jobDone(j, r, f, up) })
	}()
}

// infoOf turns an info line into its message.
func infoOf(j *job, in client.Info, fen string) infoMsg {
	m := infoMsg{Type: "info", Gen: j.gen, Engine: j.engine, MultiPV: max(in.MultiPV, 1), Depth: in.Depth, SelDepth: in.SelDepth,
		Bound: in.Bound, Nodes: in.Nodes, NPS: in.NPS, TimeMS: in.TimeMS, PV: in.PV, Fen: fen}
	switch {
	case in.IsMate:
		m.Score = "mate " + strconv.Itoa(in.Mate)
	case in.HasScore:
		m.Score = "cp " + strconv.Itoa(in.CP)
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
	mpv := 1
	d, hasMPV := sl.e.HasOption("MultiPV")
	if hasMPV {
		mpv = max(d.Max, 1)
		opts = append(opts, client.Option{Name: d.Name, Value: strconv.Itoa(max(1, min(multipv, mpv)))})
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

// jobDone takes an engine's answer, or its fault; up says whether the
// engine's process runs after it.
func (s *session) jobDone(j *job, r client.Reply, f *client.Fault, up bool) {
	current := s.job != nil && s.job.gen == j.gen
	if f != nil && f.Kind == client.Aborted {
		return
	}
	if f != nil && current {
		s.job = nil
		s.engineTrouble(j, f.Detail, up)
		s.update()
		return
	}
	if !current || j.kind != "move" {
		return
	}
	s.job = nil
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
