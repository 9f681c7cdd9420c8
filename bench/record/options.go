package record

import (
	"strconv"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol/client"
)

// GameOptions are the options both engines get for a game of v: the game
// (UCI_Variant) and its rule options. Repetition off needs a no-capture
// limit, and an engine refuses either setting while the other would make
// the pair off and 0; so NoCaptureLimit comes before Repetition off and
// after Repetition threefold, and the engine meets no such pair whatever
// the rules of its game before.
func GameOptions(v *board.Variant) []client.Option {
	rules := v.Rules()
	opts := []client.Option{{Name: "UCI_Variant", Value: v.Name()}}
	limit := client.Option{Name: "NoCaptureLimit", Value: strconv.Itoa(rules.NoCaptureLimit)}
	if v.Family() != board.Hoyito {
		return append(opts, limit)
	}
	opts = append(opts, client.Option{Name: "CaptureSide", Value: rules.CaptureSide.String()}, client.Option{Name: "LastFour", Value: rules.LastFour.String()})
	rep := client.Option{Name: "Repetition", Value: rules.Repetition.String()}
	if rules.Repetition == board.RepetitionOff {
		return append(opts, limit, rep)
	}
	return append(opts, rep, limit)
}

// RuleOptions are the options an arbiter sets itself from the game and
// its rules (GameOptions), UCI_Variant first; a record keeps the others
// in its Options.
func RuleOptions() []string {
	return []string{"UCI_Variant", "CaptureSide", "LastFour", "Repetition", "NoCaptureLimit"}
}
