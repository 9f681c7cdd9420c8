package record

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// GameRecord is one finished game: the object written, one per line, to the
// JSON records, and the source of the PGN-like text.
type GameRecord struct {
	Game int `json:"game"` // 1-based, in the order games were started
	// Pairing, in a tournament, is the game's pairing: its place (from 1)
	// in the tournament's list of pairings. It is 0 in a match.
	Pairing int               `json:"pairing,omitempty"`
	Variant string            `json:"variant"` // the game's name
	Options map[string]string `json:"options"` // the rule options sent to both engines
	Start   string            `json:"start"`   // the start position (rule book notation)
	South   string            `json:"south"`   // the names of the players
	North   string            `json:"north"`
	Engine1 string            `json:"engine1"` // "south" or "north": engine1's side
	// SouthLimit and NorthLimit are the players' limits ("tc=10+0.1",
	// "depth=2", "none" for a built-in player).
	SouthLimit string       `json:"south_limit"`
	NorthLimit string       `json:"north_limit"`
	Moves      []MoveRecord `json:"moves"`
	// Result is "1-0" (South won), "0-1" (North won) or "1/2-1/2".
	Result      string      `json:"result"`
	Winner      string      `json:"winner"` // "south", "north" or "draw"
	Termination Termination `json:"termination"`
	// Reason says why: the rule that ended the game ("no legal move",
	// "last four", …) or what the loser did wrong.
	Reason string `json:"reason"`
	// Loser is the side that forfeited ("south" or "north"), if any.
	Loser string `json:"loser,omitempty"`
	// Seeds are the final seed totals of South and North (Hoyito III,
	// when the game ended by the rules).
	Seeds *[2]int `json:"seeds,omitempty"`
	Final string  `json:"final"` // the final position
	Date  string  `json:"date"`  // when the game ended, YYYY-MM-DD
}

// MoveRecord is one ply: the move, who made it, the time it took and what
// the engine's last info lines before bestmove reported.
type MoveRecord struct {
	Move  string `json:"move"`
	Side  string `json:"side"` // "S" or "N"
	MS    int64  `json:"ms"`   // from go to bestmove, in milliseconds
	Depth *int   `json:"depth,omitempty"`
	CP    *int   `json:"cp,omitempty"`    // score in centi-units, from the mover's view
	Mate  *int   `json:"mate,omitempty"`  // mate in moves, as reported
	Bound string `json:"bound,omitempty"` // "lowerbound" or "upperbound"
	// Review is the engine's review of the ply (sower review), or nil.
	Review *MoveReview `json:"review,omitempty"`
	// Lines are side lines explored instead of this move (the GUI's),
	// each from the position before it, its first move first. PGN
	// writes them as variations, nested where they share their first
	// moves (ravTokens).
	Lines [][]string `json:"lines,omitempty"`
}

// NewMoveRecord records move m by side s after reply r.
func NewMoveRecord(m board.Move, s board.Side, r client.Reply) MoveRecord {
	mr := MoveRecord{Move: m.String(), Side: string(s.Letter()), MS: r.Elapsed.Milliseconds()}
	e := r.Info
	if e.HasDepth {
		mr.Depth = &e.Depth
	}
	if e.HasScore {
		if e.IsMate {
			mr.Mate = &e.Mate
		} else {
			mr.CP = &e.CP
		}
		mr.Bound = e.Bound
	}
	return mr
}

// Engine1Score returns engine1's points in the game: 1, ½ or 0.
func (g *GameRecord) Engine1Score() float64 {
	switch g.Winner {
	case "draw":
		return 0.5
	case g.Engine1:
		return 1
	}
	return 0
}

// ResultText returns the PGN result of a board result.
func ResultText(r board.Result) string {
	switch r {
	case board.SouthWins:
		return "1-0"
	case board.NorthWins:
		return "0-1"
	}
	return "1/2-1/2"
}

// optionOrder is the order of the rule options in records.
func optionOrder() []string { return RuleOptions()[1:] }

// PGN returns the game as PGN-like text: tags (the Seven Tag Roster, with
// South as White and North as Black, then the variant, start and rules),
// then the moves numbered
// by turns, each with a comment giving the engine's score/depth and time
// ({+0.35/12 0.520s}) and its side lines as variations ("(b1 d4)"), a
// final comment with the reason, and the result.
// A '}' in a comment's text is written as ')' (see pgnComment).
//
// A turn is a run of consecutive plies by one side (a Hoyito III extra turn
// makes a longer run). "n." starts South's n-th turn. North's turn starts
// with "n..." unless it directly follows a South turn of a single ply, so
// Katro games read like chess games ("1. a1 f6 2. c1 b6") and every run
// stays unambiguous ("1. a1 c2 a2 2. b1": North played c2 and a2).
func (g *GameRecord) PGN() string {
	var b strings.Builder
	tag := func(k, v string) { fmt.Fprintf(&b, "[%s %s]\n", k, strconv.Quote(v)) }
	// The Seven Tag Roster first, in its order, as PGN readers (Ordo,
	// BayesElo, chess libraries) expect it: White is South, the side whose
	// win is 1-0, and Black is North.
	tag("Event", "sower match")
	tag("Site", "?")
	date := strings.ReplaceAll(g.Date, "-", ".")
	if date == "" {
		date = "????.??.??"
	}
	tag("Date", date)
	tag("Round", strconv.Itoa(g.Game))
	tag("White", g.South)
	tag("Black", g.North)
	tag("Result", g.Result)
	tag("Variant", g.Variant)
	tag("FEN", g.Start)
	for _, k := range optionOrder() {
		if v, ok := g.Options[k]; ok {
			tag(k, v)
		}
	}
	if g.SouthLimit == g.NorthLimit {
		tag("TimeControl", pgnLimit(g.SouthLimit))
	} else {
		tag("SouthTimeControl", pgnLimit(g.SouthLimit))
		tag("NorthTimeControl", pgnLimit(g.NorthLimit))
	}
	tag("Termination", string(g.Termination))
	tag("PlyCount", strconv.Itoa(len(g.Moves)))
	b.WriteByte('\n')

	var toks []string
	turn := 0
	rav := false // a variation was just written
	for i := 0; i < len(g.Moves); {
		j := i
		for j < len(g.Moves) && g.Moves[j].Side == g.Moves[i].Side {
			j++
		}
		if g.Moves[i].Side == "S" {
			turn++
			toks = append(toks, strconv.Itoa(turn)+".")
		} else {
			single := i > 0 && i == 1+prevRunStart(g.Moves, i) // the South turn before was one ply
			if turn == 0 {
				turn = 1
			}
			if !single || rav {
				toks = append(toks, strconv.Itoa(turn)+"...")
			}
		}
		for _, m := range g.Moves[i:j] {
			toks = append(toks, pgnMove(m.Move), pgnComment(m.comment()))
			toks = append(toks, ravTokens(m.Lines)...)
			rav = len(m.Lines) > 0
		}
		i = j
	}
	final := pgnComment(g.Reason)
	switch {
	case g.Termination != Normal && g.Loser != "":
		final = pgnComment(fmt.Sprintf("%s forfeits: %s: %s", titleSide(g.Loser), g.Termination, g.Reason))
	case g.Seeds != nil:
		final = pgnComment(fmt.Sprintf("%s, %d-%d", g.Reason, g.Seeds[0], g.Seeds[1]))
	}
	if g.Reason != "" || g.Seeds != nil {
		toks = append(toks, final)
	}
	toks = append(toks, g.Result)
	b.WriteString(wrap(toks, 79))
	b.WriteString("\n\n")
	return b.String()
}

// pgnPass is how PGN writes a Hoyito III pass: "Z0", the null move of
// chess PGN. It is a symbol token of the PGN standard, and readers that
// take moves as chess SAN (python-chess, pgn-parser, ChessBase) read it
// as a move, where they skip or reject the rule book's "pass". The
// readers of records take it back as "pass", and "--", another common
// null move, too.
const pgnPass = "Z0"

// pgnMove writes a move of the rule book's notation as a PGN move token.
func pgnMove(m string) string {
	if m == board.Pass.String() {
		return pgnPass
	}
	return m
}

// moveFromPGN reads a PGN move token in the rule book's notation: a null
// move ("Z0", "--") is a pass.
func moveFromPGN(tok string) string {
	if tok == pgnPass || tok == "--" {
		return board.Pass.String()
	}
	return tok
}

// pgnComment writes text as a PGN comment, {text}. A brace comment
// cannot hold a '}' (PGN has no escape for it), so each becomes ')'; line
// breaks and other control characters become spaces, so that the comment
// stays within the movetext.
func pgnComment(text string) string {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r == '}':
			return ')'
		case r < ' ' || r == 0x7f:
			return ' '
		}
		return r
	}, text)
	return "{" + clean + "}"
}

// pgnLimit writes a limit for a PGN time control tag: "10+0.1" for a
// clock alone, "-" for none, else the limit as timecontrol.ParseLimit
// reads it.
func pgnLimit(s string) string {
	if s == "none" {
		return "-"
	}
	if tc, ok := strings.CutPrefix(s, "tc="); ok && !strings.Contains(tc, " ") {
		return tc
	}
	return s
}

// prevRunStart returns the index where the run of plies ending at i-1
// began.
func prevRunStart(ms []MoveRecord, i int) int {
	k := i - 1
	for k > 0 && ms[k-1].Side == ms[i-1].Side {
		k--
	}
	return k
}

// titleSide turns "south" into "South".
func titleSide(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// comment writes a move's comment: score/depth as the engine reported
// (the score in seeds, "#3" or "#-3" for a mate, as search.Score.Text
// writes them) and the time used, then the
// review's commands if the ply was reviewed (see MoveReview).
func (m MoveRecord) comment() string {
	var parts []string
	var sc string
	switch {
	case m.Mate != nil:
		sc = "#" + strconv.Itoa(*m.Mate)
	case m.CP != nil:
		sc = fmt.Sprintf("%+.2f", float64(*m.CP)/100)
	}
	if sc != "" {
		if m.Depth != nil {
			sc += "/" + strconv.Itoa(*m.Depth)
		}
		parts = append(parts, sc)
	}
	parts = append(parts, fmt.Sprintf("%.3fs", float64(m.MS)/1000))
	if m.Review != nil {
		parts = append(parts, m.Review.pgnCommands())
	}
	return strings.Join(parts, " ")
}

// wrap joins tokens with spaces into lines of at most width characters
// (a longer token gets a line of its own).
func wrap(toks []string, width int) string {
	var b strings.Builder
	n := 0
	for _, t := range toks {
		if n > 0 && n+1+len(t) > width {
			b.WriteByte('\n')
			n = 0
		} else if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(t)
		n += len(t)
	}
	return b.String()
}

// Today returns the date as records write it.
func Today() string { return time.Now().Format("2006-01-02") }

// CheckResult checks that a finished game's record reads as one: engine1
// played South or North, the result and the winner agree, and a forfeit
// names its loser (and a game ended by the rules names none).
func (g *GameRecord) CheckResult() error {
	switch {
	case g.Engine1 != "south" && g.Engine1 != "north":
		return fmt.Errorf("game %d: engine1 plays %q", g.Game, g.Engine1)
	case g.Loser != "" && g.Loser != "south" && g.Loser != "north":
		return fmt.Errorf("game %d: loser %q", g.Game, g.Loser)
	}
	winner := map[string]string{"1-0": "south", "0-1": "north", "1/2-1/2": "draw"}[g.Result]
	if winner == "" || g.Winner != winner {
		return fmt.Errorf("game %d: result %q with winner %q", g.Game, g.Result, g.Winner)
	}
	switch g.Termination {
	case Normal, Adjudication:
		if g.Loser != "" {
			return fmt.Errorf("game %d: ended by %s, yet %s is named the loser", g.Game, map[Termination]string{Normal: "the rules", Adjudication: "adjudication"}[g.Termination], g.Loser)
		}
	case TimeForfeit, IllegalMove, Crash, NoAnswer, Resignation:
		if g.Loser == "" || g.Winner == "draw" || g.Loser == g.Winner {
			return fmt.Errorf("game %d: a %s with loser %q and winner %q", g.Game, g.Termination, g.Loser, g.Winner)
		}
	default:
		return fmt.Errorf("game %d: termination %q", g.Game, g.Termination)
	}
	return nil
}
