package broker

import (
	"fmt"
	"strings"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search/dfpn"
)

// ProofSetup is what decides a distributed proof's question: the game,
// its rules, the root (the game's start and the moves to it) and the side
// whose win is proven. It is stored under the run's id, and a reused id
// must agree with it.
type ProofSetup struct {
	Variant        string `json:"variant"`
	CaptureSide    string `json:"capture_side"`
	LastFour       string `json:"last_four"`
	Repetition     string `json:"repetition"`
	NoCaptureLimit int    `json:"no_capture_limit"`
	Start          string `json:"start"`    // the game's first position
	Moves          string `json:"moves"`    // the moves from Start to the root
	Attacker       string `json:"attacker"` // "south" or "north"
}

// ProofTask is one bounded search of a proof tree's leaf.
type ProofTask struct {
	ProofSetup
	// Sower and Build are the coordinator's program (see Build): a
	// worker of another build refuses the task.
	Sower string `json:"sower"`
	Build string `json:"build"`
	// HashMiB is the worker's df-pn table for the run.
	HashMiB int `json:"hash_mib"`
	// Round names the coordinator's run that handed the task out, Path
	// the moves from the root to the leaf, Position the leaf (a check on
	// Path), Budget the search's nodes.
	Round    string `json:"round"`
	Path     string `json:"path"`
	Position string `json:"position"`
	Budget   uint64 `json:"budget"`
	// Prefer names the worker that searched the leaf, or its parent,
	// last: its table holds that search's work. Another worker hands the
	// task back at its first delivery (passing), so that the preferred
	// worker, if free, takes it; at the next delivery any worker does.
	Prefer string `json:"prefer,omitempty"`
}

// ProofResult is a worker's answer to a proof task: the leaf it searched
// and the numbers its search left, with, for a proven leaf, the
// certificate piece it put in the proof store.
type ProofResult struct {
	Round    string `json:"round"`
	Path     string `json:"path"`
	Position string `json:"position,omitempty"`
	PN       uint32 `json:"pn"`
	DN       uint32 `json:"dn"`
	Plies    int    `json:"plies,omitempty"`
	OnPath   bool   `json:"on_path,omitempty"`
	Nodes    uint64 `json:"nodes"`
	// Piece is the SHA-256 of the certificate piece in ProofBucket (the
	// object's name), set when PN is 0.
	Piece string `json:"piece,omitempty"`
}

// maxProofBudget bounds a task's node budget.
const maxProofBudget = 1 << 50

// checkProofTask checks what a proof task must hold before a worker
// searches it.
func checkProofTask(p *ProofTask) error {
	switch {
	case p.Sower == "" || !isSHA256(p.Build):
		return refuse("a proof task that names no build")
	case p.Budget < 1 || p.Budget > maxProofBudget:
		return refuse("a proof task with a budget of %d nodes", p.Budget)
	case p.HashMiB < 1 || p.HashMiB > 1<<20:
		return refuse("a proof task with a table of %d MiB", p.HashMiB)
	case p.Round == "" || len(p.Round) > 64 || len(p.Path) > 8*dfpn.MaxDepth || len(p.Prefer) > maxPreferLen:
		return refuse("a proof task with a round, path or preferred worker out of bounds")
	}
	return nil
}

// checkProofResult checks the numbers of a proof result, or for a
// failure report the leaf it names.
func checkProofResult(p *ProofResult, failed bool) error {
	if p.Round == "" || len(p.Round) > 64 || len(p.Path) > 8*dfpn.MaxDepth || len(p.Position) > 1<<10 {
		return fmt.Errorf("a proof result with a round, path or position out of bounds")
	}
	if failed {
		return nil
	}
	settled := p.PN == 0 || p.DN == 0
	switch {
	case p.PN > dfpn.Infinity || p.DN > dfpn.Infinity:
		return fmt.Errorf("proof numbers %d and %d, above infinity", p.PN, p.DN)
	case p.PN == 0 && p.DN == 0:
		return fmt.Errorf("a leaf both proven and disproven")
	case settled && p.PN+p.DN != dfpn.Infinity:
		return fmt.Errorf("a settled leaf (pn %d dn %d) whose other number is not infinity", p.PN, p.DN)
	case p.PN == 0 && !isSHA256(p.Piece):
		return fmt.Errorf("a leaf proven without a certificate piece")
	case p.PN != 0 && p.Piece != "":
		return fmt.Errorf("a certificate piece for a leaf not proven")
	}
	return nil
}

// variant returns the setup's game with its rules.
func (s *ProofSetup) variant() (*board.Variant, error) {
	rs := Setup{Variant: s.Variant, CaptureSide: s.CaptureSide, LastFour: s.LastFour, Repetition: s.Repetition, NoCaptureLimit: s.NoCaptureLimit}
	return rs.variant()
}

// attacker returns the side whose win is proven.
func (s *ProofSetup) attacker() (board.Side, error) {
	for _, side := range []board.Side{board.South, board.North} {
		if s.Attacker == strings.ToLower(side.String()) {
			return side, nil
		}
	}
	return 0, fmt.Errorf("attacker %q: want south or north", s.Attacker)
}

// game replays the game to the proof's root and then along path (moves
// from the root), and returns it.
func (s *ProofSetup) game(path string) (*board.Game, error) {
	v, err := s.variant()
	if err != nil {
		return nil, err
	}
	start, err := v.ParsePosition(s.Start)
	if err != nil {
		return nil, fmt.Errorf("the start position %q: %w", s.Start, err)
	}
	g := board.NewGame(start)
	for _, part := range []struct{ what, moves string }{{"the moves to the root", s.Moves}, {"the path", path}} {
		if strings.TrimSpace(part.moves) == "" {
			continue
		}
		ms, err := v.ParseMoves(part.moves)
		if err != nil {
			return nil, fmt.Errorf("%s %q: %w", part.what, part.moves, err)
		}
		if err := g.PlayAll(ms); err != nil {
			return nil, fmt.Errorf("%s %q: %w", part.what, part.moves, err)
		}
	}
	return g, nil
}

// NewProofSetup describes the proof of attacker's win at the end of game.
func NewProofSetup(game *board.Game, attacker board.Side) ProofSetup {
	start := game.Start()
	v := start.Variant()
	r := v.Rules()
	return ProofSetup{
		Variant: v.Name(), CaptureSide: r.CaptureSide.String(), LastFour: r.LastFour.String(),
		Repetition: r.Repetition.String(), NoCaptureLimit: r.NoCaptureLimit,
		Start: start.String(), Moves: board.FormatMoves(game.Moves()), Attacker: strings.ToLower(attacker.String()),
	}
}

// echo returns, for a proof task, the leaf a failure report names.
func (t *Task) echo() *ProofResult {
	if t.Proof == nil {
		return nil
	}
	return &ProofResult{Round: t.Proof.Round, Path: t.Proof.Path}
}
