package gui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/bench/timecontrol"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// pingEvery is how often the server pings the page.
const pingEvery = 20 * time.Second

// session serves one game of the store to one tab, over its WebSocket.
// Its state belongs to the loop goroutine (run); the reader and the engine
// jobs hand it work through post. It starts from the game's saved state,
// if any, saves the state as it changes, and once more when it ends: when
// the tab goes, when another tab takes the game over, or when the server
// stops.
type session struct {
	srv  *Server
	conn *wsConn
	ctx  context.Context

	game     *entry        // the game in the store
	restored bool          // the game was restored from a saved state
	dirty    bool          // changed since the last save
	endKept  [2]int        // the game and plies of the last end saved at once
	taken    bool          // another tab took the game over
	handed   chan struct{} // closed once the final state is saved
	resume   *reviewRun    // a restored review under way, to run again

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
	proven  []bool // whether each reply's score is a proven result
	by      []string
	clockAt [][2]time.Duration
	view    int // the ply shown

	players [2]string
	limit   timecontrol.Limit // both engines'
	clocks  [2]time.Duration
	running int // the side whose clock runs, -1 for none
	since   time.Time
	flag    *time.Timer // falls when a person's running clock runs out
	lost    *timeLoss   // a person's loss on time, if the game ended so
	paused  bool
	step    bool // play one engine move, then pause
	faults  int  // engine faults in a row at this ply
	an      analysis
	match   *tradMatch          // a traditional match being played, if any
	review  []record.MoveReview // the game's review, ply by ply, as far as it goes
	rev     *reviewRun          // a review under way, if any
	revInfo reviewInfo          // the game's review's engine, budget and searches
	lines   []sideLine          // side lines explored beside the game
	anLines keptLines           // the analysis's latest lines

	gen  int  // numbers the engine jobs
	job  *job // the job running, if any
	sent struct {
		gameID, view int
		counts       []int
		fen          string
	}
}

func newSession(srv *Server, c *wsConn) *session {
	s := &session{
		srv: srv, conn: c, handed: make(chan struct{}),
		events: make(chan func(), 64), quit: make(chan struct{}),
		slots: map[string]*slot{}, maxMPV: map[string]int{}, running: -1,
	}
	v, _ := board.New(board.NameKatro)
	s.v, s.start = v, v.Start()
	s.players = [2]string{"human", srv.cfg.Engines[0].Name}
	s.limit = timecontrol.Limit{MoveTime: time.Second}
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
	s.send(sessionMsg{Type: "session", ID: s.game.id, Restored: s.restored})
	if s.restored {
		if s.resume != nil {
			s.runReview(s.resume)
			s.resume = nil
		}
		s.update()
		s.sendKeptLines()
		if s.enginesWaited() {
			s.say("The engines did not play while no tab showed this game: a game between engines runs only while a tab shows it. It goes on now from ply %d.", len(s.moves))
		}
	}
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	save := time.NewTicker(saveEvery)
	defer save.Stop()
	for !s.done {
		select {
		case f := <-s.events:
			f()
		case <-ping.C:
			s.conn.Ping()
		case <-save.C:
			s.save()
		case <-ctx.Done():
			s.done = true
		}
	}
	if s.taken {
		s.send(noteMsg{Type: "takenover", Text: "This game continued in another tab."})
	}
	s.dirty = true // the clocks as they stand now
	s.save()
	s.srv.store.detach(s.game, s)
	close(s.handed)
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

// save gives the store the game's state, if it changed since the last
// save.
func (s *session) save() {
	if s.dirty && s.gameID > 0 {
		s.srv.store.put(s.game, s.snapshot())
	}
	s.dirty = false
}

// takeOver ends the session for another tab, which takes the game over:
// the page is told so.
func (s *session) takeOver() {
	s.taken, s.done = true, true
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
	if r.Type == "games" {
		s.sendPastGames()
		return
	}
	if r.Type == "preview" {
		if err := s.preview(r.Fen, r.Moves); err != nil {
			s.say("%v", err)
		}
		return
	}
	var err error
	note := ""
	switch r.Type {
	case "new":
		note, err = s.newGame(r)
	case "setup":
		err = s.setup(r.Fen)
	case "move":
		err = s.humanMove(r.Move, r.Ply)
	case "goto":
		s.view = max(0, min(r.Ply, len(s.moves)))
	case "takeback":
		s.takeBack()
	case "next":
		err = s.nextGame()
	case "resume":
		s.resumeHere()
	case "pause":
		err = s.pauseOrResume()
	case "step":
		err = s.stepOne()
	case "resign":
		err = s.resign()
	case "line":
		err = s.exploreLine(r.Line)
	case "analyse":
		if r.On {
			s.stopReview() // the analysis would hold the engine
		}
		err = s.setAnalysis(r)
	case "export":
		err = s.export(r.Format)
	case "import":
		err = s.importRecord(r.Text)
	case "review":
		if r.On {
			err = s.startReview(r)
		} else {
			s.stopReview()
		}
	case "hello":
	default:
		err = fmt.Errorf("unknown message type %q", r.Type)
	}
	if err != nil {
		s.say("%v", err)
	} else if r.Type != "export" && r.Type != "hello" {
		s.say("%s", note)
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

// begin starts a game of v from start with moves already played (by
// people, as far as the record goes).
func (s *session) begin(v *board.Variant, start board.Position, moves []board.Move) {
	s.gameID++
	s.v, s.start = v, start
	s.moves = append([]board.Move(nil), moves...)
	s.replies = make([]client.Reply, len(moves))
	s.proven = make([]bool, len(moves))
	s.by = make([]string, len(moves))
	for i := range s.by {
		s.by[i] = "human"
	}
	s.clocks = s.fullClocks()
	s.clockAt = make([][2]time.Duration, len(moves))
	for i := range s.clockAt {
		s.clockAt[i] = s.clocks
	}
	s.view = len(moves)
	s.running = -1
	s.lost = nil
	s.paused, s.step, s.faults = false, false, 0
	s.keepReview(0)
	s.keepLines(0)
}

// setup sets up a position from notation in the current game and rules;
// bad notation changes nothing.
func (s *session) setup(f string) error {
	p, err := parseFen(s.v, strings.TrimSpace(f))
	if err != nil {
		return err
	}
	s.stopJob()
	done := s.leaving()
	s.begin(s.v, p, nil)
	s.match = nil
	s.keepApart(done)
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
	if s.players[side] != "human" && (!s.an.On || s.engineMoves(side)) {
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
	s.keepReview(n)
	s.keepLines(n)
	s.lost = nil
	s.moves, s.replies, s.proven, s.by, s.clockAt = s.moves[:n], s.replies[:n], s.proven[:n], s.by[:n], s.clockAt[:n]
	s.clocks = s.fullClocks()
	if n > 0 {
		s.clocks = s.clockAt[n-1]
	}
	s.running = -1
	s.view = n
}

// played appends a move made by side and shows it.
func (s *session) played(m board.Move, side board.Side, by string, r client.Reply) {
	s.clocks[side] = s.limit.After(s.clocks[side], 0) // charged by settleClock
	s.moves = append(s.moves, m)
	s.replies = append(s.replies, r)
	s.proven = append(s.proven, false)
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
			s.clocks = s.fullClocks()
			s.running = -1
		}
		return
	}
	n--
	// Against an engine, back to the person's turn; between engines (a
	// finished or paused game) exactly one ply.
	if s.againstEngine() {
		for n > 0 && s.players[s.sideAt(n)] != "human" {
			n--
		}
	}
	s.cut(n)
	s.step = false // a Step asked for before is not replayed on the ply taken back
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

// update starts or stops the engine's work to fit the state, then sends
// the state.
func (s *session) update() {
	s.dirty = true
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
	case s.engineMoves(side):
		want, key = "move", fmt.Sprintf("%d %d", s.gameID, s.view)
	case s.an.On:
		want, key = "analysis", fmt.Sprintf("%d %s %s %d", s.gameID, client.PositionCommand(g), s.an.Engine, s.an.MultiPV)
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
	if !endOver && (!s.an.On || s.againstEngine()) && !(s.paused && s.job == nil) &&
		(s.view == len(s.moves) || s.players[toMove] == "human") {
		run = int(toMove)
	}
	if run != s.running {
		s.running, s.since = run, time.Now()
	}
	s.armFlag()
	if endOver && s.endKept != [2]int{s.gameID, len(s.moves)} {
		// A finished game is kept at once, before the page hears of
		// its end, so that the past games listed from then on have it.
		s.save()
		s.endKept = [2]int{s.gameID, len(s.moves)}
	}
	s.sendState(g)
	s.autoNext()
}

// enginesWaited reports whether a restored game is one between engines
// that was playing when its last tab went (not paused, not over): its
// engines stopped with that tab, and go on now.
func (s *session) enginesWaited() bool {
	n := len(s.moves)
	g := s.gameAt(n)
	return s.players[board.South] != "human" && s.players[board.North] != "human" &&
		!s.paused && !g.Status().Over() && s.lostAt(n) == nil && s.view == n
}

// engineMoves reports whether an engine is to move for side at the shown
// ply: the end of the game, play not paused and no engine in trouble.
// Analysis does not stop it: an engine opponent moves on its turns and
// the analysis runs on the person's.
func (s *session) engineMoves(side board.Side) bool {
	return s.view == len(s.moves) && s.players[side] != "human" && !(s.paused && !s.step) && s.faults < 2
}

// againstEngine reports whether a person plays an engine: then analysis
// leaves the game as it is (the engine moves, the clocks run).
func (s *session) againstEngine() bool {
	return (s.players[board.South] == "human") != (s.players[board.North] == "human")
}
