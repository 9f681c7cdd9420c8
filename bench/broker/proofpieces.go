package broker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/board/cert"
	"github.com/sower-engine/sower/internal/atomicfile"
)

// A proven leaf's certificate piece travels through the proof store
// (ProofBucket), named by its SHA-256. The coordinator fetches it, checks
// it by the rules from the leaf (cert.Verify, with the game's history
// down to the leaf), keeps it in its pieces directory and only then
// enters the leaf in the tree: the tree file never says proven what no
// piece kept proves. At the end the pieces and the tree's own moves are
// walked from the root into one certificate (cert.Write), which checks
// the whole again.

// pieceExt ends the name of a piece kept in the pieces directory.
const pieceExt = ".cert"

// fetchPiece fetches the piece named hash and checks that it proves the
// attacker's win at pos after history; it returns the piece's bytes.
func (j *proofJob) fetchPiece(hash string, pos board.Position, history []uint64) ([]byte, error) {
	ctx, cancel := context.WithTimeout(j.ctx, transferTimeout)
	defer cancel()
	obs, err := j.client.JS.ObjectStore(ctx, ProofBucket)
	if err != nil {
		return nil, fmt.Errorf("the proof store: %w", err)
	}
	res, err := obs.Get(ctx, hash)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil, fmt.Errorf("its certificate piece %.12s is not in the proof store", hash)
	}
	if err != nil {
		return nil, fmt.Errorf("fetching its certificate piece %.12s: %w", hash, err)
	}
	var buf bytes.Buffer
	if err := readObject(ctx, res, &buf, hash); err != nil {
		return nil, fmt.Errorf("its certificate piece %.12s is damaged: %v", hash, err)
	}
	st, err := cert.Verify(ctx, bytes.NewReader(buf.Bytes()), pos, cert.Options{History: history})
	if err != nil {
		return nil, fmt.Errorf("its certificate piece %.12s does not prove the leaf: %v", hash, err)
	}
	if st.Winner != j.attacker {
		return nil, fmt.Errorf("its certificate piece %.12s proves %s's win, not %s's", hash, st.Winner, j.attacker)
	}
	return buf.Bytes(), nil
}

// keepPiece writes a checked piece into the pieces directory.
func (j *proofJob) keepPiece(hash string, data []byte) error {
	if err := os.MkdirAll(j.Pieces, 0o755); err != nil {
		return fmt.Errorf("the pieces directory: %w", err)
	}
	path := filepath.Join(j.Pieces, hash+pieceExt)
	if err := atomicfile.Write(path, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
		return fmt.Errorf("keeping a certificate piece: %w", err)
	}
	return nil
}

// dropPiece removes a piece kept from the proof store (a failure only
// leaves it there).
func (j *proofJob) dropPiece(hash string) {
	obs, err := j.client.JS.ObjectStore(j.ctx, ProofBucket)
	if err == nil {
		err = obs.Delete(j.ctx, hash)
	}
	if err != nil && j.ctx.Err() == nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
		fmt.Fprintf(j.out, "removing the piece %.12s from the proof store: %v\n", hash, err)
	}
}

// writeProof joins the pieces kept, with the tree's own moves above them,
// into the certificate of the root's proof and writes it to Proof.
func (j *proofJob) writeProof() error {
	root := j.Game.Position()
	pieces, err := cert.NewPieces(root.Variant())
	if err != nil {
		return err
	}
	names, err := j.pieceFiles()
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := readPieceFile(j.ctx, pieces, name); err != nil {
			return err
		}
	}
	fromPieces := pieces.Oracle()
	oracle := func(p *board.Position) (board.Move, bool) {
		if m, ok := j.Tree.WinningMove(p); ok {
			return m, true
		}
		return fromPieces(p)
	}
	st, err := cert.WriteFile(j.ctx, j.Proof, root, j.attacker, oracle, cert.Options{History: j.Game.History()})
	if err != nil {
		return fmt.Errorf("joining the certificate of the proof into %s: %w", j.Proof, err)
	}
	fmt.Fprintf(j.out, "proof written to %s: %d pieces joined; %d positions of %s listed, %d of %s reached, longest line %d plies\n",
		j.Proof, len(names), st.Listed, j.attacker, st.LoserReached, j.attacker.Other(), st.Longest)
	return nil
}

// pieceFiles lists the pieces kept, in order of name.
func (j *proofJob) pieceFiles() ([]string, error) {
	entries, err := os.ReadDir(j.Pieces)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("the pieces directory: %w", err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), pieceExt) {
			names = append(names, filepath.Join(j.Pieces, e.Name()))
		}
	}
	sort.Strings(names)
	return names, nil
}

// readPieceFile adds the piece in file name to pieces.
func readPieceFile(ctx context.Context, pieces *cert.Pieces, name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pieces.Read(ctx, f); err != nil {
		return fmt.Errorf("the certificate piece %s: %w", name, err)
	}
	return nil
}
