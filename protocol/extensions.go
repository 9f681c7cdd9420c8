package protocol

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/eval"
	"github.com/sower-engine/sower/eval/nnue"
	"github.com/sower-engine/sower/search"
)

// WriteBoard writes what "d" and the command line's show print: the
// position's diagram, then the lines "Fen: <position>", "Legal: <moves>"
// (none once the game is over) and "Status: <status>" (see StatusText).
func WriteBoard(w io.Writer, g *board.Game) error {
	p := g.Position()
	_, err := fmt.Fprintf(w, "%sFen: %s\nLegal: %s\nStatus: %s\n",
		p.Diagram(), p.String(), board.FormatMoves(LegalMoves(g)), StatusText(g.Status()))
	return err
}

// LegalMoves returns the legal moves of the game's position: none once the
// game is over, by whatever rule.
func LegalMoves(g *board.Game) []board.Move {
	if g.Status().Over() {
		return nil
	}
	p := g.Position()
	return p.LegalMoves()
}

// StatusText describes a game's status for people: "ongoing", "South wins
// (no legal move)", "draw (repetition)", with the final seed totals of a
// Hoyito III game: "North wins (last four, 20-28)".
func StatusText(st board.Status) string {
	if !st.Over() {
		return "ongoing"
	}
	s := "draw"
	if w, ok := st.Result.Winner(); ok {
		s = w.String() + " wins"
	}
	s += " (" + st.Reason.String()
	if st.Seeds != [2]int{} {
		s += fmt.Sprintf(", %d-%d", st.Seeds[0], st.Seeds[1])
	}
	return s + ")"
}

// WriteEval writes the evaluation of p term by term, as "eval" and the
// command line's eval print: a header, one line per term with South's and
// North's values, the weight as it multiplies (the learned evaluation's
// blend by the phase, with its fraction) and the contribution, a line
// saying how they multiply, then the total for the side to move.
func WriteEval(w io.Writer, e *eval.Evaluator, p *board.Position) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%-11s %6s %6s %10s %7s\n", "term", "South", "North", "weight", "score")
	total := 0
	for _, t := range e.Breakdown(p) {
		fmt.Fprintf(&b, "%-11s %6d %6d %10s %7d\n", t.Name, t.South, t.North, strconv.FormatFloat(t.ExactWeight, 'f', -1, 64), t.Score)
		total += t.Score
	}
	b.WriteString("score = weight × (the side to move's value − the opponent's), truncated toward zero")
	if e.Learned() != nil {
		b.WriteString("; hole values: the rest of the total")
	}
	fmt.Fprintf(&b, "\ntotal %d for %s, the side to move (hundredths of a seed)\n", total, p.Side())
	_, err := io.WriteString(w, b.String())
	return err
}

// printBlock sends text of several lines as one block.
func (s *server) printBlock(text string) {
	s.out.print(strings.Split(strings.TrimSuffix(text, "\n"), "\n")...)
}

// cmdD is "d": the board, its notation, legal moves and status.
func (s *server) cmdD(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("unexpected %s", quote(args[0]))
	}
	var b strings.Builder
	WriteBoard(&b, s.game)
	s.printBlock(b.String())
	return nil
}

// cmdEval is "eval": the static evaluation of the current position, term
// by term, or when a network plays the position's family the network's
// (WriteNetEval), followed by the lazy margin's line when there is one.
// At a strength level (Skill Level, UCI_LimitStrength), where the search
// evaluates with the linear evaluation, a line says so before its terms.
func (s *server) cmdEval(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("unexpected %s", quote(args[0]))
	}
	p := s.game.Position()
	linear := search.Evaluator(p.Variant())
	f := p.Variant().Family()
	var b strings.Builder
	n, err := s.network(f)
	switch {
	case err != nil:
		return err
	case n != nil && s.atLevel():
		b.WriteString("at a strength level (Skill Level, UCI_LimitStrength) the search evaluates with the linear evaluation\n")
		WriteEval(&b, linear, &p)
	case n != nil:
		source := "the built-in " + nnue.BuiltinName(f)
		if n == s.nets.net {
			source = "file " + s.nets.file
		}
		if err := WriteNetEval(&b, n, source, &p, linear); err != nil {
			return err
		}
		if s.evalLazy > 0 {
			fmt.Fprintf(&b, "EvalLazy %d: the search scores a position the linear evaluation puts beyond ± %d by the linear evaluation\n", s.evalLazy, s.evalLazy)
		}
	default:
		if s.nets.mode == evalNet {
			fmt.Fprintf(&b, "no %s network (none is built in; EvalFile can give one): the linear evaluation plays\n", f)
		}
		WriteEval(&b, linear, &p)
	}
	s.printBlock(b.String())
	return nil
}

// maxPerftDepth is the deepest perft the protocol accepts, as on the
// command line.
const maxPerftDepth = 64

// cmdPerft is "perft <depth>": runs as a job (stop cancels it), printing
// "<move> <count>" for each legal move as its count is done, then "nodes
// <total>".
func (s *server) cmdPerft(args []string) error {
	if len(args) != 1 {
		return errors.New("want perft <depth>")
	}
	depth, err := strconv.Atoi(args[0])
	if err != nil || depth < 0 || depth > maxPerftDepth {
		return fmt.Errorf("depth %s: want an integer from 0 to %d", quote(args[0]), maxPerftDepth)
	}
	s.stopJob()
	p := s.game.Position()
	out := s.out
	ctx, j := s.newJob()
	s.launch(ctx, j, func(ctx context.Context) {
		start := time.Now()
		var total uint64
		if depth == 0 {
			total = 1
		}
		if depth > 0 {
			for _, m := range p.LegalMoves() {
				c := p
				c.Play(m)
				n, ok := perft(ctx, c, depth-1)
				if !ok {
					out.info("perft stopped")
					return
				}
				out.print(m.String() + " " + strconv.FormatUint(n, 10))
				total += n
			}
		}
		el := time.Since(start)
		out.print(
			fmt.Sprintf("info string perft time %d ms, %.0f nodes/s", el.Milliseconds(), float64(total)/max(el.Seconds(), 1e-9)),
			"nodes "+strconv.FormatUint(total, 10))
	})
	return nil
}

// perftSplit is the depth below which perft counts without looking at
// ctx: at most 6^5 sequences, a few milliseconds.
const perftSplit = 5

// perft is board.Position.Perft made cancellable: it splits the count at
// the top levels and checks ctx between the parts. It reports false if ctx
// was cancelled.
func perft(ctx context.Context, p board.Position, depth int) (uint64, bool) {
	if depth <= perftSplit {
		return p.Perft(depth), ctx.Err() == nil
	}
	if ctx.Err() != nil {
		return 0, false
	}
	var n uint64
	for _, m := range p.LegalMoves() {
		c := p
		c.Play(m)
		k, ok := perft(ctx, c, depth-1)
		if !ok {
			return 0, false
		}
		n += k
	}
	return n, true
}

// cmdBench is "bench": runs Config.Bench as a job (stop cancels it) with
// the current options, its report sent as info string lines.
func (s *server) cmdBench(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("unexpected %s", quote(args[0]))
	}
	if s.cfg.Bench == nil {
		return errors.New(`not available here; run "sower bench"`)
	}
	o, err := s.engineOptions()
	if err != nil {
		return err
	}
	o.Books = nil
	s.stopJob()
	bench, multiPV := s.cfg.Bench, s.multiPV
	out := s.out
	ctx, j := s.newJob()
	s.launch(ctx, j, func(ctx context.Context) {
		w := &infoWriter{out: out}
		err := bench(ctx, w, o, multiPV)
		w.Close()
		switch {
		case ctx.Err() != nil:
			out.info("bench stopped")
		case err != nil:
			out.info("error: bench: " + err.Error())
		default:
			out.info("bench done")
		}
	})
	return nil
}
