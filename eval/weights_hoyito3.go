package eval

import "github.com/sower-engine/sower/board"

// builtinHoyito returns the built-in learned Hoyito III weights.
func builtinHoyito() *Params {
	p := HandParams(board.Hoyito)
	return &p
}
