package tables

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The temporary files of a build: each layer is written as
// "<layer file>.tmp<digits>" and renamed when complete (writeLayer), and
// the clock rounds keep their changes in "<changesPrefix><layer>-<digits>"
// (newChangeLog). A build removes them when it ends, but one that is
// killed (SIGKILL, out of memory) cannot: RemoveLeftovers does it for the
// next build of the set.
const (
	layerTmpInfix = ".tmp"
	changesPrefix = ".sowtb-changes-"
)

// changeLogPattern is os.CreateTemp's pattern for the change log of the
// layer file named name: ".sowtb-changes-hoyito3-any-capturer-limit200-16-*".
func changeLogPattern(name string) string {
	return changesPrefix + strings.TrimSuffix(name, fileExt) + "-*"
}

// fileExt ends every layer file's name.
const fileExt = ".sowtb"

// Leftover is a temporary file that a build of a set left behind.
type Leftover struct {
	Path string
	Size int64 // bytes
}

// RemoveLeftovers removes from dir the temporary files that earlier builds
// of the set of options o left behind when they were killed, and returns
// them. It removes only names the builder gives: a layer of this set
// being written ("hoyito3-any-capturer-limit200-16.sowtb.tmp123"), a
// change log of one ("…changes-hoyito3-any-capturer-limit200-16-123"),
// and the change logs of builders that did not yet name them by layer
// (".sowtb-changes-123", which a set cannot be told by). Another build
// of the same set must not be running in dir at the time (it would lose
// the layer it is writing); one of another set is unaffected.
func RemoveLeftovers(dir string, o Options) ([]Leftover, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Leftover
	var errs []error
	for _, e := range entries {
		if !e.Type().IsRegular() || !isLeftover(e.Name(), o) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		path := filepath.Join(dir, e.Name())
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		out = append(out, Leftover{Path: path, Size: info.Size()})
	}
	return out, errors.Join(errs...)
}

// isLeftover reports whether name is that of a temporary file of a build
// of the set o.
func isLeftover(name string, o Options) bool {
	if rest, ok := strings.CutPrefix(name, changesPrefix); ok && digits(rest) {
		return true
	}
	for n := 8; n <= MaxSeeds; n += 4 {
		layer := o.FileName(n)
		if rest, ok := strings.CutPrefix(name, layer+layerTmpInfix); ok && digits(rest) {
			return true
		}
		if rest, ok := strings.CutPrefix(name, strings.TrimSuffix(changeLogPattern(layer), "*")); ok && digits(rest) {
			return true
		}
	}
	return false
}

// digits reports whether s is a non-empty run of decimal digits, as
// os.CreateTemp puts for the '*' of its pattern.
func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
