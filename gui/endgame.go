package gui

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
)

// endMsg is how the game stands at its last ply, whatever ply is shown:
// for the page's result card and for the controls that act on the game
// in play (Pause, Step, Resign).
type endMsg struct {
	// Over says the game has ended at its last ply (by the rules, on time
	// or by a resignation); Status is then its result (south, north or
	// draw) and Result says it in words.
	Over   bool   `json:"over"`
	Status string `json:"status"`
	Result string `json:"result"`
	// Plays says an engine plays in the game and the game is not over:
	// only then do Pause and Step mean something.
	Plays bool `json:"plays"`
	// Resigns is the side a person would resign for ("south", "north"),
	// or "" when nobody can resign (the game is over, or engines play
	// both sides).
	Resigns string `json:"resigns"`
}

// endgameState puts on the state message the game at its last ply, the
// hints for the holes of the shown position (g), the circuits and the
// side lines.
func (s *session) endgameState(m *stateMsg, g *board.Game) {
	m.End = s.endState()
	if s.lostAt(s.view) == nil {
		m.Hints = holeHints(g)
	}
	m.Circuits = circuits(s.v)
	m.Lines = s.linesState()
}

// endState is the game at its last ply for the state message.
func (s *session) endState() endMsg {
	g := s.gameAt(len(s.moves))
	var e endMsg
	st := g.Status()
	switch l := s.lostAt(len(s.moves)); {
	case l != nil:
		e.Over, e.Status, e.Result = true, l.winner().String(), l.text()
	case st.Over():
		e.Over, e.Status, e.Result = true, st.Result.String(), resultText(g)
	}
	e.Plays = !e.Over && (s.players[board.South] != "human" || s.players[board.North] != "human")
	if side, ok := s.resigner(); ok && !e.Over {
		e.Resigns = strings.ToLower(side.String())
	}
	return e
}

// resigner returns the side a person resigns for: the person's side
// against an engine, the side to move at the end of the game between two
// people; false between engines.
func (s *session) resigner() (board.Side, bool) {
	switch h := [2]bool{s.players[board.South] == "human", s.players[board.North] == "human"}; {
	case h[0] && h[1]:
		return s.sideAt(len(s.moves)), true
	case h[0]:
		return board.South, true
	case h[1]:
		return board.North, true
	}
	return board.South, false
}

// resign ends the game at its last ply, lost by the side a person plays
// (resigner); the state shows its end.
func (s *session) resign() error {
	side, ok := s.resigner()
	switch {
	case !ok:
		return errors.New("resign: engines play both sides; a person cannot resign for them")
	case s.gameOver():
		return errors.New("resign: the game is over")
	}
	s.stopJob()
	s.settleClock()
	s.lost = &timeLoss{ply: len(s.moves), side: side, resigned: true}
	s.running = -1
	s.view = len(s.moves)
	return nil
}

// pauseOrResume is the Pause button: it pauses the engines, or lets
// them play again. Pausing needs an engine that plays and a game not
// over; resuming is always allowed.
func (s *session) pauseOrResume() error {
	if !s.paused {
		if err := s.canPause("pause"); err != nil {
			return err
		}
	}
	s.paused, s.step = !s.paused, false
	s.faults = 0
	return nil
}

// stepOne is the Step button: one engine move, then play pauses.
func (s *session) stepOne() error {
	if err := s.canPause("step"); err != nil {
		return err
	}
	s.paused, s.step = true, true
	s.faults = 0
	return nil
}

// canPause says why Pause or Step would mean nothing: no engine plays,
// or the game is over.
func (s *session) canPause(what string) error {
	switch {
	case s.players[board.South] == "human" && s.players[board.North] == "human":
		return fmt.Errorf("%s: no engine plays in this game", what)
	case s.gameOver():
		return fmt.Errorf("%s: the game is over", what)
	}
	return nil
}

// holeHints says, for every hole of the shown position that is not a
// legal move, why it cannot be played by the side to move (docs/rules.md):
// it is empty, it is the opponent's, it is not in the mover's back row
// (Katro, 1.3), or its sowing never ends (1.6, 2.5). Nil when the game is
// over there.
func holeHints(g *board.Game) map[string]string {
	if g.Status().Over() {
		return nil
	}
	p := g.Position()
	v := p.Variant()
	me := p.Side()
	legal := map[board.Move]bool{}
	for _, m := range p.LegalMoves() {
		legal[m] = true
	}
	hints := map[string]string{}
	back := p.BackDepth(me)
	for _, h := range v.Holes() {
		if legal[h] {
			continue
		}
		name := h.String()
		switch {
		case v.Owner(h) != me:
			hints[name] = fmt.Sprintf("%s is %s's hole: %s sows from its own %s", name, me.Other(), me, ownPart(v, me))
		case p.Count(h) == 0:
			hints[name] = fmt.Sprintf("%s is empty: a move takes the seeds of one of %s's holes that holds some", name, me)
		case v.Family() == board.Katro && depthOf(v, me, h) != back:
			hints[name] = fmt.Sprintf("%s is not in %s's back row: a move starts from the outermost row that holds seeds, now row %d (rule 1.3)",
				name, me, rowAt(v, me, back))
		default:
			rule := "1.6"
			if v.Family() == board.Hoyito {
				rule = "2.5"
			}
			hints[name] = fmt.Sprintf("%s's sowing would never end, so it is not a legal move (rule %s)", name, rule)
		}
		if legal[board.Pass] {
			hints[name] += fmt.Sprintf("; %s has no move and must pass", me)
		}
	}
	return hints
}

// ownPart names a side's part of the board: its row (Hoyito III) or
// rows (Katro).
func ownPart(v *board.Variant, s board.Side) string {
	if v.Family() == board.Hoyito {
		return fmt.Sprintf("row %d", int(s)+1)
	}
	a, b := rowAt(v, s, 0), rowAt(v, s, v.Depth()-1)
	return fmt.Sprintf("half, rows %d to %d", min(a, b), max(a, b))
}

// rowAt is the number (from 1) of side s's row at depth d, counted from
// its own edge.
func rowAt(v *board.Variant, s board.Side, d int) int {
	if s == board.South {
		return d + 1
	}
	return v.Rows() - d
}

// depthOf is the depth of hole h among side s's rows.
func depthOf(v *board.Variant, s board.Side, h board.Move) int {
	if s == board.South {
		return h.Row()
	}
	return v.Rows() - 1 - h.Row()
}

// circuits are the sowing circuits of South and North, in order, for the
// page's arrows (the same circuit twice in Hoyito III).
func circuits(v *board.Variant) [2][]string {
	var c [2][]string
	for s := range 2 {
		for k := range v.CircuitLen() {
			c[s] = append(c[s], v.CircuitHole(board.Side(s), k).String())
		}
	}
	return c
}

// readRecords reads a record the page opens, and says plainly when the
// text is not a game record at all.
func readRecords(text string) ([]record.GameRecord, error) {
	t := strings.TrimSpace(text)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return nil, errors.New("open record: this is not a game record: want JSON lines or PGN, as Save JSONL and Save PGN write them")
	}
	recs, err := record.ReadRecords([]byte(t))
	if err != nil {
		return nil, fmt.Errorf("open record: not a game record that can be read: %v", err)
	}
	return recs, nil
}
