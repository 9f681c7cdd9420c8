package nnue

import (
	"embed"
	"errors"
	"io/fs"

	"github.com/sower-engine/sower/board"
)

// nets holds the networks built into the program: nets/<family>.nnue,
// katro.nnue for every Katro board and hoyito3.nnue for Hoyito III.
//
//go:embed nets
var nets embed.FS

// BuiltinName returns the name of family f's built-in network file.
func BuiltinName(f board.Family) string {
	if f == board.Hoyito {
		return "hoyito3.nnue"
	}
	return "katro.nnue"
}

// PlaysByDefault reports whether family f plays with its built-in
// network by default (the protocol's EvalType auto, the command line's
// --eval auto): a family's network becomes its default when it has
// passed the SPRT against the linear evaluation at 10+0.1 in the plain
// build, as Hoyito III's has (docs/nnue.md, "The default evaluation").
// Katro's has not, so Katro plays with the linear evaluation by default.
func PlaysByDefault(f board.Family) bool {
	return f == board.Hoyito
}

// Default returns the network family f plays with by default: its
// built-in network when PlaysByDefault(f), else nil and no error (the
// linear evaluation).
func Default(f board.Family) (*Net, error) {
	if !PlaysByDefault(f) {
		return nil, nil
	}
	return Builtin(f)
}

// Builtin returns the network built into the program for family f, or
// nil and no error when there is none.
func Builtin(f board.Family) (*Net, error) {
	b, err := nets.ReadFile("nets/" + BuiltinName(f))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	n, err := Decode(b)
	if err != nil {
		return nil, err
	}
	if n.Family != f {
		return nil, errors.New("nnue: the built-in " + BuiltinName(f) + " is for " + n.Family.String())
	}
	return n, nil
}
