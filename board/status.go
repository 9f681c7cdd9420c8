package board

// Reason says why a game ended.
type Reason uint8

// The reasons a game ends. Ongoing means it has not.
const (
	Ongoing          Reason = iota
	ReasonNoMove            // Katro: the side to move has no legal move and loses
	ReasonLimit             // the no-capture limit was reached
	ReasonRepeat            // the same position occurred for the third time
	ReasonLastFour          // Hoyito III: a capture left 4 or fewer seeds
	ReasonBothPassed        // Hoyito III: both players passed in a row
	ReasonFinished          // Hoyito III: a finished game (empty board) read from notation
)

// String returns the reason as shown to people and in JSON.
func (r Reason) String() string {
	switch r {
	case ReasonNoMove:
		return "no legal move"
	case ReasonLimit:
		return "no-capture limit"
	case ReasonRepeat:
		return "repetition"
	case ReasonLastFour:
		return "last four"
	case ReasonBothPassed:
		return "both passed"
	case ReasonFinished:
		return "finished"
	}
	return ""
}

// Result is the outcome of a game.
type Result uint8

// Results. None means the game goes on.
const (
	None Result = iota
	SouthWins
	NorthWins
	Draw
)

// String returns "ongoing", "south", "north" or "draw", as in JSON output.
func (r Result) String() string {
	switch r {
	case SouthWins:
		return "south"
	case NorthWins:
		return "north"
	case Draw:
		return "draw"
	}
	return "ongoing"
}

// Winner returns the side that won and true, or false for a draw or an
// ongoing game.
func (r Result) Winner() (Side, bool) {
	switch r {
	case SouthWins:
		return South, true
	case NorthWins:
		return North, true
	}
	return South, false
}

// Score returns the result from s's point of view: 1 for a win, 0.5 for a
// draw, 0 for a loss (and 0.5 for an ongoing game).
func (r Result) Score(s Side) float64 {
	w, ok := r.Winner()
	switch {
	case !ok:
		return 0.5
	case w == s:
		return 1
	}
	return 0
}

// Status is the state of a game: whether it is over, why, and the result.
type Status struct {
	Result Result
	Reason Reason
	// Seeds are the final seed totals of South and North in Hoyito III,
	// including what the end of the game awards (zero in Katro).
	Seeds [2]int
}

// Over reports whether the game has ended.
func (s Status) Over() bool { return s.Reason != Ongoing }

// Status returns the game's status in this position. history holds the keys
// of the game's earlier positions, from the position it started from up to
// the one before this (see Game.History); it decides repetition. The checks
// follow the rule book: a Katro player without a legal move loses even when
// the position is also a draw by the no-capture limit or repetition.
func (p *Position) Status(history []uint64) Status {
	moves := SomeMoves
	if !p.HasLegalMove() {
		moves = NoMoves
	}
	return p.Ending(Repeats(p.key, history, 2), moves)
}

// drawnBy returns the engine convention that ends the game here, if any:
// the no-capture limit, then repetition when the position occurred twice
// before (unless the Repetition option is off).
func (p *Position) drawnBy(repeated bool) Reason {
	if lim := p.v.rules.NoCaptureLimit; lim > 0 && int(p.clock) >= lim {
		return ReasonLimit
	}
	if repeated && p.v.rules.Repetition == RepetitionThreefold {
		return ReasonRepeat
	}
	return Ongoing
}

// Repeats reports whether key occurs at least n times in history.
func Repeats(key uint64, history []uint64, n int) bool {
	for _, k := range history {
		if k == key {
			if n--; n == 0 {
				return true
			}
		}
	}
	return false
}

// seedResult compares the capture totals of a finished Hoyito III game.
func (p *Position) seedResult(why Reason) Status {
	st := Status{Reason: why, Seeds: [2]int{int(p.capt[0]), int(p.capt[1])}}
	switch {
	case st.Seeds[0] > st.Seeds[1]:
		st.Result = SouthWins
	case st.Seeds[1] > st.Seeds[0]:
		st.Result = NorthWins
	default:
		st.Result = Draw
	}
	return st
}

// MovesKnown says what a caller of Ending knows of the side to move's legal
// moves.
type MovesKnown uint8

// What the caller knows of the legal moves.
const (
	// MovesUnknown: the moves are not generated yet. Ending then looks for
	// a legal move only where a Katro result depends on it at once (the
	// no-capture limit or repetition would draw, and a player without a
	// legal move loses even then); elsewhere it reports a game that goes
	// on, and a caller that then finds no legal move asks again with
	// NoMoves.
	MovesUnknown MovesKnown = iota
	SomeMoves               // the side to move has a legal move
	NoMoves                 // the side to move has no legal move
)

// Ending returns how and by what margin the game ends in this position,
// as Status does, for callers that keep the game's history their own way:
// repeated says whether the position occurred twice before (it is ignored
// under the rule option Repetition off), and moves what is known of the
// legal moves. The search, the solver and the tables judge game ends with
// it at every node: it allocates nothing, and with MovesUnknown it makes
// no move except where the rule book needs one.
func (p *Position) Ending(repeated bool, moves MovesKnown) Status {
	if p.v.family == Hoyito {
		if p.OnBoard() == 0 {
			why := Reason(p.state >> stateReasonBits)
			if why == Ongoing {
				why = ReasonFinished
			}
			return p.seedResult(why)
		}
		// A Hoyito III player without a sowing passes: never an end.
		if why := p.drawnBy(repeated); why != Ongoing {
			q := *p
			q.AwardRows(why)
			return q.seedResult(why)
		}
		return Status{}
	}
	if moves == NoMoves {
		return p.noMove()
	}
	why := p.drawnBy(repeated)
	if why == Ongoing {
		return Status{}
	}
	if moves == MovesUnknown && !p.HasLegalMove() {
		return p.noMove()
	}
	return Status{Result: Draw, Reason: why}
}

// noMove is the status of a Katro position whose side to move has no legal
// move: that side has lost.
func (p *Position) noMove() Status {
	if p.side == South {
		return Status{Result: NorthWins, Reason: ReasonNoMove}
	}
	return Status{Result: SouthWins, Reason: ReasonNoMove}
}

// Margin returns a finished game's result from s's view: in Hoyito III the
// final seed margin (s's total less the opponent's), in Katro 1 for a win,
// -1 for a loss; 0 for a draw or a game that goes on.
func (st Status) Margin(s Side) int {
	if d := st.Seeds[s] - st.Seeds[s.Other()]; d != 0 {
		return d
	}
	switch w, ok := st.Result.Winner(); {
	case !ok:
		return 0
	case w == s:
		return 1
	}
	return -1
}
