package tables

import (
	"fmt"

	"github.com/sower-engine/sower/board"
)

// Options are the rule options a table set is built for. The bounds hold
// under any no-capture limit and repetition rule; the exact values under
// Repetition off depend on the no-capture limit, so a set is built for one
// limit (see the package comment).
type Options struct {
	// CaptureSide is the rule book's CaptureSide option.
	CaptureSide board.CaptureSide
	// Fixed is true when LastFour gives the last seeds to a fixed player
	// (south or north) and false when it gives them to the capturer. A
	// fixed set has two halves: the side to move is the player who would
	// receive the last seeds, or it is not; so one set serves both
	// LastFour=south and LastFour=north.
	Fixed bool
	// Limit is the no-capture limit in plies (0: none; then the set holds
	// the bounds only, since Repetition off needs a limit).
	Limit int
}

// MaxLimit is the largest no-capture limit a table set is built for.
const MaxLimit = 65535

// OptionsFor returns the table options that serve a variant's rules.
func OptionsFor(r board.Rules) Options {
	return Options{CaptureSide: r.CaptureSide, Fixed: r.LastFour != board.LastFourCapturer, Limit: r.NoCaptureLimit}
}

// halves returns 1 for a capturer set, 2 for a fixed set.
func (o Options) halves() int {
	if o.Fixed {
		return 2
	}
	return 1
}

// String names the option set as in file names: "any-capturer-limit200",
// "opponent-fixed-nolimit", …
func (o Options) String() string {
	last := "capturer"
	if o.Fixed {
		last = "fixed"
	}
	limit := "nolimit"
	if o.Limit > 0 {
		limit = fmt.Sprintf("limit%d", o.Limit)
	}
	return o.CaptureSide.String() + "-" + last + "-" + limit
}

// FileName returns the name of the file of the n-seed layer, such as
// "hoyito3-any-capturer-limit200-16.sowtb".
func (o Options) FileName(n int) string {
	return fmt.Sprintf("hoyito3-%s-%02d.sowtb", o, n)
}

// version1Name returns the name format version 1 gave the n-seed file,
// such as "hoyito3-any-capturer-16.sowtb", to recognise an old set.
func (o Options) version1Name(n int) string {
	last := "capturer"
	if o.Fixed {
		last = "fixed"
	}
	return fmt.Sprintf("hoyito3-%s-%s-%02d.sowtb", o.CaptureSide, last, n)
}

// check reports an error for an option set no file can hold.
func (o Options) check() error {
	if o.Limit < 0 || o.Limit > MaxLimit {
		return fmt.Errorf("no-capture limit %d: tables are built for limits from 0 (none) to %d", o.Limit, MaxLimit)
	}
	return nil
}

// checkLayer reports an error unless n is a layer: 8, 12, … MaxSeeds.
func checkLayer(n int) error {
	if n < 8 || n > MaxSeeds || n%4 != 0 {
		return fmt.Errorf("%d seeds is not a layer: want a multiple of 4 from 8 to %d", n, MaxSeeds)
	}
	return nil
}

// captureSide converts a header byte (checked to be 0 or 1).
func captureSide(b byte) board.CaptureSide {
	if b == 1 {
		return board.CaptureOpponent
	}
	return board.CaptureAny
}
