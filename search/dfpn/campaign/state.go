package campaign

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/internal/atomicfile"
	"github.com/sower-engine/sower/search/dfpn"
)

// File names in the work directory.
const (
	stateFile = "state.json"
	tableFile = "table.dfpn"
)

// loadState reads state.json, or starts a new state; a state of another
// question is refused.
func (c *campaign) loadState() error {
	v := c.root.Variant()
	want := state{Version: stateVersion, Game: v.Name(), Rules: fmt.Sprint(v.Rules()), Root: c.root.String(), Winner: c.cfg.Winner.String()}
	if c.cfg.ChooseWinner {
		want.Winner = "" // chosen at the start, then kept
	}
	data, err := os.ReadFile(filepath.Join(c.cfg.Dir, stateFile))
	if errors.Is(err, fs.ErrNotExist) {
		c.st = want
		return nil
	}
	if err != nil {
		return err
	}
	var st state
	if err := json.Unmarshal(data, &st); err != nil {
		return fmt.Errorf("%s: %v", filepath.Join(c.cfg.Dir, stateFile), err)
	}
	if st.Version != stateVersion || st.Game != want.Game || st.Rules != want.Rules || st.Root != want.Root || (want.Winner != "" && st.Winner != want.Winner) {
		return fmt.Errorf("%s holds the campaign for %s wins %s %s (rules %s), not for %s wins %s %s (rules %s): give another directory",
			c.cfg.Dir, st.Winner, st.Game, st.Root, st.Rules, want.Winner, want.Game, want.Root, want.Rules)
	}
	c.st = st
	if st.Winner == board.North.String() {
		c.cfg.Winner = board.North
	} else if st.Winner == board.South.String() {
		c.cfg.Winner = board.South
	}
	c.nodes0, c.elapsed = st.Nodes, time.Duration(st.ElapsedMS)*time.Millisecond
	for _, sp := range st.Pieces {
		ms, err := v.ParseMoves(sp.Moves)
		if err != nil {
			return fmt.Errorf("%s: piece %q: %v", stateFile, sp.Moves, err)
		}
		pc := Piece{Moves: ms, Proven: sp.Proven, Plies: sp.Plies, Tried: sp.Tried, Grow: min(max(sp.Grow, 0), MaxGrow)}
		c.pieces = append(c.pieces, pc)
		if sp.Last > 0 && sp.Stuck >= 0 {
			tr := c.trackOf(pc.Name())
			tr.last, tr.stuck = sp.Last, sp.Stuck
		}
		if sp.Left > 0 && !pc.Proven {
			c.trackOf(pc.Name()).left = sp.Left
		}
		if sp.Ask > 0 && !pc.Proven {
			c.trackOf(pc.Name()).ask = sp.Ask
		}
		if sp.Waits != "" && !pc.Proven {
			c.trackOf(pc.Name()).waits = sp.Waits
		}
	}
	for _, sg := range st.Glue {
		ms, err := v.ParseMoves(sg.Moves)
		if err != nil {
			return fmt.Errorf("%s: glue %q: %v", stateFile, sg.Moves, err)
		}
		m, err := v.ParseMove(sg.Move)
		if err != nil {
			return fmt.Errorf("%s: glue %q %q: %v", stateFile, sg.Moves, sg.Move, err)
		}
		c.glue = append(c.glue, Glue{Moves: ms, Move: m})
	}
	if st.Split && len(c.pieces) == 0 {
		c.split()
	}
	return nil
}

// loadTable reads the saved table, if there is one.
func (c *campaign) loadTable() error {
	err := c.s.LoadFile(filepath.Join(c.cfg.Dir, tableFile), c.root.Variant())
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// save writes the table, then the state, each whole or not at all.
func (c *campaign) save() error {
	start := time.Now()
	if _, err := c.s.SaveFile(filepath.Join(c.cfg.Dir, tableFile)); err != nil {
		return err
	}
	if err := c.saveState(); err != nil {
		return err
	}
	c.saved = time.Now()
	c.saveTook = c.saved.Sub(start)
	return nil
}

// checkpoint keeps a piece proven, a cut or a drop: the state is written
// at once, the table only when Config.SaveEvery has passed since its last
// save. Writing a table of gigabytes takes seconds (katro-4x6's 8 GiB file
// about 18 s), and a run from nothing proves, cuts and drops pieces dozens
// of times. A state newer than the table is sound: the table only lacks
// the work since its save, which a piece's next search does again, and
// the proven pieces' certificates are on disk before the state names
// them.
func (c *campaign) checkpoint() error {
	if time.Since(c.saved) >= c.cfg.SaveEvery {
		return c.save()
	}
	return c.saveState()
}

// saveState writes the state, whole or not at all.
func (c *campaign) saveState() error {
	c.st.Nodes = c.totalNodes()
	c.st.ElapsedMS = c.totalElapsed().Milliseconds()
	c.st.Pieces = c.st.Pieces[:0]
	for _, p := range c.pieces {
		sp := statePiece{Moves: board.FormatMoves(p.Moves), Proven: p.Proven, Plies: p.Plies, Tried: p.Tried, Grow: p.Grow}
		if tr := c.track[p.Name()]; tr != nil && !p.Proven {
			if tr.last < dfpn.Infinity {
				sp.Last, sp.Stuck = tr.last, tr.stuck
			}
			sp.Left, sp.Ask, sp.Waits = tr.left, tr.ask, tr.waits
		}
		c.st.Pieces = append(c.st.Pieces, sp)
	}
	c.st.Glue = c.st.Glue[:0]
	for _, g := range c.glue {
		c.st.Glue = append(c.st.Glue, stateGlue{Moves: board.FormatMoves(g.Moves), Move: g.Move.String()})
	}
	data, err := json.MarshalIndent(&c.st, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(c.cfg.Dir, stateFile), func(w io.Writer) error {
		_, err := w.Write(append(data, '\n'))
		return err
	})
}
