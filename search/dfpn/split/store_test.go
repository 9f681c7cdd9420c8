package split

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// TestOpen reads a tree kept in a file, or makes a new one where there is
// none, with the side and budget asked or the file's; a tree of another
// side and a file that is no tree are refused, naming the file.
func TestOpen(t *testing.T) {
	tr, _ := grown(t, 6)
	dir := t.TempDir()
	path, missing, junk := filepath.Join(dir, "t.split"), filepath.Join(dir, "none.split"), filepath.Join(dir, "junk.split")
	if err := tr.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(junk, []byte("not a tree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		path     string
		o        Options
		read     bool
		attacker board.Side
		leaf     uint64
		want     string // the error's text; "" for none
	}{
		{"no file", missing, Options{Attacker: board.North}, false, board.North, DefaultLeafNodes, ""},
		{"no file, a budget", missing, Options{Attacker: board.North, FileAttacker: true, LeafNodes: 7}, false, board.North, 7, ""},
		{"the file's side", path, Options{Attacker: board.North, FileAttacker: true}, true, board.South, tr.LeafNodes(), ""},
		{"the side asked", path, Options{Attacker: board.South}, true, board.South, tr.LeafNodes(), ""},
		{"another budget", path, Options{Attacker: board.South, LeafNodes: 9}, true, board.South, 9, ""},
		{"another side", path, Options{Attacker: board.North}, false, 0, 0, path + ": the tree proves south's win, not north's"},
		{"no tree", junk, Options{FileAttacker: true}, false, 0, 0, junk + ": "},
	} {
		got, read, err := Open(c.path, tr.root.pos, nil, c.o)
		if c.want != "" {
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, want %q", c.name, err, c.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		size := 1
		if read {
			size = tr.Size()
		}
		if read != c.read || got.Attacker() != c.attacker || got.LeafNodes() != c.leaf || got.Size() != size {
			t.Errorf("%s: read %v, %s's win, leaves of %d nodes, %d positions; want %v, %s, %d, %d",
				c.name, read, got.Attacker(), got.LeafNodes(), got.Size(), c.read, c.attacker, c.leaf, size)
		}
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("Open made a file where there was none: %v", err)
	}
	if _, _, err := Open(filepath.Join(dir, "none", "t.split"), tr.root.pos, nil, Options{}); err != nil {
		t.Errorf("a missing directory: %v, want a new tree (the file is written later)", err)
	}
	if err := tr.SaveFile(filepath.Join(dir, "none", "t.split")); err == nil || !strings.Contains(err.Error(), "none") {
		t.Errorf("SaveFile into a missing directory: %v", err)
	}
	if _, _, err := Open(dir, tr.root.pos, nil, Options{FileAttacker: true}); err == nil {
		t.Error("a directory: no error")
	}
}
