package cert

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sower-engine/sower/board"
)

// headerLines is the number of header lines Write writes before the
// positions.
const headerLines = 4

// Oracle returns the winning move of a position where the winner is to
// move, or false when it does not know one.
type Oracle func(p *board.Position) (board.Move, bool)

// Write walks the proof that winner wins from root, asking move for the
// winner's move in each of its positions and trying every legal move of the
// loser, and writes its certificate to w: the header lines, then one line
// per position of the winner in the order a depth-first walk first reaches
// them (the loser's moves in the order of board.Position.GenerateMoves),
// then "# positions N". The same oracle gives byte-identical files.
//
// Write refuses, naming the position, a proof that would not verify: the
// oracle knows no move or gives an illegal one, the winner has no legal
// move, a line reaches a position again from itself, a capture-free run
// reaches the no-capture limit, or a position repeats opts.History for the
// third time. Lines already written then stay written: WriteFile removes
// its file. It refuses Hoyito III.
func Write(ctx context.Context, w io.Writer, root board.Position, winner board.Side, move Oracle, opts Options) (Stats, error) {
	var st Stats
	v := root.Variant()
	if v.Family() != board.Katro {
		return st, errHoyito
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "# %s v%d\n# %s %s\n# %s %s\n# %s %s\n", headerMagic, Version,
		headerGame, v.Name(), headerRoot, positionText(&root), headerWinner, winner)
	wk := newWalker(ctx, v, winner, &opts)
	wk.phase = "writing"
	var line []byte
	wk.lookup = func(p *board.Position) (int32, error) {
		k := keyOf(p)
		if i, ok := wk.index[k]; ok {
			return i, nil
		}
		m, ok := move(p)
		if !ok {
			return 0, fmt.Errorf("no winning move is known for position %s (winner to move)", positionText(p))
		}
		i := int32(len(wk.nodes))
		wk.index[k] = i
		wk.nodes = append(wk.nodes, node{line: uint32(headerLines + st.Listed + 1), move: m})
		st.Listed++
		line = appendLine(line[:0], p, m)
		if _, err := bw.Write(line); err != nil {
			return 0, err
		}
		return i, nil
	}
	wk.moveErr = func(n *node, p *board.Position, err error) error {
		return fmt.Errorf("the oracle's move %s is not legal in %s: %v", n.move, positionText(p), err)
	}
	need, depth, err := wk.run(root)
	wk.stats(&st, need, depth)
	if err != nil {
		return st, err
	}
	fmt.Fprintf(bw, "# %s %d\n", headerPositions, st.Listed)
	return st, bw.Flush()
}

// WriteFile writes the certificate of Write to the file path, gzipped when
// its name ends in ".gz". It writes a temporary file in the same directory
// and renames it to path once complete, so that path holds either the whole
// certificate or what it held before; on error the temporary file is
// removed.
func WriteFile(ctx context.Context, path string, root board.Position, winner board.Side, move Oracle, opts Options) (st Stats, err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return st, err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	var out io.Writer = f
	var gz *gzip.Writer
	if strings.HasSuffix(path, ".gz") {
		gz = gzip.NewWriter(f)
		out = gz
	}
	if st, err = Write(ctx, out, root, winner, move, opts); err != nil {
		return st, err
	}
	if gz != nil {
		if err = gz.Close(); err != nil {
			return st, err
		}
	}
	if err = f.Chmod(0o644); err != nil {
		return st, err
	}
	if err = f.Close(); err != nil {
		return st, err
	}
	return st, os.Rename(f.Name(), path)
}
