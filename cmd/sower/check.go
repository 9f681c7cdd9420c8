package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// The rule of every command: a bad argument or input (a flag, a file a flag
// names, a position, a table file, an address) is found before any work
// starts and is a usage error, exit status 2, whose one-line message names
// the flag; a failure while the work runs is exit status 1; Ctrl-C is 130.

// flagError marks err as caused by the value of flag (given with its
// dashes, "--openings"): exit status 2 and the message "--openings: err".
func flagError(flag string, err error) error {
	return usageError{fmt.Errorf("%s: %w", flag, err)}
}

// checkOutput checks, before any long work, that the file path given by
// flag can be written, so that a bad path costs nothing: an existing file
// is opened for writing, neither truncated nor changed; a file that does
// not exist is created and removed again. A directory, a missing parent
// directory or a lack of permission is a usage error naming flag.
func checkOutput(flag, path string) error {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return usagef("%s %s: a directory, want a file", flag, path)
	case err == nil:
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return flagError(flag, err)
		}
		return f.Close()
	case errors.Is(err, fs.ErrNotExist):
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return flagError(flag, err)
		}
		f.Close()
		return os.Remove(path)
	default:
		return flagError(flag, err)
	}
}

// checkOutputDir checks, before any long work, that files can be written
// in the directory dir given by flag, making it (and its parents) if it
// does not exist: a path that names something else than a directory, or a
// directory that cannot be made or written in, is a usage error naming
// flag.
func checkOutputDir(flag, dir string) error {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return usagef("%s %s: not a directory", flag, dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return flagError(flag, err)
	}
	f, err := os.CreateTemp(dir, ".sower-write-check-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is the check's own file
		}
		return flagError(flag, fmt.Errorf("cannot write in %s: %w", dir, err))
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
