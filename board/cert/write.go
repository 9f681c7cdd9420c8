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
// loser, and writes its certificate to w in the format opts.Format: the
// winner's positions in the order a depth-first walk first reaches them
// (the loser's moves in the order of board.Position.GenerateMoves). In
// version 1 that is the header lines, one line per position and
// "# positions N"; in version 2 the header, then the moves' indices in one
// zstd frame. The same oracle gives byte-identical files.
//
// Write refuses, naming the position, a proof that would not verify: the
// oracle knows no move or gives an illegal one, the winner has no legal
// move, a line reaches a position again from itself, a capture-free run
// reaches the no-capture limit, or a position repeats opts.History for the
// third time. In version 1, lines already written then stay written;
// version 2 writes nothing until the walk is done. WriteFile removes its
// file. Write refuses Hoyito III.
func Write(ctx context.Context, w io.Writer, root board.Position, winner board.Side, move Oracle, opts Options) (Stats, error) {
	if opts.Format == FormatCompact {
		return writeCompact(ctx, w, root, winner, move, opts)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	v := root.Variant()
	if v.Family() == board.Katro {
		fmt.Fprintf(bw, "# %s v%d\n# %s %s\n# %s %s\n# %s %s\n", headerMagic, Version,
			headerGame, v.Name(), headerRoot, positionText(&root), headerWinner, winner)
	}
	var line []byte
	st, err := walkOracle(ctx, root, winner, move, opts, false, func(p *board.Position, m board.Move, _ int) error {
		line = appendLine(line[:0], p, m)
		_, err := bw.Write(line)
		return err
	})
	if err != nil {
		bw.Flush()
		return st, err
	}
	fmt.Fprintf(bw, "# %s %d\n", headerPositions, st.Listed)
	return st, bw.Flush()
}

// walkOracle walks the proof that winner wins from root with the oracle's
// moves, as Write does, and passes each position of the winner to emit when
// first reached, with its move and its index among GenerateMoves's
// candidates. Nodes are numbered by line of a v1 file, or by position when
// ordinal is set.
func walkOracle(ctx context.Context, root board.Position, winner board.Side, move Oracle, opts Options, ordinal bool,
	emit func(p *board.Position, m board.Move, index int) error) (Stats, error) {
	var st Stats
	v := root.Variant()
	if v.Family() != board.Katro {
		return st, errHoyito
	}
	wk := newWalker(ctx, v, winner, &opts)
	wk.phase = "writing"
	wk.ordinal = ordinal
	first := uint32(headerLines + 1)
	if ordinal {
		first = 1
	}
	var cands board.MoveList
	wk.lookup = func(p *board.Position) (int32, error) {
		k := keyOf(p)
		if i, ok := wk.index.get(k); ok {
			return i, nil
		}
		m, ok := move(p)
		if !ok {
			return 0, fmt.Errorf("no winning move is known for position %s (winner to move)", positionText(p))
		}
		p.GenerateMoves(&cands)
		index := moveIndex(&cands, m)
		if index < 0 {
			if err := p.CheckMove(m); err != nil {
				return 0, fmt.Errorf("the oracle's move %s is not legal in %s: %v", m, positionText(p), err)
			}
			return 0, fmt.Errorf("the oracle's move %s is not legal in %s", m, positionText(p))
		}
		i := wk.index.add(k)
		wk.nodes = append(wk.nodes, node{line: first + uint32(st.Listed), move: m})
		st.Listed++
		if err := emit(p, m, index); err != nil {
			return 0, err
		}
		return i, nil
	}
	wk.moveErr = func(n *node, p *board.Position, err error) error {
		return fmt.Errorf("the oracle's move %s is not legal in %s: %v", n.move, positionText(p), err)
	}
	need, depth, err := wk.run(root)
	wk.stats(&st, need, depth)
	return st, err
}

// moveIndex returns the index of m among the candidates l, or −1.
func moveIndex(l *board.MoveList, m board.Move) int {
	for i, c := range l.Slice() {
		if c == m {
			return i
		}
	}
	return -1
}

// WriteFile writes the certificate of Write to the file path, in the format
// FormatOf(path) gives (opts.Format is ignored): version 1 text when the
// name ends in ".txt" or ".txt.gz" (gzipped when it ends in ".gz"), else
// version 2. It writes a temporary file in the same directory
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
	opts.Format = FormatOf(path)
	if opts.Format == FormatText && strings.HasSuffix(path, ".gz") {
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
