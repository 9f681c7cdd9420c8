package broker

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
	"github.com/sower-engine/sower/search/dfpn"
)

// prover is a worker slot's df-pn solver for the proof it searched last:
// its table is kept from one task of a run to the next, so that a leaf
// searched again, or a neighbour, reuses what the slot proved before.
type prover struct {
	solver     *dfpn.Solver
	proofRun   string        // the run the solver's table belongs to
	proofHash  int           // its size in MiB
	proofEvery time.Duration // how often its searches report
}

// solverFor makes the slot's solver the one of run, with a table of hash
// MiB whose searches report every every: the same solver for the run it
// searched last; for another run of the same settings, that solver with
// its table emptied, as a new one's would be; else a new solver, made
// after the old one's table has been given back to the system. (Dropped
// and not collected at once, the old table would stay in memory beside
// the new one: twice the memory asked for, measured as 7.6 and 8.3 GiB
// for two workers of 4 GiB tables.)
func (s *prover) solverFor(run string, hash int, every time.Duration) error {
	switch {
	case s.solver != nil && s.proofRun == run && s.proofHash == hash && s.proofEvery == every:
		return nil
	case s.solver != nil && s.proofHash == hash && s.proofEvery == every:
		s.solver.Clear()
		s.proofRun = run
		return nil
	case s.solver != nil:
		s.solver, s.proofRun, s.proofHash, s.proofEvery = nil, "", 0, 0
		debug.FreeOSMemory()
	}
	solver, err := dfpn.New(dfpn.Config{HashMiB: hash, Every: every})
	if err != nil {
		return err
	}
	s.solver, s.proofRun, s.proofHash, s.proofEvery = solver, run, hash, every
	return nil
}

// prove searches a proof task's leaf within its budget and returns the
// numbers; for a proven leaf it puts the certificate piece in the proof
// store first. Its search and certificate give live their signs of life
// (reports a few times per ackWait). When ctx ends it returns ctx's
// error; a failure to reach the store is a *retryError.
func (s *slot) prove(ctx context.Context, t *Task, ackWait time.Duration, live *liveness) (*ProofResult, error) {
	p := t.Proof
	if why := s.w.Build.refuses(Build{Version: p.Sower, SHA256: p.Build}, proofWork); why != "" {
		return nil, errors.New(why)
	}
	attacker, err := p.attacker()
	if err != nil {
		return nil, fmt.Errorf("the task's settings: %w", err)
	}
	game, err := p.game(p.Path)
	if err != nil {
		return nil, fmt.Errorf("the task's leaf: %w", err)
	}
	pos := game.Position()
	if pos.Variant().Family() != board.Katro {
		return nil, dfpn.ErrNotKatro
	}
	if got := pos.String(); got != p.Position {
		return nil, fmt.Errorf("the task's path %q leads to %s, not to the position it names, %s", p.Path, got, p.Position)
	}
	if err := s.solverFor(t.Match, p.HashMiB, reportEvery(ackWait)); err != nil {
		return nil, fmt.Errorf("the task's table: %w", err)
	}
	live.beat()
	if s.w.stall != nil {
		s.w.stall(ctx)
	}
	b, nodes, err := s.solver.ProveWithin(ctx, pos, game.History(), attacker, p.Budget, live.reporter())
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	r := &ProofResult{Round: p.Round, Path: p.Path, Position: p.Position, PN: b.PN, DN: b.DN, Plies: b.Plies, OnPath: b.OnPath, Nodes: nodes}
	if b.PN != 0 {
		return r, nil
	}
	var piece bytes.Buffer
	oracle := func(q *board.Position) (board.Move, bool) {
		live.beat()
		m, _, ok := s.solver.WinningMove(ctx, q)
		return m, ok
	}
	if _, err := cert.Write(ctx, &piece, pos, attacker, oracle, cert.Options{History: game.History(), Format: cert.FormatCompact}); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("writing the certificate of the leaf proven: %w", err)
	}
	live.beat()
	if r.Piece, err = putPiece(ctx, s.c.JS, piece.Bytes()); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, retryable(fmt.Errorf("storing the certificate piece: %w", err))
	}
	return r, nil
}

// putPiece stores a certificate piece in the proof store under its
// SHA-256, which it returns.
func putPiece(ctx context.Context, js jetstream.JetStream, data []byte) (string, error) {
	sum := sha256.Sum256(data)
	name := hex.EncodeToString(sum[:])
	ctx, cancel := context.WithTimeout(ctx, transferTimeout)
	defer cancel()
	obs, err := js.ObjectStore(ctx, ProofBucket)
	if err != nil {
		return "", err
	}
	if _, err := obs.PutBytes(ctx, name, data); err != nil {
		return "", err
	}
	return name, nil
}

// leafName names a leaf by its path in messages.
func leafName(path string) string {
	if path == "" {
		return "the root"
	}
	return fmt.Sprintf("%q", path)
}
