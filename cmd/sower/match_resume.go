package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/sower-engine/sower/bench/match"
)

// playedGames reads, for --resume, the games a match's --out file holds
// (none when the file does not exist yet). A last line without its
// newline is what a write cut short leaves: it is cut off the file, and
// w told so, so that the games played now follow whole lines and the
// game is played again rather than lost.
func playedGames(path string, w io.Writer) ([]match.GameRecord, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, flagError("--out", err)
	}
	if whole := bytes.LastIndexByte(data, '\n') + 1; whole < len(data) {
		if err := os.Truncate(path, int64(whole)); err != nil {
			return nil, flagError("--out", err)
		}
		fmt.Fprintf(w, "--out %s: cut off an unfinished last line (%d bytes), left by a write cut short\n", path, len(data)-whole)
		data = data[:whole]
	}
	t := bytes.TrimSpace(data)
	if len(t) == 0 {
		return nil, nil
	}
	if t[0] != '{' {
		return nil, usagef("--out %s: not the JSON records of a match (one object a line)", path)
	}
	recs, err := match.ReadRecords(t)
	if err != nil {
		return nil, usagef("--out %s: %v", path, err)
	}
	return recs, nil
}
