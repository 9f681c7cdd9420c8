package gui

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// stateFormat names the format of a game's saved state; a state of
// another format is refused.
const stateFormat = "sower gui game 1"

// savedState is a session's game as the store keeps it (JSON): all that
// the page shows, and the clocks with the time they were read.
type savedState struct {
	Format string `json:"format"`
	// Saved is when the clocks were read. Stopped says the server was
	// stopping: the clocks stopped with it.
	Saved   time.Time        `json:"saved"`
	Stopped bool             `json:"stopped,omitempty"`
	GameID  int              `json:"gameId"`
	Game    string           `json:"game"`
	Rules   rulesMsg         `json:"rules"`
	Start   string           `json:"start"`
	Plies   []savedPly       `json:"plies"`
	View    int              `json:"view"`
	Players [2]string        `json:"players"`
	Limit   limitMsg         `json:"limit"`
	Clocks  [2]time.Duration `json:"clocks"`
	// Running is the side whose clock ran when it was read, -1 for none.
	Running  int                 `json:"running"`
	Lost     *savedLoss          `json:"lost,omitempty"`
	Paused   bool                `json:"paused,omitempty"`
	Step     bool                `json:"step,omitempty"`
	Analysis analysis            `json:"analysis"`
	MultiPV  map[string]int      `json:"multipv,omitempty"` // each engine's MultiPV maximum, as it said
	Match    *savedMatch         `json:"match,omitempty"`
	Review   []record.MoveReview `json:"review,omitempty"`
	// ReviewInfo is what the game's review keeps beside its plies: its
	// engine, budget and searches (reviewInfo).
	ReviewInfo *savedReviewInfo `json:"reviewInfo,omitempty"`
	// Reviewing is a review under way, resumed where it stood.
	Reviewing *savedReview `json:"reviewing,omitempty"`
	// Lines are the side lines explored beside the game.
	Lines []savedLine `json:"lines,omitempty"`
	// AnalysisLines are the analysis's latest lines, best first, while
	// it is on: its info messages.
	AnalysisLines []infoMsg `json:"analysisLines,omitempty"`
}

// savedPly is one ply: the move, who made it, the engine's reply and the
// clocks after it.
type savedPly struct {
	Move   string           `json:"move"`
	By     string           `json:"by"`
	Reply  client.Reply     `json:"reply"`
	Proven bool             `json:"proven,omitempty"`
	Clocks [2]time.Duration `json:"clocks"`
}

// savedLoss is a loss on time, or by resigning.
type savedLoss struct {
	Ply      int    `json:"ply"`
	Side     string `json:"side"` // the loser, south or north
	Resigned bool   `json:"resigned,omitempty"`
}

// savedMatch is a traditional match.
type savedMatch struct {
	Games   int                  `json:"games"`
	Players [2]string            `json:"players"`
	Rules   rulesMsg             `json:"rules"`
	Done    []*record.GameRecord `json:"done"`
	Holder  int                  `json:"holder"`
}

// savedReview is a review under way: its engine, budget and the plies
// judged so far, its searches so far, and whether play was paused
// before it.
type savedReview struct {
	Engine string              `json:"engine"`
	Kind   string              `json:"kind"`
	Value  string              `json:"value"`
	Plies  []record.MoveReview `json:"plies"`
	Info   *savedReviewInfo    `json:"info,omitempty"`
	Paused bool                `json:"paused,omitempty"`
}

// savedReviewInfo is a review's reviewInfo: for every position searched,
// the engine's move and its wdl from South's view.
type savedReviewInfo struct {
	Engine string    `json:"engine,omitempty"`
	Budget string    `json:"budget,omitempty"`
	Best   []string  `json:"best"`
	WDL    []*[3]int `json:"wdl"`
}

// savedLine is a side line: from the position after From plies, its
// moves.
type savedLine struct {
	From  int      `json:"from"`
	Moves []string `json:"moves"`
}

// saveInfo writes a review's info for the saved state; nil if it has
// none.
func saveInfo(in reviewInfo) *savedReviewInfo {
	if in.engine == "" && in.budget == "" && len(in.pos) == 0 {
		return nil
	}
	si := &savedReviewInfo{Engine: in.engine, Budget: in.budget, Best: []string{}, WDL: []*[3]int{}}
	for _, p := range in.pos {
		si.Best, si.WDL = append(si.Best, p.best), append(si.WDL, p.wdl)
	}
	return si
}

// info reads a saved review's info back, for a game of n plies.
func (si *savedReviewInfo) info(n int) (reviewInfo, error) {
	if si == nil {
		return reviewInfo{}, nil
	}
	if len(si.Best) != len(si.WDL) || len(si.Best) > n+1 {
		return reviewInfo{}, fmt.Errorf("review: %d moves and %d wdl for %d positions", len(si.Best), len(si.WDL), n+1)
	}
	in := reviewInfo{engine: si.Engine, budget: si.Budget}
	for i, b := range si.Best {
		in.pos = append(in.pos, reviewPos{best: b, wdl: si.WDL[i]})
	}
	return in, nil
}

// rulesOf writes rule options as the page and the saved state name them.
func rulesOf(r board.Rules) rulesMsg {
	return rulesMsg{r.CaptureSide.String(), r.LastFour.String(), r.Repetition.String(), r.NoCaptureLimit}
}

// rules reads the rule options back.
func (m rulesMsg) rules() (board.Rules, error) {
	var r board.Rules
	var err error
	if r.CaptureSide, err = board.ParseCaptureSide(m.CaptureSide); err != nil {
		return r, err
	}
	if r.LastFour, err = board.ParseLastFour(m.LastFour); err != nil {
		return r, err
	}
	if r.Repetition, err = board.ParseRepetition(m.Repetition); err != nil {
		return r, err
	}
	r.NoCaptureLimit = m.NoCaptureLimit
	return r, nil
}

// snapshot writes the session's game as the store keeps it, the clocks
// read now.
func (s *session) snapshot() []byte {
	s.settleClock()
	st := savedState{
		Format: stateFormat, Saved: time.Now(), Stopped: s.srv.isStopping(),
		GameID: s.gameID, Game: s.v.Name(), Rules: rulesOf(s.v.Rules()), Start: s.start.String(),
		Plies: []savedPly{}, View: s.view, Players: s.players, Limit: limitForm(s.limit),
		Clocks: s.clocks, Running: s.running, Paused: s.paused, Step: s.step,
		Analysis: s.an, MultiPV: s.maxMPV, Review: s.review, ReviewInfo: saveInfo(s.revInfo),
		AnalysisLines: s.savedLines(),
	}
	for _, l := range s.lines {
		st.Lines = append(st.Lines, savedLine{From: l.From, Moves: moveTexts(l.Moves)})
	}
	for i, m := range s.moves {
		st.Plies = append(st.Plies, savedPly{Move: m.String(), By: s.by[i], Reply: s.replies[i], Proven: s.proven[i], Clocks: s.clockAt[i]})
	}
	if s.lost != nil {
		st.Lost = &savedLoss{Ply: s.lost.ply, Side: s.lost.loser(), Resigned: s.lost.resigned}
	}
	if m := s.match; m != nil {
		st.Match = &savedMatch{Games: m.games, Players: m.players, Rules: rulesOf(m.rules), Done: m.done, Holder: m.holder}
	}
	if r := s.rev; r != nil {
		st.Reviewing = &savedReview{Engine: r.engine, Kind: r.kind, Value: r.value, Plies: r.plies, Info: saveInfo(r.info), Paused: r.paused}
	}
	b, err := json.Marshal(st)
	if err != nil {
		panic(err) // our own types always marshal
	}
	return b
}

// restore sets the session's game from a saved state, checked as a
// record from outside is: a state that does not fit the rules or this
// server's engines is refused whole and changes nothing. A person's
// clock that ran when the state was saved has run on since, unless the
// server stopped then (an engine's stopped with its search).
func (s *session) restore(b []byte) error {
	var st savedState
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("damaged: %v", err)
	}
	if st.Format != stateFormat {
		return fmt.Errorf("format %q, want %q", st.Format, stateFormat)
	}
	rules, err := st.Rules.rules()
	if err != nil {
		return err
	}
	v, err := board.NewWithRules(st.Game, rules)
	if err != nil {
		return err
	}
	start, err := parseFen(v, st.Start)
	if err != nil {
		return err
	}
	g := board.NewGame(start)
	for i, p := range st.Plies {
		m, err := v.ParseMove(p.Move)
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			return fmt.Errorf("ply %d: %v", i+1, err)
		}
		if err := s.knownPlayer(p.By); err != nil {
			return fmt.Errorf("ply %d: %v", i+1, err)
		}
	}
	n := len(st.Plies)
	for _, p := range st.Players {
		if err := s.knownPlayer(p); err != nil {
			return err
		}
	}
	limit, err := parseLimit(st.Limit.Kind, st.Limit.Value)
	if err != nil {
		return err
	}
	var lost *timeLoss
	if l := st.Lost; l != nil {
		side, ok := map[string]board.Side{"south": board.South, "north": board.North}[l.Side]
		if !ok || l.Ply < 0 || l.Ply > n {
			return fmt.Errorf("a loss on time of %q at ply %d", l.Side, l.Ply)
		}
		lost = &timeLoss{ply: l.Ply, side: side, resigned: l.Resigned}
	}
	switch {
	case st.View < 0 || st.View > n:
		return fmt.Errorf("view %d of %d plies", st.View, n)
	case st.Running < -1 || st.Running > 1:
		return fmt.Errorf("running clock %d", st.Running)
	case st.GameID < 1:
		return fmt.Errorf("game id %d", st.GameID)
	case len(st.Review) > n:
		return fmt.Errorf("a review of %d plies in a game of %d", len(st.Review), n)
	}
	if _, ok := s.srv.engineNamed(st.Analysis.Engine); !ok {
		return fmt.Errorf("analysis: no engine named %q", st.Analysis.Engine)
	}
	lines, err := restoreLines(st.Lines, g)
	if err != nil {
		return err
	}
	anLines, err := restoreAnalysisLines(st.AnalysisLines, v)
	if err != nil {
		return err
	}
	var m *tradMatch
	if sm := st.Match; sm != nil {
		if m, err = s.restoreMatch(sm); err != nil {
			return fmt.Errorf("match: %v", err)
		}
	}
	revInfo, err := st.ReviewInfo.info(n)
	if err != nil {
		return err
	}
	var running reviewInfo
	if r := st.Reviewing; r != nil {
		if running, err = r.Info.info(n); err != nil {
			return err
		}
		if _, ok := s.srv.engineNamed(r.Engine); !ok {
			return fmt.Errorf("review: no engine named %q", r.Engine)
		}
		if _, err := reviewLimit(r.Kind, r.Value); err != nil {
			return err
		}
		if len(r.Plies) > n {
			return fmt.Errorf("a review under way of %d plies in a game of %d", len(r.Plies), n)
		}
	}

	s.gameID, s.v, s.start = st.GameID, v, start
	s.moves = g.Moves()
	s.replies, s.proven, s.by, s.clockAt = make([]client.Reply, n), make([]bool, n), make([]string, n), make([][2]time.Duration, n)
	for i, p := range st.Plies {
		s.replies[i], s.proven[i], s.by[i], s.clockAt[i] = p.Reply, p.Proven, p.By, p.Clocks
	}
	s.view, s.players, s.limit, s.lost = st.View, st.Players, limit, lost
	s.clocks, s.running = st.Clocks, -1
	if r := st.Running; r >= 0 && s.players[r] == "human" && !st.Stopped && limit.HasClock() {
		s.clocks[r] = max(s.clocks[r]-max(time.Since(st.Saved), 0), 0)
	}
	s.paused, s.step, s.an = st.Paused, st.Step, st.Analysis
	s.an.MultiPV = max(s.an.MultiPV, 1)
	for name, mpv := range st.MultiPV {
		if _, ok := s.srv.engineNamed(name); ok && mpv > 0 {
			s.maxMPV[name] = mpv
		}
	}
	s.match, s.review, s.revInfo, s.lines, s.anLines = m, st.Review, revInfo, lines, anLines
	if r := st.Reviewing; r != nil {
		s.resume = &reviewRun{engine: r.Engine, kind: r.Kind, value: r.Value, plies: r.Plies, info: running, paused: r.Paused}
	}
	return nil
}

// knownPlayer checks a player's name from a saved state: human or one of
// the engines.
func (s *session) knownPlayer(name string) error {
	if name == "human" {
		return nil
	}
	if _, ok := s.srv.engineNamed(name); !ok {
		return fmt.Errorf("no engine named %q", name)
	}
	return nil
}

// restoreMatch reads a saved traditional match.
func (s *session) restoreMatch(sm *savedMatch) (*tradMatch, error) {
	rules, err := sm.Rules.rules()
	if err != nil {
		return nil, err
	}
	switch {
	case sm.Games < 2 || sm.Games%2 != 0 || sm.Games > maxMatchGames:
		return nil, fmt.Errorf("%d games", sm.Games)
	case len(sm.Done) >= sm.Games:
		return nil, fmt.Errorf("%d games done of %d", len(sm.Done), sm.Games)
	case sm.Holder < -1 || sm.Holder > 1:
		return nil, fmt.Errorf("holder %d", sm.Holder)
	}
	for _, p := range sm.Players {
		if err := s.knownPlayer(p); err != nil {
			return nil, err
		}
	}
	for i, rec := range sm.Done {
		if rec == nil {
			return nil, errors.New("game " + strconv.Itoa(i+1) + ": no record")
		}
		if _, err := rec.Replay(); err != nil {
			return nil, err
		}
	}
	return &tradMatch{games: sm.Games, players: sm.Players, rules: rules, done: sm.Done, holder: sm.Holder}, nil
}

// restoreLines reads saved side lines back, each checked against the
// rules from its ply of game g.
func restoreLines(saved []savedLine, g *board.Game) ([]sideLine, error) {
	var lines []sideLine
	for _, l := range saved {
		ms, err := lineFrom(g, l.From, l.Moves)
		if err != nil {
			return nil, fmt.Errorf("side line %s from ply %d: %v", strings.Join(l.Moves, " "), l.From, err)
		}
		lines = append(lines, sideLine{From: l.From, Moves: ms})
	}
	return lines, nil
}
