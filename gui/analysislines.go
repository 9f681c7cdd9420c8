package gui

import (
	"fmt"
	"slices"

	"github.com/sower-engine/sower/board"
)

// maxKeptLines bounds the analysis lines a saved state may hold.
const maxKeptLines = 256

// keptLines are the analysis's latest lines, one per multipv, all of one
// position: what the page shows in the analysis card, kept with the game
// so that a reload, a lost connection or a restart of the server shows
// them again while the engine searches anew.
type keptLines struct {
	fen   string
	lines map[int]infoMsg
}

// keepInfo keeps an analysis's info line; a line of another position
// than the kept ones replaces them all.
func (s *session) keepInfo(m infoMsg) {
	if s.anLines.fen != m.Fen || s.anLines.lines == nil {
		s.anLines = keptLines{fen: m.Fen, lines: map[int]infoMsg{}}
	}
	m.Restored = false
	s.anLines.lines[m.MultiPV] = m
	s.dirty = true
}

// savedLines are the lines to keep in the saved state, best first: none
// while the analysis is off, and only as many as it shows.
func (s *session) savedLines() []infoMsg {
	if !s.an.On {
		return nil
	}
	var out []infoMsg
	for k, m := range s.anLines.lines {
		if k <= s.an.MultiPV {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b infoMsg) int { return a.MultiPV - b.MultiPV })
	return out
}

// restoreAnalysisLines reads saved lines back, for game v: each of one
// position of v (a position the game no longer shows is never sent).
func restoreAnalysisLines(saved []infoMsg, v *board.Variant) (keptLines, error) {
	if len(saved) == 0 {
		return keptLines{}, nil
	}
	if len(saved) > maxKeptLines {
		return keptLines{}, fmt.Errorf("%d analysis lines", len(saved))
	}
	k := keptLines{fen: saved[0].Fen, lines: map[int]infoMsg{}}
	if _, err := parseFen(v, k.fen); err != nil {
		return keptLines{}, fmt.Errorf("analysis lines: %v", err)
	}
	for _, m := range saved {
		if m.Fen != k.fen || m.MultiPV < 1 || m.MultiPV > maxKeptLines {
			return keptLines{}, fmt.Errorf("analysis line %d of %q among lines of %q", m.MultiPV, m.Fen, k.fen)
		}
		m.Type, m.Gen = "info", 0
		if m.PV == nil {
			m.PV = []string{}
		}
		k.lines[m.MultiPV] = m
	}
	return k, nil
}

// sendKeptLines sends the kept lines again, marked as restored, when the
// analysis is on and they are of the position shown: the page shows them
// until the engine's new search of it goes as deep.
func (s *session) sendKeptLines() {
	g := s.gameAt(s.view)
	p := g.Position()
	if !s.an.On || s.anLines.fen != p.String() {
		return
	}
	for _, m := range s.savedLines() {
		m.Restored = true
		s.send(m)
	}
}
