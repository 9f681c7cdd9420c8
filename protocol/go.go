package protocol

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search"
)

// maxMillis bounds the times "go" reads (about 31 years), so that they
// convert to a time.Duration.
const maxMillis = 1_000_000_000_000

// goParams is a read "go" command.
type goParams struct {
	lim    search.Limits
	ponder bool

	// ignored says what could not be read, and why: the search runs
	// without it.
	ignored []string
}

// ignore notes that a parameter was left out because of err (nil: none).
func (g *goParams) ignore(err error) {
	if err != nil {
		g.ignored = append(g.ignored, err.Error()+", ignored")
	}
}

// parseGo reads the parameters of "go" for position p. Like Stockfish it
// never refuses the command: what it cannot read (an unknown word, a
// missing or bad value, an illegal move of searchmoves) is left out and
// noted in g.ignored, and the rest is searched with.
func parseGo(args []string, p *board.Position) goParams {
	var g goParams
	for i := 0; i < len(args); i++ {
		key := strings.ToLower(args[i])
		switch {
		case key == "infinite":
			g.lim.Infinite = true
		case key == "ponder":
			g.ponder = true
		case key == "searchmoves":
			i = g.readSearchMoves(args, i, p)
		case !isGoKeyword(key):
			g.ignore(fmt.Errorf("unknown parameter %s", quote(args[i])))
		case i+1 == len(args) || isGoKeyword(args[i+1]):
			g.ignore(fmt.Errorf("%s needs a value", key))
		default:
			i++
			g.ignore(g.setValue(key, args[i]))
		}
	}
	return g
}

// readSearchMoves reads the moves of the "searchmoves" at args[i], up to
// the next keyword, and returns the index of its last word. A move that is
// not legal here is left out; when no legal move is left the restriction
// is dropped and every move is searched.
func (g *goParams) readSearchMoves(args []string, i int, p *board.Position) int {
	g.lim.SearchMoves = nil
	given := 0
	for i+1 < len(args) && !isGoKeyword(args[i+1]) {
		i++
		given++
		m, err := legalMove(args[i], p)
		if err != nil {
			g.ignore(fmt.Errorf("searchmoves: %v", err))
			continue
		}
		g.lim.SearchMoves = append(g.lim.SearchMoves, m)
	}
	switch {
	case given == 0:
		g.ignore(errors.New("searchmoves: no move given"))
	case len(g.lim.SearchMoves) == 0:
		g.ignored = append(g.ignored, "searchmoves: no legal move left, every move is searched")
	}
	return i
}

// legalMove reads s, a move that must be legal in p.
func legalMove(s string, p *board.Position) (board.Move, error) {
	m, err := p.Variant().ParseMove(s)
	if err != nil {
		return m, err
	}
	if legal := p.LegalMoves(); !slices.Contains(legal, m) {
		return m, fmt.Errorf("%s is not a legal move here (legal: %s)", m, legalText(legal))
	}
	return m, nil
}

// setValue sets go's parameter key, one that takes a number, to s; on an
// error nothing is set.
func (g *goParams) setValue(key, s string) error {
	if key == "nodes" {
		n, err := parseNodes(s)
		if err == nil {
			g.lim.Nodes = n
		}
		return err
	}
	n, err := parseInt(key, s)
	if err != nil {
		return err
	}
	return g.setInt(key, n)
}

// setInt sets go's parameter key, a number other than nodes, to n.
func (g *goParams) setInt(key string, n int64) error {
	lim := &g.lim
	ms := time.Duration(max(min(n, maxMillis), -maxMillis)) * time.Millisecond
	switch key {
	case "depth":
		if n < 1 {
			return fmt.Errorf("depth %d: want 1 or more", n)
		}
		lim.Depth = int(min(n, search.MaxPly-1))
	case "movetime":
		lim.MoveTime = max(ms, time.Millisecond) // 0 or less: as fast as possible
	case "wtime", "p1time":
		lim.Clock[board.South], lim.HasClock[board.South] = ms, true
	case "btime", "p2time":
		lim.Clock[board.North], lim.HasClock[board.North] = ms, true
	case "winc", "p1inc":
		lim.Inc[board.South] = ms
	case "binc", "p2inc":
		lim.Inc[board.North] = ms
	case "movestogo":
		lim.MovesToGo = int(max(min(n, 1000), 0)) // 0 or less: unknown
	case "mate":
		return errors.New("mate: searching for a mate in n moves is not supported; use depth")
	}
	return nil
}

// parseInt reads the value s of go's parameter key, a 64-bit integer: a
// number outside that range is too large (or too small), not "not an
// integer". The caller bounds it further.
func parseInt(key, s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case err == nil:
		return n, nil
	case errors.Is(err, strconv.ErrRange) && strings.HasPrefix(s, "-"):
		return 0, fmt.Errorf("%s: %s is too small (at least %d)", key, quote(s), int64(math.MinInt64))
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("%s: %s is too large (at most %d)", key, quote(s), int64(math.MaxInt64))
	}
	return 0, fmt.Errorf("%s: %s is not an integer", key, quote(s))
}

// parseNodes reads the value of "go nodes": 1 to the largest 64-bit
// unsigned integer.
func parseNodes(s string) (uint64, error) {
	n, err := strconv.ParseUint(s, 10, 64)
	switch {
	case err == nil && n == 0:
		return 0, errors.New("nodes 0: want 1 or more")
	case err == nil:
		return n, nil
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("nodes: %s is too large (at most %d)", quote(s), uint64(math.MaxUint64))
	}
	m, err := parseInt("nodes", s) // signed: "+5", "-5", or not a number
	switch {
	case err != nil:
		return 0, err
	case m < 1:
		return 0, fmt.Errorf("nodes %d: want 1 or more", m)
	}
	return uint64(m), nil
}

// isGoKeyword reports whether s is a parameter name of "go".
func isGoKeyword(s string) bool {
	switch strings.ToLower(s) {
	case "depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo",
		"p1time", "p2time", "p1inc", "p2inc", "mate", "infinite", "ponder", "searchmoves":
		return true
	}
	return false
}

// legalText lists moves for a message, "none" when there are none.
func legalText(ms []board.Move) string {
	if len(ms) == 0 {
		return "none"
	}
	return board.FormatMoves(ms)
}

// cmdGo starts a search of the current position in its own goroutine,
// which reports "info" lines as the search goes and ends with exactly one
// "bestmove". A search still running is stopped first (it prints its own
// bestmove). What go could not read is left out and reported (see
// parseGo), as is a refused position command before it (goNotes).
func (s *server) cmdGo(args []string) error {
	p := s.game.Position()
	g := parseGo(args, &p)
	s.stopJob()
	eng, err := s.engine()
	if err == nil {
		err = eng.SetThreads(s.threads)
	}
	if err != nil {
		// No search can run (a table or network that cannot be had):
		// still a bestmove, so that a GUI is never left waiting.
		s.out.info("error: go: " + err.Error() + "; answering without a search")
		s.out.bestmove(unsearchedMove(&p), board.NoMove)
		return nil
	}
	g.lim.Overhead = s.overhead
	g.lim.MultiPV = s.multiPV
	g.lim.Skill = s.skillLimit()
	s.levelTable(eng)
	hist := slices.Clone(s.game.History())
	out := s.out
	ctx, j := s.newJob()
	if g.ponder {
		g.lim.Ponder = search.NewPonder()
		j.ponder = g.lim.Ponder
	}
	showWDL := s.showWDL
	s.goNotes(g, &p)
	s.launch(ctx, j, func(ctx context.Context) {
		res, err := runSearch(ctx, eng, p, hist, g.lim, out, showWDL)
		if err != nil {
			out.info("error: search: " + err.Error())
		}
		// The dialect is the one in force as the line is written, not at
		// "go": a handshake may come during the search.
		out.bestmove(res.Move, res.Ponder, finalInfo(res, showWDL))
	})
	return nil
}

// unsearchedMove is the answer of a go that cannot search: the first legal
// move in the rule book's order, or NoMove ("bestmove (none)") when the
// game is over.
func unsearchedMove(p *board.Position) board.Move {
	if ms := p.LegalMoves(); len(ms) > 0 {
		return ms[0]
	}
	return board.NoMove
}

// goNotes writes the notes that come before a search: one line with what
// go left out, and, at the first go after a refused position command
// (which changed nothing), which position is searched.
func (s *server) goNotes(g goParams, p *board.Position) {
	if len(g.ignored) > 0 {
		s.out.info("error: go: " + strings.Join(g.ignored, "; "))
	}
	if s.refusedPosition != "" {
		s.out.info(fmt.Sprintf("searching %s (the last position command was refused: %s)", p, s.refusedPosition))
		s.refusedPosition = ""
	}
}

// runSearch runs the search of "go" and returns its result once the
// bestmove is due: at once when the search ends, except that an infinite
// search waits for ctx to be cancelled ("stop"). A pondering search ("go
// ponder", lim.Ponder set) runs without limits until "ponderhit" hits
// lim.Ponder, then goes on — the same search — under the go command's
// limits, its clock starting at the hit; "stop" ends it with a bestmove
// for the pondered position. Info lines carry "wdl" when showWDL is set.
func runSearch(ctx context.Context, eng *search.Engine, p board.Position, hist []uint64, lim search.Limits, out *output, showWDL bool) (search.Result, error) {
	res, err := eng.SearchWith(ctx, p, hist, lim, Printers(func(l string) { out.print(l) }, showWDL))
	if lim.Infinite {
		<-ctx.Done()
	}
	return res, err
}
