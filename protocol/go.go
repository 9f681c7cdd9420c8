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
}

// parseGo reads the parameters of "go" for position p.
func parseGo(args []string, p *board.Position) (goParams, error) {
	var g goParams
	lim := &g.lim
	for i := 0; i < len(args); i++ {
		key := strings.ToLower(args[i])
		switch key {
		case "infinite":
			lim.Infinite = true
			continue
		case "ponder":
			g.ponder = true
			continue
		case "searchmoves":
			lim.SearchMoves = lim.SearchMoves[:0]
			for i+1 < len(args) && !isGoKeyword(args[i+1]) {
				i++
				m, err := p.Variant().ParseMove(args[i])
				if err != nil {
					return g, fmt.Errorf("searchmoves: %v", err)
				}
				if legal := p.LegalMoves(); !slices.Contains(legal, m) {
					return g, fmt.Errorf("searchmoves: %s is not a legal move here (legal: %s)", m, legalText(legal))
				}
				lim.SearchMoves = append(lim.SearchMoves, m)
			}
			if len(lim.SearchMoves) == 0 {
				return g, fmt.Errorf("searchmoves: no move given")
			}
			continue
		}
		if !isGoKeyword(key) {
			return g, fmt.Errorf("unknown parameter %s", quote(args[i]))
		}
		if i+1 == len(args) {
			return g, fmt.Errorf("%s needs a value", key)
		}
		i++
		if key == "nodes" {
			n, err := parseNodes(args[i])
			if err != nil {
				return g, err
			}
			lim.Nodes = n
			continue
		}
		n, err := parseInt(key, args[i])
		if err != nil {
			return g, err
		}
		ms := time.Duration(max(min(n, maxMillis), -maxMillis)) * time.Millisecond
		switch key {
		case "depth":
			if n < 1 {
				return g, fmt.Errorf("depth %d: want 1 or more", n)
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
			return g, fmt.Errorf("mate: searching for a mate in n moves is not supported; use depth")
		}
	}
	return g, nil
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
// bestmove).
func (s *server) cmdGo(args []string) error {
	p := s.game.Position()
	g, err := parseGo(args, &p)
	if err != nil {
		return err
	}
	s.stopJob()
	eng, err := s.engine()
	if err != nil {
		return err
	}
	if err := eng.SetThreads(s.threads); err != nil {
		return err
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
