package train

import (
	"encoding/gob"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// checkpointMagic opens a checkpoint file.
const checkpointMagic = "SOWER-NNUE-TRAIN-1"

// save writes the state to name, through a temporary file renamed over
// it, so that an interruption leaves the previous checkpoint whole.
func (st *state) save(name string) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	enc := gob.NewEncoder(tmp)
	err = enc.Encode(checkpointMagic)
	if err == nil {
		err = enc.Encode(st)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("train: checkpoint: %w", err)
	}
	return nil
}

// load reads a checkpoint; a missing file is no checkpoint (nil).
func load(name string) (*state, error) {
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := gob.NewDecoder(f)
	var magic string
	if err := dec.Decode(&magic); err != nil || magic != checkpointMagic {
		return nil, fmt.Errorf("train: %s is not a training checkpoint", name)
	}
	var st state
	if err := dec.Decode(&st); err != nil {
		return nil, fmt.Errorf("train: checkpoint %s: %w", name, err)
	}
	k := len(st.Params)
	if len(st.M1) != k || len(st.M2) != k || len(st.Best) != k {
		return nil, fmt.Errorf("train: checkpoint %s is damaged", name)
	}
	return &st, nil
}
