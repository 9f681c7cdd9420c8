package gui

import (
	"errors"
	"fmt"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
	"github.com/sower-engine/sower/tables"
)

// tablePathOption is the engine option that names a tables directory.
const tablePathOption = "TablePath"

// tableSets is the server's Hoyito III tables: the sets of
// Config.TablePath, opened once per set of rules when a page first shows
// a game under them, and closed when the server stops.
type tableSets struct {
	dir  string
	sets map[board.Rules]tableSet
	// exact keeps the positions' exact results for the move list
	// (tablesExact).
	exact map[exactKey]*tableValue
}

// tableSet is the set opened for one set of rules, or why there is none.
type tableSet struct {
	tb  *tables.Tables
	err error
}

// tablesFor returns the tables for v's rules, or why there are none.
func (s *Server) tablesFor(v *board.Variant) (*tables.Tables, error) {
	s.tbMu.Lock()
	defer s.tbMu.Unlock()
	r := v.Rules()
	r.Repetition = board.RepetitionThreefold // one set serves both rules
	if set, ok := s.tb.sets[r]; ok {
		return set.tb, set.err
	}
	if s.tb.sets == nil {
		s.tb.sets = map[board.Rules]tableSet{}
	}
	tb, err := tables.Open(s.tb.dir, r)
	s.tb.sets[r] = tableSet{tb, err}
	return tb, err
}

// closeTables closes the sets opened.
func (s *Server) closeTables() {
	s.tbMu.Lock()
	defer s.tbMu.Unlock()
	for r, set := range s.tb.sets {
		if set.tb != nil {
			set.tb.Close()
		}
		delete(s.tb.sets, r)
	}
}

// tablePath returns the TablePath option the engines get for a game of
// v: the tables directory when it holds tables for v's rules, <empty>
// otherwise (so that an engine does not keep a set the game cannot use);
// false when the server has no tables.
func (s *Server) tablePath(v *board.Variant) (client.Option, bool) {
	if s.tb.dir == "" {
		return client.Option{}, false
	}
	o := client.Option{Name: tablePathOption, Value: "<empty>"}
	if v.Family() == board.Hoyito {
		if _, err := s.tablesFor(v); err == nil {
			o.Value = s.tb.dir
		}
	}
	return o, true
}

// withoutUnknown drops the TablePath option from opts when engine e does
// not declare it: only an engine with tables is given them.
func withoutUnknown(e *client.Engine, opts []client.Option) []client.Option {
	if _, ok := e.HasOption(tablePathOption); ok {
		return opts
	}
	out := opts[:0:0]
	for _, o := range opts {
		if o.Name != tablePathOption {
			out = append(out, o)
		}
	}
	return out
}

// tablesMsg is what the tables say about the shown position: every legal
// move with its result, best first, or a note saying why there is none.
// The page shows no Tables panel when both Moves and Note are empty (a
// Katro game, a game over).
type tablesMsg struct {
	Type   string      `json:"type"`   // "tables"
	Source string      `json:"source"` // "tables", or "proof" for the proof book (proofView)
	Fen    string      `json:"fen"`    // the position it is about
	Note   string      `json:"note,omitempty"`
	Moves  []tableMove `json:"moves"`
	// Value is the position's own result, when the tables know it
	// exactly under the game's rules: the page shows it as the
	// position's score.
	Value *tableValue `json:"value,omitempty"`
}

// tableValue is a position's exact result from South's view: its final
// margin in seeds, in the notation of every score and in words.
type tableValue struct {
	Margin int    `json:"margin"`
	Mate   *int   `json:"mate,omitempty"` // a proven Katro win instead: South's "#N"
	Text   string `json:"text"`
	Words  string `json:"words"`
}

// tableMove is one legal move's result from South's view, in seeds of the
// final margin (captures included).
type tableMove struct {
	Move string `json:"move"`
	// Text is the result in the notation of every score ("+8.00 seeds",
	// "+0.00 seeds"), or the bounds with the Repetition off value as an
	// estimate; Words says an exact one in words ("South wins by 8
	// seeds", "draw"), for its tooltip.
	Text  string `json:"text"`
	Words string `json:"words,omitempty"`
	// Lo and Hi bound South's final margin under either repetition rule;
	// Margin, when set, is the exact one under Repetition off at the
	// position's clock.
	Lo     int  `json:"lo"`
	Hi     int  `json:"hi"`
	Margin *int `json:"margin,omitempty"`
	// Exact says the result is exact under the game's rules; Best marks
	// the moves that keep the position's value.
	Exact bool `json:"exact"`
	Best  bool `json:"best"`
}

// tablesView returns the tables' view of p, or false when the server has
// no tables.
func (s *Server) tablesView(p *board.Position, over bool) (tablesMsg, bool) {
	if p.Variant().Family() == board.Katro {
		return s.proofView(p, over)
	}
	m := tablesMsg{Type: "tables", Source: "tables", Fen: p.String(), Moves: []tableMove{}}
	if s.tb.dir == "" {
		return m, false
	}
	v := p.Variant()
	if v.Family() != board.Hoyito || over {
		return m, true
	}
	tb, err := s.tablesFor(v)
	if err != nil {
		m.Note = "no tables for these rules: " + err.Error()
		return m, true
	}
	vs, err := tb.Verdicts(p)
	if errors.Is(err, tables.ErrNotInTables) {
		m.Note = fmt.Sprintf("not in the tables (%d seeds on the board; the tables hold 8 to %d)", p.OnBoard(), tb.Top())
		return m, true
	}
	if err != nil {
		m.Note = err.Error()
		return m, true
	}
	for _, vd := range vs {
		m.Moves = append(m.Moves, southMove(vd, p.Side()))
	}
	m.Value = positionValue(vs, p.Side(), v.Rules().Repetition == board.RepetitionOff)
	return m, true
}

// positionValue is the position's exact result, from South's view, out
// of its moves' verdicts (best first, from the mover's view): under
// Repetition off the best margin, when the set knows margins; else the
// best bounds, when they meet; nil when they do not.
func positionValue(vs []tables.Verdict, mover board.Side, off bool) *tableValue {
	if len(vs) == 0 {
		return nil
	}
	v := vs[0].Margin
	if !off || !vs[0].HasMargin {
		lo, hi := vs[0].Lo, vs[0].Hi
		for _, vd := range vs {
			lo, hi = max(lo, vd.Lo), max(hi, vd.Hi)
		}
		if lo != hi {
			return nil
		}
		v = lo
	}
	if mover == board.North {
		v = -v
	}
	return &tableValue{Margin: v, Text: signed(v) + " seeds", Words: marginText(v)}
}

// southMove turns a verdict, from the mover's view, to South's.
func southMove(vd tables.Verdict, mover board.Side) tableMove {
	sign := 1
	if mover == board.North {
		sign = -1
	}
	lo, hi := sign*vd.Lo, sign*vd.Hi
	if lo > hi {
		lo, hi = hi, lo
	}
	tm := tableMove{Move: vd.Move.String(), Lo: lo, Hi: hi, Exact: vd.Exact, Best: vd.Best}
	if vd.HasMargin {
		margin := sign * vd.Margin
		tm.Margin = &margin
	}
	switch {
	case vd.Exact:
		m := lo
		if tm.Margin != nil {
			m = *tm.Margin
		}
		tm.Text, tm.Words = signed(m)+" seeds", marginText(m)
	case tm.Margin != nil:
		tm.Text = fmt.Sprintf("between %s and %s seeds for South (exact under Repetition off: %s)", signed(lo), signed(hi), signed(*tm.Margin))
	default:
		tm.Text = fmt.Sprintf("between %s and %s seeds for South", signed(lo), signed(hi))
	}
	return tm
}

// marginText says a final margin for South in words.
func marginText(m int) string {
	winner := "South"
	if m < 0 {
		winner, m = "North", -m
	}
	switch m {
	case 0:
		return "draw"
	case 1:
		return winner + " wins by 1 seed"
	}
	return fmt.Sprintf("%s wins by %d seeds", winner, m)
}

// signed writes a margin in the notation of every score (docs/cli.md,
// Scores): "+8.00", "-3.00", "+0.00".
func signed(m int) string { return fmt.Sprintf("%+.2f", float64(m)) }
