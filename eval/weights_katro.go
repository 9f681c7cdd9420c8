package eval

import "github.com/sower-engine/sower/board"

// builtinKatro returns the built-in learned Katro weights: until tuned,
// the hand-made ones.
func builtinKatro() *Params {
	p := HandParams(board.Katro)
	p.Variant = board.NameKatro
	return &p
}
