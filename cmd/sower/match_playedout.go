package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/sower-engine/sower/bench/record"
)

// playedOut is --played-out: the games of the same match played out
// without adjudication, read before the match, with which the games of
// --out are compared after it.
type playedOut struct {
	path  string
	games []record.GameRecord
}

// readPlayedOut reads the --played-out file and checks that the match
// has what the comparison needs: its own games alone in --out.
func (f *matchFlags) readPlayedOut() (*playedOut, error) {
	switch {
	case f.playedOut == "":
		return nil, nil
	case f.out == "":
		return nil, usagef("--played-out compares the games --out holds after the match with those of FILE: give --out")
	case f.appendOut:
		return nil, usagef("--played-out with --append: --out would hold another match's games too")
	}
	games, err := readRecordsFile(f.playedOut)
	if err != nil {
		return nil, usagef("--played-out %s: %v", f.playedOut, err)
	}
	if len(games) == 0 {
		return nil, usagef("--played-out %s: holds no games", f.playedOut)
	}
	return &playedOut{path: f.playedOut, games: games}, nil
}

// readRecordsFile reads the game records of a file (JSON lines or PGN).
func readRecordsFile(path string) ([]record.GameRecord, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, err
	}
	return record.ReadRecords(data)
}

// check compares the games of the out file with those played out and
// writes the comparison to w; a game that differs is an error (exit
// status 1) naming the games.
func (p *playedOut) check(out string, w io.Writer) error {
	games, err := readRecordsFile(out)
	if err != nil {
		return fmt.Errorf("--out %s: %v", out, err)
	}
	c, err := record.ComparePlayedOut(games, p.games)
	if err != nil {
		return fmt.Errorf("comparing --out %s with --played-out %s: %v", out, p.path, err)
	}
	fmt.Fprintf(w, "Played out (%s): %d games, %d adjudicated\n", p.path, c.Games, c.Adjudicated)
	fmt.Fprintf(w, "...      plies %d with adjudication, %d played out: %.1f%% saved\n", c.Plies, c.PlayedPlies, 100*c.Saving())
	fmt.Fprintf(w, "...      adjudicated results as played out: %d; games that differ: %d\n", c.Agree, len(c.Differ))
	if len(c.Differ) == 0 {
		return nil
	}
	numbers := make([]string, len(c.Differ))
	for i, d := range c.Differ {
		fmt.Fprintf(w, "...      %s\n", d.Detail)
		numbers[i] = fmt.Sprint(d.Game)
	}
	return fmt.Errorf("%d games differ from the same games played out in %s (games %s)", len(c.Differ), p.path, strings.Join(numbers, ", "))
}
