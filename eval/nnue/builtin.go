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
