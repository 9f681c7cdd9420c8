package protocol

import (
	"strconv"
	"strings"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/search"
)

// FormatInfo writes a search report as a protocol info line:
//
//	info depth 12 seldepth 15 score cp 34 nodes 81234 nps 2712345 time 30 hashfull 12 pv a1 f6 c1
//
// tbhits (endgame table probes that found their position) follows
// hashfull when the search used tables.
// The score is "cp <x>" or "mate <n>" (see search.Score.UCI), followed by
// "lowerbound" or "upperbound" when the iteration's window failed. time is
// in milliseconds. The command line's analyse prints the same lines.
func FormatInfo(i search.Info) string {
	var b strings.Builder
	b.WriteString("info depth ")
	b.WriteString(strconv.Itoa(i.Depth))
	if i.SelDepth > 0 {
		b.WriteString(" seldepth ")
		b.WriteString(strconv.Itoa(i.SelDepth))
	}
	b.WriteString(" score ")
	b.WriteString(i.Score.UCI(i.Family))
	switch i.Bound {
	case search.BoundLower:
		b.WriteString(" lowerbound")
	case search.BoundUpper:
		b.WriteString(" upperbound")
	}
	b.WriteString(" nodes ")
	b.WriteString(strconv.FormatUint(i.Nodes, 10))
	b.WriteString(" nps ")
	b.WriteString(strconv.FormatUint(i.NPS, 10))
	b.WriteString(" time ")
	b.WriteString(strconv.FormatInt(i.Time.Milliseconds(), 10))
	b.WriteString(" hashfull ")
	b.WriteString(strconv.Itoa(i.Hashfull))
	if i.TBHits > 0 {
		b.WriteString(" tbhits ")
		b.WriteString(strconv.FormatUint(i.TBHits, 10))
	}
	if len(i.PV) > 0 {
		b.WriteString(" pv ")
		b.WriteString(board.FormatMoves(i.PV))
	}
	return b.String()
}

// FormatBestMove writes the bestmove line: "bestmove c1", "bestmove c1
// ponder f6", "bestmove pass", or "bestmove (none)" when the game is over.
func FormatBestMove(best, ponder board.Move) string {
	s := "bestmove " + best.String()
	if best != board.NoMove && ponder != board.NoMove {
		s += " ponder " + ponder.String()
	}
	return s
}

// finalInfo writes the info line that comes right before bestmove: the
// search's last report with its final node count and time. A search
// stopped before it completed its first iteration has no score yet, and
// its line says only how far it got; a game already over reports its
// result as "info depth 0 score …".
func finalInfo(res search.Result) string {
	i := res.Info
	if i.Depth > 0 || res.Over.Over() {
		return FormatInfo(i)
	}
	s := "info depth 0 nodes " + strconv.FormatUint(i.Nodes, 10) +
		" nps " + strconv.FormatUint(i.NPS, 10) +
		" time " + strconv.FormatInt(i.Time.Milliseconds(), 10)
	if len(i.PV) > 0 {
		s += " pv " + board.FormatMoves(i.PV)
	}
	return s
}
