// Package atomicfile writes a file whole or not at all: through a
// temporary file in the same directory, synced to the disk and renamed
// into place, so that the path holds the old file or the new one, never a
// part of either, even after a crash of the machine.
package atomicfile

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// bufferSize is the buffer between write and the temporary file.
const bufferSize = 1 << 20

// Write writes path through write, which is given a buffered writer to
// the temporary file. The file is made readable by all (0644). On any
// error, write's included, path is left as it was and the temporary file
// is removed.
func Write(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails once renamed: nothing left to remove
	bw := bufio.NewWriterSize(tmp, bufferSize)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
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
