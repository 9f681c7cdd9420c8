package eval

import "github.com/sower-engine/sower/board"

// builtinKatro returns the built-in learned Katro weights.
func builtinKatro() *Params {
	p := HandParams(board.Katro)
	return &p
}
