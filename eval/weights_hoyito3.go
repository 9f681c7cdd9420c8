package eval

import "github.com/sower-engine/sower/board"

// builtinHoyito returns the built-in learned Hoyito III weights: until
// tuned, the hand-made ones.
func builtinHoyito() *Params {
	p := HandParams(board.Hoyito)
	p.Variant = board.NameHoyito3
	return &p
}
