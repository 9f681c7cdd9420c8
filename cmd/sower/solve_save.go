package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// resumeTable loads the table that solve --save wrote to path into s, for
// positions of v: a missing, damaged or foreign file is a usage error.
func (c *cli) resumeTable(s *dfpn.Solver, path string, v *board.Variant) error {
	f, err := os.Open(path)
	if err != nil {
		return flagError("--resume", err)
	}
	defer f.Close()
	if err := s.Load(f, v); err != nil {
		return usagef("--resume %s: %v", path, err)
	}
	fmt.Fprintf(c.stdout, "resumed from %s: table %.1f%% full\n", path, 100*s.Fill())
	return nil
}

// saveTable writes s's table to path (writeWhole: an old file is replaced
// only by a whole new one).
func (c *cli) saveTable(s *dfpn.Solver, path string) error {
	var n int
	err := writeWhole(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		var err error
		if n, err = s.Save(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
	if err != nil {
		return fmt.Errorf("--save %s: %w", path, err)
	}
	fmt.Fprintf(c.stdout, "table saved to %s: %d entries\n", path, n)
	return nil
}

// writeWhole writes a file through write: to a temporary file in path's
// directory, renamed to path at the end, so that path always holds a whole
// file, the old one or the new.
func writeWhole(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".sower-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	err = write(tmp)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	return err
}
