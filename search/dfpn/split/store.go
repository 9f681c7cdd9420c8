package split

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/internal/atomicfile"
)

// DefaultLeafNodes is the leaf budget of a new tree that Open makes when
// none is given: about half a minute of one thread, so that a tree kept
// in a file (RunConfig.File) is written about that often.
const DefaultLeafNodes = 10_000_000

// Options says which tree Open wants.
type Options struct {
	// Attacker is the side whose win the tree proves. With FileAttacker
	// it is a new tree's only: a tree read back proves its file's side.
	Attacker     board.Side
	FileAttacker bool
	// LeafNodes is the leaf budget: 0 keeps a file's, and gives a new
	// tree DefaultLeafNodes.
	LeafNodes uint64
}

// Open reads the tree that SaveFile wrote to path, for root (whose game's
// keys before it are history), or makes a new one (New) when no file is
// there; read reports that the tree was read. A file of another question
// is refused as Load refuses it. Errors name the file: the os package's
// when it cannot be opened, Load's after the path.
func Open(path string, root board.Position, history []uint64, o Options) (t *Tree, read bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		leaf := o.LeafNodes
		if leaf == 0 {
			leaf = DefaultLeafNodes
		}
		t, err := New(root, history, o.Attacker, leaf)
		return t, false, err
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	attacker := o.Attacker
	if o.FileAttacker {
		if attacker, err = fileAttacker(f); err != nil {
			return nil, false, fmt.Errorf("%s: %w", path, err)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, false, err
		}
	}
	if t, err = Load(f, root, history, attacker, o.LeafNodes); err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	return t, true, nil
}

// SaveFile writes the tree (Save) to path whole or not at all
// (internal/atomicfile: the file holds the old tree or the new one, even
// after a crash).
func (t *Tree) SaveFile(path string) error {
	return atomicfile.Write(path, t.Save)
}
