package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// RecordGame returns the record of game g, played or being played by
// south and north under the given limits, as the arbiter writes it:
// replies[i] is what the engine said with move i (a zero Reply for a move
// by a person). A game not over has the result "*", the winner
// "ongoing" and the termination "unterminated".
func RecordGame(g *board.Game, south, north, southLimit, northLimit string, replies []client.Reply) *GameRecord {
	start := g.Start()
	v := start.Variant()
	rec := &GameRecord{
		Game: 1, Variant: v.Name(), Options: map[string]string{}, Start: start.String(),
		South: south, North: north, Engine1: "south",
		SouthLimit: southLimit, NorthLimit: northLimit, Moves: []MoveRecord{},
	}
	for _, o := range GameOptions(v)[1:] {
		rec.Options[o.Name] = o.Value
	}
	replay := board.NewGame(start)
	for i, m := range g.Moves() {
		var r client.Reply
		if i < len(replies) {
			r = replies[i]
		}
		p := replay.Position()
		rec.Moves = append(rec.Moves, NewMoveRecord(m, p.Side(), r))
		replay.Play(m) // legal: g played it
	}
	if g.Status().Over() {
		rec.Finish(g)
	} else {
		p := g.Position()
		rec.Result, rec.Winner, rec.Final, rec.Date = "*", "ongoing", p.String(), Today()
		rec.Termination = Unterminated
	}
	return rec
}

// Finish records the end of a game ended by the rules.
func (g *GameRecord) Finish(game *board.Game) {
	st := game.Status()
	g.Result, g.Winner = ResultText(st.Result), st.Result.String()
	g.Termination, g.Reason = Normal, st.Reason.String()
	p := game.Position()
	if p.Variant().Family() == board.Hoyito {
		seeds := st.Seeds
		g.Seeds = &seeds
	}
	g.Final, g.Date = p.String(), Today()
}

// Replay plays the record's moves from its start under its game and rule
// options and returns the game. An error names what does not fit the
// rules.
func (g *GameRecord) Replay() (*board.Game, error) {
	rules := board.DefaultRules()
	var err error
	if s, ok := g.Options["CaptureSide"]; ok {
		rules.CaptureSide, err = board.ParseCaptureSide(s)
	}
	if s, ok := g.Options["LastFour"]; ok && err == nil {
		rules.LastFour, err = board.ParseLastFour(s)
	}
	if s, ok := g.Options["Repetition"]; ok && err == nil {
		rules.Repetition, err = board.ParseRepetition(s) // threefold when absent (older records)
	}
	if s, ok := g.Options["NoCaptureLimit"]; ok && err == nil {
		rules.NoCaptureLimit, err = strconv.Atoi(s)
		if err == nil && rules.NoCaptureLimit < 0 {
			err = fmt.Errorf("NoCaptureLimit %d is negative", rules.NoCaptureLimit)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("game %d: options: %v", g.Game, err)
	}
	v, err := board.NewWithRules(g.Variant, rules)
	if err != nil {
		return nil, fmt.Errorf("game %d: %v", g.Game, err)
	}
	p, err := v.ParsePosition(g.Start)
	if err != nil {
		return nil, fmt.Errorf("game %d: start: %v", g.Game, err)
	}
	game := board.NewGame(p)
	for i, m := range g.Moves {
		pos := game.Position()
		if m.Side != "" && m.Side != string(pos.Side().Letter()) {
			return game, fmt.Errorf("game %d, ply %d: side %s recorded, %s to move", g.Game, i+1, m.Side, pos.Side())
		}
		mv, err := v.ParseMove(m.Move)
		if err == nil {
			err = game.Play(mv)
		}
		if err != nil {
			return game, fmt.Errorf("game %d, ply %d: %v", g.Game, i+1, err)
		}
	}
	return game, nil
}

// ReadRecords reads game records in either format the arbiter writes:
// JSON objects one a line, or the PGN-like text (from which the game, its
// options, the start, the players, the moves with their comments, the
// result, the termination and a forfeit's loser are read back). Records
// come back in order.
func ReadRecords(data []byte) ([]GameRecord, error) {
	t := bytes.TrimSpace(data)
	if len(t) == 0 {
		return nil, errors.New("no game record")
	}
	if t[0] == '{' {
		return readJSONL(t)
	}
	return readPGN(string(t))
}

func readJSONL(data []byte) ([]GameRecord, error) {
	var recs []GameRecord
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), len(data)+1)
	for n := 1; sc.Scan(); n++ {
		l := bytes.TrimSpace(sc.Bytes())
		if len(l) == 0 {
			continue
		}
		var r GameRecord
		if err := json.Unmarshal(l, &r); err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		recs = append(recs, r)
	}
	return recs, sc.Err()
}

// readPGN reads the PGN-like text: tag pairs, then the movetext of each
// game up to its result.
func readPGN(text string) ([]GameRecord, error) {
	var recs []GameRecord
	var cur *GameRecord
	var tags map[string]string
	var body strings.Builder
	flush := func() error {
		if cur == nil {
			return nil
		}
		if err := cur.readMovetext(body.String(), tags); err != nil {
			return fmt.Errorf("game %d: %v", len(recs)+1, err)
		}
		// The sides and the final position come from the rules; a
		// record they reject is reported by Replay.
		if g, err := cur.Replay(); err == nil {
			p := g.Start()
			for i := range cur.Moves {
				cur.Moves[i].Side = string(p.Side().Letter())
				p, _ = p.After(g.Moves()[i])
			}
			p = g.Position()
			cur.Final = p.String()
		}
		recs = append(recs, *cur)
		cur, tags = nil, nil
		body.Reset()
		return nil
	}
	for n, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "[") {
			if cur != nil && body.Len() > 0 {
				if err := flush(); err != nil {
					return nil, err
				}
			}
			if cur == nil {
				cur, tags = &GameRecord{Options: map[string]string{}}, map[string]string{}
			}
			k, v, err := readTag(l)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", n+1, err)
			}
			tags[k] = v
			continue
		}
		if cur == nil {
			if l == "" {
				continue
			}
			return nil, fmt.Errorf("line %d: movetext before the tags", n+1)
		}
		body.WriteString(l + "\n")
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return recs, nil
}

// readTag reads `[Key "value"]`.
func readTag(l string) (string, string, error) {
	inner, ok := strings.CutSuffix(strings.TrimPrefix(l, "["), "]")
	k, q, ok2 := strings.Cut(inner, " ")
	if !ok || !ok2 {
		return "", "", fmt.Errorf("bad tag %q", l)
	}
	v, err := strconv.Unquote(strings.TrimSpace(q))
	if err != nil {
		return "", "", fmt.Errorf("bad tag value in %q", l)
	}
	return k, v, nil
}

// limitTag reads a player's limit back from its time control tag, or
// the TimeControl tag both share.
func limitTag(tags map[string]string, key string) string {
	v, ok := tags[key]
	if !ok {
		v = tags["TimeControl"]
	}
	switch {
	case v == "-" || v == "":
		return "none"
	case strings.Contains(v, "="):
		return v
	}
	return "tc=" + v
}

// readMovetext fills the record from its tags and movetext.
func (g *GameRecord) readMovetext(body string, tags map[string]string) error {
	g.Variant, g.Start = tags["Variant"], tags["FEN"]
	g.South, g.North, g.Result = tags["White"], tags["Black"], tags["Result"]
	if _, ok := tags["White"]; !ok { // written before the Seven Tag Roster
		g.South, g.North = tags["South"], tags["North"]
	}
	g.Engine1 = "south"
	g.Game, _ = strconv.Atoi(tags["Round"])
	if d := tags["Date"]; d != "????.??.??" {
		g.Date = strings.ReplaceAll(d, ".", "-")
	}
	g.Termination = Termination(tags["Termination"])
	g.SouthLimit, g.NorthLimit = limitTag(tags, "SouthTimeControl"), limitTag(tags, "NorthTimeControl")
	for _, k := range optionOrder() {
		if v, ok := tags[k]; ok {
			g.Options[k] = v
		}
	}
	if g.Variant == "" {
		return errors.New("no Variant tag")
	}
	if g.Start == "" {
		v, err := board.New(g.Variant)
		if err != nil {
			return err
		}
		g.Start = v.Start().String()
	}
	g.Moves = []MoveRecord{}
	var last string
	var vars []ravFrame // the variations being read, innermost last
	for rest := body; ; {
		rest = strings.TrimLeft(rest, " \t\r\n")
		if rest == "" {
			break
		}
		switch rest[0] {
		case '{':
			end := strings.IndexByte(rest, '}')
			if end < 0 {
				return errors.New("unterminated comment")
			}
			c := rest[1:end]
			rest = rest[end+1:]
			switch n := len(g.Moves); {
			case len(vars) > 0:
				// a comment in a side line: not kept
			case n > 0 && last == "move":
				g.Moves[n-1].readComment(c)
			default:
				g.Reason = c
			}
			last = "comment"
			continue
		case '(':
			var ok bool
			if vars, ok = g.openVariation(vars); !ok {
				return errors.New("a variation before any move")
			}
			rest, last = rest[1:], ""
			continue
		case ')':
			if len(vars) == 0 {
				return errors.New("')' closes no variation")
			}
			vars = g.closeVariation(vars)
			rest, last = rest[1:], ""
			continue
		}
		tok := rest
		if i := strings.IndexAny(rest, " \t\r\n{()"); i >= 0 {
			tok, rest = rest[:i], rest[i:]
		} else {
			rest = ""
		}
		switch {
		case len(vars) > 0 && (strings.HasSuffix(tok, ".") || strings.HasPrefix(tok, "$")):
			// a turn number or a glyph in a side line
			continue
		case len(vars) > 0:
			top := &vars[len(vars)-1]
			top.moves = append(top.moves, moveFromPGN(tok))
			continue
		}
		switch {
		case tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*":
			g.Result = tok
		case strings.HasSuffix(tok, "."):
			// a turn number
		case strings.HasPrefix(tok, "$"):
			// a numeric annotation glyph ($2 a mistake, $4 a blunder):
			// the move's comment may follow it
			continue
		default:
			g.Moves = append(g.Moves, MoveRecord{Move: moveFromPGN(tok)})
			last = "move"
			continue
		}
		last = ""
	}
	if len(vars) > 0 {
		return errors.New("unterminated variation")
	}
	switch g.Result {
	case "1-0":
		g.Winner = "south"
	case "0-1":
		g.Winner = "north"
	case "1/2-1/2":
		g.Winner = "draw"
	default:
		g.Winner = "ongoing"
	}
	g.readForfeit()
	return nil
}

// readForfeit finds the loser of a game lost by forfeit: in the final
// comment as PGN writes it ("South forfeits: time forfeit: …", which
// leaves the reason after the termination), or else, as other tools
// write a forfeit (cutechess: Termination "time forfeit", a decisive
// Result), from the result.
func (g *GameRecord) readForfeit() {
	switch g.Termination {
	case TimeForfeit, IllegalMove, Crash, NoAnswer, Resignation:
	default:
		return
	}
	if side, rest, ok := strings.Cut(g.Reason, " forfeits: "); ok && (side == "South" || side == "North") {
		g.Loser = strings.ToLower(side)
		g.Reason = strings.TrimPrefix(rest, string(g.Termination)+": ")
		return
	}
	switch g.Winner {
	case "south":
		g.Loser = "north"
	case "north":
		g.Loser = "south"
	}
}

// readComment reads a move comment as comment writes it: "+0.35/12
// 0.520s", "#-3/9 1.000s", "0.010s", with a review's [%…] commands; a
// mate written "-M3" (cutechess's notation, Sower's before 2026-12-06)
// is read too.
func (m *MoveRecord) readComment(c string) {
	c, m.Lines = readLines(c)
	c, m.Review = readCommands(c)
	for _, w := range strings.Fields(c) {
		if s, ok := strings.CutSuffix(w, "s"); ok {
			if x, err := strconv.ParseFloat(s, 64); err == nil {
				m.MS = int64(x*1000 + 0.5)
				continue
			}
		}
		sc, depth, hasDepth := strings.Cut(w, "/")
		if hasDepth {
			if d, err := strconv.Atoi(depth); err == nil {
				m.Depth = &d
			}
		}
		switch {
		case strings.HasPrefix(sc, "#"):
			if n, err := strconv.Atoi(sc[1:]); err == nil {
				m.Mate = &n
			}
		case strings.HasPrefix(sc, "+M") || strings.HasPrefix(sc, "-M"):
			// As cutechess writes mates, and Sower did before 2026-12-06.
			if n, err := strconv.Atoi(sc[2:]); err == nil {
				if sc[0] == '-' {
					n = -n
				}
				m.Mate = &n
			}
		default:
			if x, err := strconv.ParseFloat(sc, 64); err == nil {
				cp := int(x*100 + 0.5*sign(x))
				m.CP = &cp
			}
		}
	}
}

func sign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}

// readLines takes the side lines, [%line m1 m2 …] commands, out of a
// move's comment and returns the rest of it. (PGN now writes side lines
// as variations; records written before keep them so.)
func readLines(c string) (string, [][]string) {
	var lines [][]string
	for {
		i := strings.Index(c, "[%line ")
		if i < 0 {
			return c, lines
		}
		j := strings.IndexByte(c[i:], ']')
		if j < 0 {
			return c, lines
		}
		if l := strings.Fields(c[i+len("[%line ") : i+j]); len(l) > 0 {
			lines = append(lines, l)
		}
		c = c[:i] + c[i+j+1:]
	}
}
