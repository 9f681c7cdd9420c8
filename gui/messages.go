package gui

import (
	"encoding/json"

	"github.com/sower-engine/sower/bench/record"
)

// The messages between the page and the server, as JSON objects with a
// "type" (docs/gui.md lists them).

// request is a message from the page. Only the fields of its type are
// used.
type request struct {
	Type string `json:"type"`
	// new: the game, players, limit, rules and optional position.
	Game           string  `json:"game"`
	South          string  `json:"south"`
	North          string  `json:"north"`
	LimitKind      string  `json:"limitKind"` // movetime, depth or tc
	LimitValue     string  `json:"limitValue"`
	CaptureSide    string  `json:"captureSide"`
	LastFour       string  `json:"lastFour"`
	Repetition     string  `json:"repetition"`     // Hoyito III only: ignored for Katro
	NoCaptureLimit numText `json:"noCaptureLimit"` // a number, or the text typed
	Fen            string  `json:"fen"`
	Moves          string  `json:"moves"`
	// Match, if not 0, starts a traditional Hoyito III match of that
	// many games (tradMatch).
	Match int `json:"match"`
	// Address marks the game of the page's address: a refused field is
	// left at its default and named, the rest kept (see newGame).
	Address bool `json:"address"`
	// move: the move and the ply it is played at (the shown ply).
	Move string `json:"move"`
	Ply  int    `json:"ply"`
	// analyse: on or off, with which engine and how many lines.
	On      bool   `json:"on"`
	Engine  string `json:"engine"`
	MultiPV int    `json:"multipv"`
	// import: a record; export: its format (jsonl or pgn).
	Text   string `json:"text"`
	Format string `json:"format"`
	// line: a side line to explore and keep (sideline.go).
	Line lineRequest `json:"line"`
}

// numText is a field the page sends as a JSON number or as the text
// typed, kept as text so that "1.5" or "" is refused by name rather than
// rounded or dropped.
type numText struct {
	text string
	set  bool // present and not null
}

// UnmarshalJSON keeps a string's text, or a number as written.
func (n *numText) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = numText{}
		return nil
	}
	n.set = true
	if err := json.Unmarshal(b, &n.text); err != nil {
		n.text = string(b)
	}
	return nil
}

// stateMsg is the whole state of the game as the page shows it.
type stateMsg struct {
	Type    string    `json:"type"`   // "state"
	GameID  int       `json:"gameId"` // changes with every new game, set up or import
	Game    string    `json:"game"`
	Family  string    `json:"family"` // katro or hoyito
	Rows    int       `json:"rows"`
	Cols    int       `json:"cols"`
	Rules   rulesMsg  `json:"rules"`
	Players [2]string `json:"players"` // South, North: human or an engine name
	Engines []string  `json:"engines"`
	Limit   limitMsg  `json:"limit"`
	Start   string    `json:"start"`
	// StartIsInitial says the game began at its variant's start.
	StartIsInitial bool     `json:"startIsInitial"`
	Moves          []plyMsg `json:"moves"`
	View           int      `json:"view"` // the ply shown
	Fen            string   `json:"fen"`  // the shown position
	Counts         []int    `json:"counts"`
	Holes          []string `json:"holes"` // names, row 1 first, west to east
	Owners         []string `json:"owners"`
	Legal          []string `json:"legal"`
	Side           string   `json:"side"` // south or north to move
	Captured       [2]int   `json:"captured"`
	Clock          int      `json:"clock"` // plies without a capture
	Status         string   `json:"status"`
	Reason         string   `json:"reason"`
	Result         string   `json:"result"` // the result with its reason, once over
	Turn           string   `json:"turn"`   // human, engine or over
	Thinking       bool     `json:"thinking"`
	Paused         bool     `json:"paused"`
	Analysis       analysis `json:"analysis"`
	// Clocks are the time left in milliseconds when the limit is a
	// clock; Running is the side whose clock runs, or "".
	Clocks  *[2]int64 `json:"clocks,omitempty"`
	Running string    `json:"running"`
	Last    string    `json:"last"` // the move that led to the shown position
	// Match is the traditional match being played, if any.
	Match *matchMsg `json:"match,omitempty"`
	// Steps are the boards of the last move's sowing, lap by lap, when
	// the shown position follows the one shown before by that move.
	Steps []step `json:"steps,omitempty"`
	// Review is the game's review, under way or done, if any.
	Review *reviewMsg `json:"review,omitempty"`
	// End is the game at its last ply (endgame.go); Hints say why each
	// hole that is not a legal move cannot be played; Circuits are the
	// sowing circuits, South's and North's, for the page's arrows.
	End      endMsg            `json:"end"`
	Hints    map[string]string `json:"hints,omitempty"`
	Circuits [2][]string       `json:"circuits"`
	// Lines are the side lines explored beside the game.
	Lines []sideLine `json:"lines"`
}

type rulesMsg struct {
	CaptureSide    string `json:"captureSide"`
	LastFour       string `json:"lastFour"`
	Repetition     string `json:"repetition"`
	NoCaptureLimit int    `json:"noCaptureLimit"`
}

type limitMsg struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// plyMsg is one ply of the game.
type plyMsg struct {
	Move string `json:"move"`
	Side string `json:"side"` // S or N
	By   string `json:"by"`   // human or the engine's name
	// Eval is the engine's score for the move, from South's view, as
	// the score of the position after it (moveEval); nil without one.
	Eval  *evalMsg `json:"eval,omitempty"`
	Depth int      `json:"depth,omitempty"`
	MS    int64    `json:"ms"`
	// Review is the ply's mark, loss and better move, once reviewed.
	Review *record.MoveReview `json:"review,omitempty"`
	// Play and PlayDepth are the engine's own score of the ply in play,
	// when the review's replaces it as Eval.
	Play      *evalMsg `json:"play,omitempty"`
	PlayDepth int      `json:"playDepth,omitempty"`
	// Source is "tables" when Eval is the endgame tables' exact result
	// of the position after the ply, "result" when it is the final
	// margin of a game that ended inside the tables (tablesPly), ""
	// otherwise.
	Source string `json:"source,omitempty"`
}

// evalMsg is an engine's score from South's view (the page shows every
// score so). Exactly one of CP and Mate is set.
type evalMsg struct {
	// CP is the score in hundredths: of a seed of final margin in Hoyito
	// III, of the evaluation's unit in Katro.
	CP *int `json:"cp,omitempty"`
	// Mate is a forced result in moves, counted from the position the
	// score is of: positive, South wins with its Mate-th move from
	// there; negative, North does. Lost says the game is lost already
	// for the side to move there (the engine's "mate 0"; Mate's sign
	// names the winner).
	Mate *int `json:"mate,omitempty"`
	Lost bool `json:"lost,omitempty"`
	// Proven says a CP score is a result the engine proved (it said
	// "info string proven: …" for it): a Hoyito III exact final margin,
	// or a draw. A Mate is always proven; any other score is an estimate,
	// however large.
	Proven bool `json:"proven,omitempty"`
	// Exact says a proven CP score is the endgame tables' result.
	Exact bool `json:"exact,omitempty"`
	// Bound is "lower" (South's true score is at least this one) or
	// "upper", after a search that failed high or low.
	Bound string `json:"bound,omitempty"`
	// WDL is South's win, the draw and North's win in per mille, when the
	// engine gave them (UCI_ShowWDL).
	WDL *[3]int `json:"wdl,omitempty"`
}

// analysis is the state of the analysis.
type analysis struct {
	On         bool   `json:"on"`
	Engine     string `json:"engine"`
	MultiPV    int    `json:"multipv"`
	MaxMultiPV int    `json:"maxMultipv"` // 1 unless the engine has a MultiPV option
}

// infoMsg is an engine's info line, parsed, for the analysis panel.
type infoMsg struct {
	Type     string `json:"type"` // "info"
	Gen      int    `json:"gen"`  // which search
	Engine   string `json:"engine"`
	MultiPV  int    `json:"multipv"`
	Depth    int    `json:"depth"`
	SelDepth int    `json:"seldepth"`
	Score    string `json:"score"` // "cp 24", "mate -3"
	Bound    string `json:"bound,omitempty"`
	// WDL is the engine's win, draw and loss chances in per mille, from
	// the side to move's view, when it sends them.
	WDL *[3]int `json:"wdl,omitempty"`
	// Eval is the score (and WDL) from South's view, as the page shows it.
	Eval   *evalMsg `json:"eval,omitempty"`
	Nodes  uint64   `json:"nodes"`
	NPS    uint64   `json:"nps"`
	TimeMS int64    `json:"time"`
	PV     []string `json:"pv"`
	Fen    string   `json:"fen"` // the position analysed
	// Restored marks a line kept from before a reload or a restart, sent
	// again while the engine searches anew.
	Restored bool `json:"restored,omitempty"`
}

// sessionMsg is the first message of a socket: the game's session id,
// and whether its state was restored (then a state follows; else the page
// asks for a game).
type sessionMsg struct {
	Type     string `json:"type"` // "session"
	ID       string `json:"id"`
	Restored bool   `json:"restored"`
}

// noteMsg is a message for #message ("" clears it), or with the type
// "takenover" the note that another tab took the game over.
type noteMsg struct {
	Type string `json:"type"` // "message"
	Text string `json:"text"`
}

// exportMsg carries a record for the page to save.
type exportMsg struct {
	Type     string `json:"type"` // "export"
	Format   string `json:"format"`
	Filename string `json:"filename"`
	Text     string `json:"text"`
}

// previewMsg is a position of an analysis line, shown without changing
// the game.
type previewMsg struct {
	Type     string `json:"type"` // "preview"
	Fen      string `json:"fen"`
	Moves    string `json:"moves"`
	Counts   []int  `json:"counts"`
	Captured [2]int `json:"captured"`
}
