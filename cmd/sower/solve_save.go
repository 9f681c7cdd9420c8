package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

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
// directory, synced to the disk and renamed to path at the end (the
// directory synced too), so that path always holds a whole file, the old
// one or the new, even after a crash of the machine.
func writeWhole(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".sower-tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	err = write(tmp)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err == nil {
		err = syncDir(dir)
	}
	return err
}

// syncDir syncs directory dir, so that a rename in it is on the disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err // some file systems cannot sync a directory: nothing to do there
	}
	return nil
}
