package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/sower-engine/sower/bench/record"
)

// playedFile is what --resume read from a match's --out file.
type playedFile struct {
	path  string
	games []record.GameRecord
	// whole is the length of the file's whole lines; tail is what
	// follows them, the last line without its newline that a write cut
	// short leaves, and tailGame whether that line is a whole record
	// nonetheless (its game counted).
	whole    int64
	tail     int
	tailGame bool
}

// readPlayed reads, for --resume, the games a match's --out file holds
// (none when the file does not exist yet). It changes nothing: mend does,
// once the games are known to be this match's.
func readPlayed(path string) (*playedFile, error) {
	pf := &playedFile{path: path}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return pf, nil
	case err != nil:
		return nil, flagError("--out", err)
	case !fi.Mode().IsRegular():
		return nil, usagef("--out %s: --resume reads a file, not %s", path, fi.Mode().Type())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, flagError("--out", err)
	}
	pf.whole = int64(bytes.LastIndexByte(data, '\n') + 1)
	tail := data[pf.whole:]
	data = data[:pf.whole]
	pf.tail = len(tail)
	if t := bytes.TrimSpace(data); len(t) > 0 {
		if t[0] != '{' {
			return nil, usagef("--out %s: not the JSON records of a match (one object a line)", path)
		}
		if pf.games, err = record.ReadRecords(t); err != nil {
			return nil, usagef("--out %s: %v", path, err)
		}
	}
	var last record.GameRecord
	if len(bytes.TrimSpace(tail)) > 0 && json.Unmarshal(tail, &last) == nil {
		pf.games, pf.tailGame = append(pf.games, last), true
	}
	return pf, nil
}

// mend makes the file end with a whole line before games are appended:
// a last record without its newline gets it, and an unfinished last line
// is cut off (its game is played again), which w is told.
func (pf *playedFile) mend(w io.Writer) error {
	if pf.tail == 0 {
		return nil
	}
	if pf.tailGame {
		f, err := os.OpenFile(pf.path, os.O_APPEND|os.O_WRONLY, 0)
		if err == nil {
			_, err = f.WriteString("\n")
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return flagError("--out", err)
		}
		return nil
	}
	if err := os.Truncate(pf.path, pf.whole); err != nil {
		return flagError("--out", err)
	}
	fmt.Fprintf(w, "--out %s: cut off an unfinished last line (%d bytes), left by a write cut short\n", pf.path, pf.tail)
	return nil
}
