package gui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// sendState sends the state with g, the game at the shown ply.
func (s *session) sendState(g *board.Game) {
	v := s.v
	p := g.Position()
	st := g.Status()
	m := stateMsg{
		Type: "state", Game: v.Name(), Family: "katro", Rows: v.Rows(), Cols: v.Cols(),
		Players: s.players, Engines: s.srv.names(),
		Limit:  limitForm(s.limit),
		GameID: s.gameID, Start: s.start.String(), View: s.view, Fen: p.String(),
		Side: strings.ToLower(p.Side().String()), Clock: p.Clock(),
		Status: st.Result.String(), Reason: st.Reason.String(),
		Thinking: s.job != nil && s.job.kind == "move", Paused: s.paused, Analysis: s.an,
		Moves: []plyMsg{}, Legal: []string{},
	}
	init := v.Start()
	m.StartIsInitial = init.String() == m.Start
	m.Rules = rulesOf(v.Rules())
	if v.Family() == board.Hoyito {
		m.Family = "hoyito"
		m.Captured = [2]int{p.Captured(board.South), p.Captured(board.North)}
	}
	for _, h := range v.Holes() {
		m.Holes = append(m.Holes, h.String())
		m.Counts = append(m.Counts, p.Count(h))
		m.Owners = append(m.Owners, strings.ToLower(v.Owner(h).String()))
	}
	lost := s.lostAt(s.view)
	if lost != nil {
		m.Status, m.Reason = lost.winner().String(), string(lost.termination())
	}
	if !st.Over() && lost == nil {
		for _, mv := range p.LegalMoves() {
			m.Legal = append(m.Legal, mv.String())
		}
	}
	switch {
	case lost != nil:
		m.Turn = "over"
		m.Result = lost.text()
	case st.Over():
		m.Turn = "over"
		m.Result = resultText(g)
	case s.players[p.Side()] == "human" || (s.an.On && !s.engineMoves(p.Side())):
		m.Turn = "human"
	default:
		m.Turn = "engine"
	}
	if s.view > 0 {
		m.Last = s.moves[s.view-1].String()
	}
	replay := board.NewGame(s.start)
	for i, mv := range s.moves {
		q := replay.Position()
		side := q.Side()
		pm := plyMsg{Move: mv.String(), Side: string(side.Letter()), By: s.by[i], MS: s.replies[i].Elapsed.Milliseconds()}
		if in := s.replies[i].Info; in.HasScore {
			pm.Eval, pm.Depth = moveEval(in, side), in.Depth
			pm.Eval.Proven = s.proven[i] && !in.IsMate
		}
		s.reviewPly(&pm, i)
		replay.Play(mv)
		after := replay.Position()
		s.tablesPly(&pm, &q, &after, replay.Status(), s.lostAt(i+1) != nil)
		m.Moves = append(m.Moves, pm)
	}
	if s.limit.HasClock() {
		c := [2]int64{s.clocks[0].Milliseconds(), s.clocks[1].Milliseconds()}
		if s.running >= 0 {
			c[s.running] = max(s.clocks[s.running]-time.Since(s.since), 0).Milliseconds()
			m.Running = strings.ToLower(board.Side(s.running).String())
		}
		m.Clocks = &c
	}
	if s.sent.gameID == s.gameID && s.view == s.sent.view+1 && s.sent.fen != "" {
		m.Steps = sowingSteps(s.sent.fen, v, s.moves[s.view-1])
	}
	m.Match = s.matchState()
	m.Review = s.reviewState()
	s.endgameState(&m, g)
	s.sent.gameID, s.sent.view, s.sent.fen = s.gameID, s.view, m.Fen
	s.send(m)
	if tm, ok := s.srv.tablesView(&p, m.Turn == "over"); ok {
		s.send(tm)
	}
}

// southEval turns an engine's score, from the mover's view, to South's:
// the sign of the score and the mate distance, the bound's direction and
// the order of the win and loss chances. Nil without a score.
func southEval(in client.Info, mover board.Side) *evalMsg {
	if !in.HasScore {
		return nil
	}
	sign := 1
	if mover == board.North {
		sign = -1
	}
	e := &evalMsg{}
	if in.IsMate {
		m := sign * in.Mate
		if in.Mate == 0 { // the mover has lost
			m = -sign
			e.Lost = true
		}
		e.Mate = &m
	} else {
		cp := sign * in.CP
		e.CP = &cp
	}
	switch {
	case in.Bound == "lowerbound" && sign > 0, in.Bound == "upperbound" && sign < 0:
		e.Bound = "lower"
	case in.Bound != "":
		e.Bound = "upper"
	}
	if in.HasWDL {
		w := in.WDL
		if sign < 0 {
			w[0], w[2] = w[2], w[0]
		}
		e.WDL = &w
	}
	return e
}

// text writes a loss on time as the page shows it.
func (l *timeLoss) text() string {
	who := "South wins"
	if l.winner() == board.NorthWins {
		who = "North wins"
	}
	if l.resigned {
		return who + ": " + l.side.String() + " resigned"
	}
	return who + ": " + l.side.String() + " lost on time"
}

// termination is how records name the end: a time forfeit or a
// resignation.
func (l *timeLoss) termination() record.Termination {
	if l.resigned {
		return record.Resignation
	}
	return record.TimeForfeit
}

// reason says what happened, as records write it.
func (l *timeLoss) reason() string {
	if l.resigned {
		return strings.ToLower(l.side.String()) + " resigned"
	}
	return fmt.Sprintf("%s's clock ran out", strings.ToLower(l.side.String()))
}

// limitText is a player's limit as records write it.
func (s *session) limitText(side board.Side) string {
	if s.players[side] == "human" {
		return "none"
	}
	return s.limit.String()
}

// record is the game's record as sower match writes it.
func (s *session) record() *record.GameRecord {
	g := s.gameAt(len(s.moves))
	rec := record.RecordGame(g, s.players[board.South], s.players[board.North], s.limitText(board.South), s.limitText(board.North), s.replies)
	rec.Date = time.Now().Format("2006-01-02")
	s.writeReview(rec)
	s.writeLines(rec)
	if l := s.lostAt(len(s.moves)); l != nil {
		// As sower match records a forfeit: the loser, the termination
		// and what happened.
		rec.Result, rec.Winner = "1-0", l.winner().String()
		if l.winner() == board.NorthWins {
			rec.Result = "0-1"
		}
		rec.Termination, rec.Reason, rec.Loser = l.termination(), l.reason(), l.loser()
	}
	return rec
}

// export sends the game's record in a format of sower match; in a match,
// the record of every game so far, numbered, as one file.
func (s *session) export(format string) error {
	recs := []*record.GameRecord{s.record()}
	name := "sower-" + s.v.Name() + "-" + recs[0].Date
	if s.match != nil {
		recs = s.match.records(s)
		name = "sower-" + s.v.Name() + "-match-" + recs[0].Date
	}
	var text strings.Builder
	switch format {
	case "jsonl":
		for _, rec := range recs {
			b, err := json.Marshal(rec)
			if err != nil {
				return err
			}
			text.Write(append(b, '\n'))
		}
		name += ".jsonl"
	case "pgn":
		for i, rec := range recs {
			if i > 0 {
				text.WriteString("\n")
			}
			text.WriteString(rec.PGN())
		}
		name += ".pgn"
	default:
		return fmt.Errorf("export %q: want jsonl or pgn", format)
	}
	s.send(exportMsg{Type: "export", Format: format, Filename: name, Text: text.String()})
	return nil
}

// importRecord replaces the game with the first game of a record; a
// record that does not fit the rules changes nothing.
func (s *session) importRecord(text string) error {
	recs, err := readRecords(text)
	if err != nil {
		return err
	}
	rec := recs[0]
	g, err := rec.Replay()
	if err != nil {
		return fmt.Errorf("import: %v", err)
	}
	lines, err := sideLinesOf(&rec, g)
	if err != nil {
		return err
	}
	s.stopJob()
	done := s.leaving()
	start := g.Start()
	s.begin(start.Variant(), start, g.Moves())
	s.match = nil
	end := g.Position()
	if (rec.Termination == record.TimeForfeit || rec.Termination == record.Resignation) && !g.Status().Over() && rec.Loser == strings.ToLower(end.Side().String()) {
		s.lost = &timeLoss{ply: len(s.moves), side: end.Side(), resigned: rec.Termination == record.Resignation}
	}
	for i, m := range rec.Moves {
		r := client.Reply{Elapsed: time.Duration(m.MS) * time.Millisecond}
		if m.Depth != nil {
			r.Info.Depth, r.Info.HasDepth = *m.Depth, true
		}
		switch {
		case m.Mate != nil:
			r.Info.Mate, r.Info.IsMate, r.Info.HasScore = *m.Mate, true, true
		case m.CP != nil:
			r.Info.CP, r.Info.HasScore = *m.CP, true
		}
		s.replies[i] = r
		by := map[string]string{"S": rec.South, "N": rec.North}[m.Side]
		if by != "" {
			s.by[i] = by
		}
	}
	s.readReview(&rec)
	s.lines = lines
	s.paused = true // look first; Resume plays on
	s.keepApart(done)
	return nil
}
