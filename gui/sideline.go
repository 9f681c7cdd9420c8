package gui

import (
	"fmt"
	"strings"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
)

// sideLine is a line the person explored instead of the game's move at a
// ply, kept beside the game: from the position after From plies, its
// moves, the first replacing the game's move there. Records keep it on
// that move (record.MoveRecord.Lines).
type sideLine struct {
	From  int          `json:"from"`
	Moves []board.Move `json:"-"`
	Text  []string     `json:"moves"`
}

// lineMsg is the position a side line reaches, for the page to show and
// play on: the line as kept (Index in the state's lines), the moves shown
// (At of them), and the position after them.
type lineMsg struct {
	Type     string            `json:"type"` // "line"
	Index    int               `json:"index"`
	From     int               `json:"from"`
	Moves    []string          `json:"moves"`
	At       int               `json:"at"`
	Fen      string            `json:"fen"`
	Counts   []int             `json:"counts"`
	Captured [2]int            `json:"captured"`
	Side     string            `json:"side"`
	Legal    []string          `json:"legal"`
	Result   string            `json:"result"` // the result in words, once the line ends the game
	Status   string            `json:"status"`
	Hints    map[string]string `json:"hints,omitempty"`
}

// lineRequest is a "line" message's fields: a side line to keep (Index -1
// for a new one) from the position after From plies, its Moves, and how
// many of them to show (At; all if negative). An empty line drops the
// kept one.
type lineRequest struct {
	Index int    `json:"index"`
	From  int    `json:"from"`
	Moves string `json:"moves"`
	At    int    `json:"at"`
}

// exploreLine keeps a side line (or drops it, when it has no move) and
// sends the position it reaches. A line that does not follow the rules
// from its ply changes nothing.
func (s *session) exploreLine(r lineRequest) error {
	if r.From < 0 || r.From >= len(s.moves) {
		return fmt.Errorf("side line: it branches before one of the game's %d plies, not after %d", len(s.moves), r.From)
	}
	g := s.gameAt(r.From)
	ms, err := s.v.ParseMoves(r.Moves)
	if err != nil {
		return fmt.Errorf("side line %s: %v", r.Moves, err)
	}
	if len(ms) > 0 && ms[0] == s.moves[r.From] {
		return fmt.Errorf("side line %s: %s is the game's own move at ply %d", r.Moves, ms[0], r.From+1)
	}
	at := r.At
	if at < 0 || at > len(ms) {
		at = len(ms)
	}
	for _, m := range ms {
		if err := g.Play(m); err != nil {
			return fmt.Errorf("side line %s: %s: %v", r.Moves, m, err)
		}
	}
	shown := s.gameAt(r.From)
	shown.PlayAll(ms[:at]) // legal: just played
	idx := r.Index
	switch {
	case idx >= len(s.lines) || idx < -1 || idx >= 0 && s.lines[idx].From != r.From:
		return fmt.Errorf("side line %d from ply %d: no such line", idx, r.From)
	case len(ms) == 0 && idx >= 0:
		s.lines = append(s.lines[:idx], s.lines[idx+1:]...)
		idx = -1
	case len(ms) == 0:
	case idx >= 0:
		s.lines[idx].Moves = ms
	default:
		idx = len(s.lines)
		s.lines = append(s.lines, sideLine{From: r.From, Moves: ms})
	}
	p := shown.Position()
	st := shown.Status()
	m := lineMsg{Type: "line", Index: idx, From: r.From, Moves: moveTexts(ms), At: at, Fen: p.String(),
		Captured: [2]int{p.Captured(board.South), p.Captured(board.North)}, Side: strings.ToLower(p.Side().String()),
		Status: st.Result.String(), Legal: []string{}, Hints: holeHints(shown)}
	for _, h := range s.v.Holes() {
		m.Counts = append(m.Counts, p.Count(h))
	}
	if st.Over() {
		m.Result = resultText(shown)
	} else {
		for _, mv := range p.LegalMoves() {
			m.Legal = append(m.Legal, mv.String())
		}
	}
	s.send(m)
	return nil
}

// keepLines drops the side lines of the plies from n on (the game was cut
// there).
func (s *session) keepLines(n int) {
	kept := s.lines[:0]
	for _, l := range s.lines {
		if l.From < n {
			kept = append(kept, l)
		}
	}
	s.lines = kept
}

// linesState is the side lines for the state message, each with its
// moves as text.
func (s *session) linesState() []sideLine {
	out := []sideLine{}
	for _, l := range s.lines {
		l.Text = moveTexts(l.Moves)
		out = append(out, l)
	}
	return out
}

// writeLines puts the side lines on the moves of the record they replace.
func (s *session) writeLines(rec *record.GameRecord) {
	for _, l := range s.lines {
		if l.From < len(rec.Moves) {
			rec.Moves[l.From].Lines = append(rec.Moves[l.From].Lines, moveTexts(l.Moves))
		}
	}
}

// sideLinesOf reads the side lines of a record whose game is g, each
// checked against the rules from its ply; a line that does not follow
// them refuses the record.
func sideLinesOf(rec *record.GameRecord, g *board.Game) ([]sideLine, error) {
	var lines []sideLine
	for i, m := range rec.Moves {
		for _, l := range m.Lines {
			ms, err := lineFrom(g, i, l)
			if err != nil {
				return nil, fmt.Errorf("import: ply %d's side line %s: %v", i+1, strings.Join(l, " "), err)
			}
			lines = append(lines, sideLine{From: i, Moves: ms})
		}
	}
	return lines, nil
}

// lineFrom checks a side line against the rules from the position after
// from plies of game g, and returns its moves.
func lineFrom(g *board.Game, from int, moves []string) ([]board.Move, error) {
	if from < 0 || from >= len(g.Moves()) {
		return nil, fmt.Errorf("it branches after ply %d of %d", from, len(g.Moves()))
	}
	start := g.Start()
	h := board.NewGame(start)
	h.PlayAll(g.Moves()[:from]) // legal: the game's
	v := start.Variant()
	ms, err := v.ParseMoves(strings.Join(moves, " "))
	if err == nil {
		err = h.PlayAll(ms)
	}
	return ms, err
}

// moveTexts writes moves in notation, one a string.
func moveTexts(ms []board.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}
