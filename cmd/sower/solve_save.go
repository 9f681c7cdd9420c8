package main

import (
	"errors"
	"fmt"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// resumeTable loads the table that solve --save wrote to path into s, for
// positions of v: a missing, damaged or foreign file is a usage error.
func (c *cli) resumeTable(s *dfpn.Solver, path string, v *board.Variant) error {
	if err := s.LoadFile(path, v); err != nil {
		if errors.Is(err, dfpn.ErrForeign) || errors.Is(err, dfpn.ErrDamaged) {
			return usagef("--resume %v", err) // the error names the file
		}
		return flagError("--resume", err)
	}
	fmt.Fprintf(c.stdout, "resumed from %s: table %.1f%% full\n", path, 100*s.Fill())
	return nil
}

// saveTable writes s's table to path (whole or not at all: an old file is
// replaced only by a whole new one).
func (c *cli) saveTable(s *dfpn.Solver, path string) error {
	n, err := s.SaveFile(path)
	if err != nil {
		return fmt.Errorf("--save %s: %w", path, err)
	}
	fmt.Fprintf(c.stdout, "table saved to %s: %d entries\n", path, n)
	return nil
}
