package broker

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/sower-engine/sower/internal/atomicfile"
	"github.com/sower-engine/sower/search/dfpn"
)

// The workers a proof's tasks prefer (proofJob.searchedBy) are kept in
// the file beside the tree file, File + prefsExt, rewritten after every
// result entered, so that a coordinator restarted from the tree hands
// each leaf to the worker whose table holds its work, as the run before
// it would have. The file is JSON:
//
//	{"version": 1, "workers": {"<moves from the root, \"\" for the root>": "<worker>", …}}
//
// The preferences are hints: a missing file is an empty one, and a
// damaged one is set aside with a note on the progress output; the proof
// goes on either way.
const (
	prefsExt     = ".workers"
	prefsVersion = 1
	maxPrefsFile = 64 << 20
	// maxPreferLen bounds a worker's name in a task's Prefer and in the
	// file.
	maxPreferLen = 256
)

// prefsFile is the file of the preferences.
type prefsFile struct {
	Version int               `json:"version"`
	Workers map[string]string `json:"workers"`
}

// loadPrefs reads the preferences kept beside the tree file.
func (j *proofJob) loadPrefs() {
	path := j.File + prefsExt
	m, err := readPrefs(path)
	if err != nil {
		fmt.Fprintf(j.out, "setting aside %s (each leaf goes to any worker): %v\n", path, err)
		return
	}
	j.searchedBy = m
}

// readPrefs reads a preferences file: an empty map when there is none.
func readPrefs(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPrefsFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxPrefsFile {
		return nil, fmt.Errorf("larger than %d MiB", maxPrefsFile>>20)
	}
	var pf prefsFile
	if err := json.Unmarshal(data, &pf); err != nil {
		return nil, err
	}
	if pf.Version != prefsVersion {
		return nil, fmt.Errorf("version %d, want %d", pf.Version, prefsVersion)
	}
	m := make(map[string]string, len(pf.Workers))
	for path, w := range pf.Workers {
		if len(path) > 8*dfpn.MaxDepth || w == "" || len(w) > maxPreferLen {
			return nil, fmt.Errorf("a path or worker name out of bounds (%.40q: %.40q)", path, w)
		}
		m[path] = w
	}
	return m, nil
}

// savePrefs writes the preferences beside the tree file.
func (j *proofJob) savePrefs() error {
	data, err := json.Marshal(&prefsFile{Version: prefsVersion, Workers: j.searchedBy})
	if err != nil {
		return err
	}
	return atomicfile.Write(j.File+prefsExt, func(w io.Writer) error {
		_, err := w.Write(append(data, '\n'))
		return err
	})
}
