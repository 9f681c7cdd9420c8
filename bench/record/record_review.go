package record

import (
	"fmt"
	"strconv"
	"strings"
)

// MoveReview is the engine's review of one ply, as sower review writes it
// into a record (the field "review" of a move, and commands in its PGN
// comment). Scores are from South's point of view, whoever moved.
type MoveReview struct {
	// Mark is "best", "good", "inaccuracy", "mistake" or "blunder".
	Mark string `json:"mark"`
	// Loss is what the move lost against the engine's best, from the
	// mover's view: in Katro the mover's expected score (the win chance
	// with draws counting half, 0 to 1) in points of 1 (0.12 is 12
	// points); in Hoyito III seeds of the final margin.
	Loss float64 `json:"loss"`
	// CP and Mate score the position after the move: CP in the
	// evaluation's unit (hundredths of a seed; in Hoyito III hundredths of
	// a seed of the final margin), Mate (Katro) a proven win in moves,
	// negative when North wins. Both are absent after a Katro game's last
	// move, which the result scores.
	CP   *int `json:"cp,omitempty"`
	Mate *int `json:"mate,omitempty"`
	// Proven says the score is a proven result: a Katro win, loss or
	// draw, a Hoyito III exact margin.
	Proven bool `json:"proven,omitempty"`
	// Depth is the depth of the search after the move (0 for a finished
	// game).
	Depth int `json:"depth,omitempty"`
	// Best is the engine's move in the position before the ply when it
	// was not the move played, and Line its line from there, Best first.
	Best string   `json:"best,omitempty"`
	Line []string `json:"line,omitempty"`
}

// The PGN form: commands in the move's comment, after the engine's own
// score and time, as lichess writes its evaluations:
//
//	a1 {+0.35/12 0.520s [%eval -1.20] [%review mistake 0.14] [%best b1 c4 a1]}
//
// [%eval x] is the score after the move from South's view, in units
// (hundredths divided by 100: Katro the evaluation, Hoyito III seeds of
// the final margin) or "#n" / "#-n" for a Katro win in n moves; [%proven]
// follows a proven score; [%review mark loss] and [%best move line…] carry
// the rest, and [%depth n] the search's depth.

// pgnCommands writes the review as PGN comment commands.
func (r *MoveReview) pgnCommands() string {
	var parts []string
	switch {
	case r.Mate != nil:
		parts = append(parts, fmt.Sprintf("[%%eval #%d]", *r.Mate))
	case r.CP != nil:
		parts = append(parts, fmt.Sprintf("[%%eval %.2f]", float64(*r.CP)/100))
	}
	if r.Proven {
		parts = append(parts, "[%proven]")
	}
	if r.Depth > 0 {
		parts = append(parts, fmt.Sprintf("[%%depth %d]", r.Depth))
	}
	parts = append(parts, fmt.Sprintf("[%%review %s %s]", r.Mark, strconv.FormatFloat(r.Loss, 'f', -1, 64)))
	if r.Best != "" {
		parts = append(parts, "[%best "+strings.Join(append([]string{r.Best}, lineAfterBest(r)...), " ")+"]")
	}
	return strings.Join(parts, " ")
}

// lineAfterBest returns the line without its first move, Best.
func lineAfterBest(r *MoveReview) []string {
	if len(r.Line) > 0 && r.Line[0] == r.Best {
		return r.Line[1:]
	}
	return r.Line
}

// readCommands takes the [%…] commands out of a comment and returns the
// rest of the comment and the review they carry (nil when there is no
// [%review]).
func readCommands(c string) (string, *MoveReview) {
	var rest strings.Builder
	var r MoveReview
	found := false
	for {
		i := strings.Index(c, "[%")
		if i < 0 {
			rest.WriteString(c)
			break
		}
		j := strings.IndexByte(c[i:], ']')
		if j < 0 {
			rest.WriteString(c)
			break
		}
		rest.WriteString(c[:i])
		f := strings.Fields(c[i+2 : i+j])
		c = c[i+j+1:]
		if len(f) == 0 {
			continue
		}
		switch args := f[1:]; f[0] {
		case "eval":
			r.readEval(args)
		case "proven":
			r.Proven = true
		case "depth":
			if len(args) == 1 {
				r.Depth, _ = strconv.Atoi(args[0])
			}
		case "review":
			if len(args) == 2 {
				found = true
				r.Mark = args[0]
				r.Loss, _ = strconv.ParseFloat(args[1], 64)
			}
		case "best":
			if len(args) > 0 {
				r.Best, r.Line = args[0], args
			}
		}
	}
	if !found {
		return rest.String(), nil
	}
	return rest.String(), &r
}

// readEval reads [%eval x]: units with two decimals, or #n.
func (r *MoveReview) readEval(args []string) {
	if len(args) != 1 {
		return
	}
	if m, ok := strings.CutPrefix(args[0], "#"); ok {
		if n, err := strconv.Atoi(m); err == nil {
			r.Mate = &n
		}
		return
	}
	if x, err := strconv.ParseFloat(args[0], 64); err == nil {
		cp := int(x*100 + 0.5*sign(x))
		r.CP = &cp
	}
}
