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
// With several lines (MultiPV) each carries its rank after the depths:
// "info depth 12 seldepth 15 multipv 2 score cp 20 …". tbhits (endgame
// table probes that found their position) follows hashfull when the search
// used tables.
//
// The score is "cp <x>" or "mate <n>" (see search.Score.UCI), followed by
// "lowerbound" or "upperbound" when the iteration's window failed. With
// showWDL (the UCI_ShowWDL option) "wdl <win> <draw> <loss>" follows, per
// mille for the side to move, as Stockfish places it (search.Info.WDL with
// the report's model, Info.Model: the network's where a network plays
// the search and records one, else the family's eval.BuiltinWDL). time is
// in milliseconds. The command line's analyse prints the same lines.
func FormatInfo(i search.Info, showWDL bool) string {
	var b strings.Builder
	b.WriteString("info depth ")
	b.WriteString(strconv.Itoa(i.Depth))
	if i.SelDepth > 0 {
		b.WriteString(" seldepth ")
		b.WriteString(strconv.Itoa(i.SelDepth))
	}
	if i.MultiPV > 0 {
		b.WriteString(" multipv ")
		b.WriteString(strconv.Itoa(i.MultiPV))
	}
	b.WriteString(" score ")
	b.WriteString(i.Score.UCI(i.Family))
	switch i.Bound {
	case search.BoundLower:
		b.WriteString(" lowerbound")
	case search.BoundUpper:
		b.WriteString(" upperbound")
	}
	if showWDL {
		w := i.WDL(i.Model())
		b.WriteString(" wdl ")
		b.WriteString(strconv.Itoa(w.Win))
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(w.Draw))
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(w.Loss))
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
func finalInfo(res search.Result, showWDL bool) string {
	i := res.Info
	if i.Depth > 0 || res.Over.Over() {
		return FormatInfo(i, showWDL)
	}
	s := "info depth 0 nodes " + strconv.FormatUint(i.Nodes, 10) +
		" nps " + strconv.FormatUint(i.NPS, 10) +
		" time " + strconv.FormatInt(i.Time.Milliseconds(), 10)
	if len(i.PV) > 0 {
		s += " pv " + board.FormatMoves(i.PV)
	}
	return s
}

// FormatCurrMove writes a root move report:
//
//	info depth 18 currmove c1 currmovenumber 2
func FormatCurrMove(c search.CurrMove) string {
	return "info depth " + strconv.Itoa(c.Depth) + " currmove " + c.Move.String() +
		" currmovenumber " + strconv.Itoa(c.Number)
}

// FormatProof writes a proven root result as an info string line, from
// the side to move's point of view:
//
//	info string proven: win in 7 plies
//	info string proven: loss in 4 plies
//	info string proven: draw
//	info string proven: win by exactly 8 seeds
func FormatProof(p search.Proof) string {
	s := "info string proven: "
	switch {
	case p.Family == board.Hoyito && p.Margin > 0:
		return s + "win by exactly " + seeds(p.Margin)
	case p.Family == board.Hoyito && p.Margin < 0:
		return s + "loss by exactly " + seeds(-p.Margin)
	case p.Score > 0:
		return s + "win in " + plies(p.Plies)
	case p.Score < 0:
		return s + "loss in " + plies(p.Plies)
	}
	return s + "draw"
}

func seeds(n int) string {
	if n == 1 {
		return "1 seed"
	}
	return strconv.Itoa(n) + " seeds"
}

func plies(n int) string {
	if n == 1 {
		return "1 ply"
	}
	return strconv.Itoa(n) + " plies"
}

// Printers returns search callbacks that print each report as its
// protocol line through print, info lines with "wdl" when showWDL is set.
func Printers(print func(string), showWDL bool) search.Callbacks {
	return search.Callbacks{
		Info:     func(i search.Info) { print(FormatInfo(i, showWDL)) },
		CurrMove: func(c search.CurrMove) { print(FormatCurrMove(c)) },
		Proven:   func(p search.Proof) { print(FormatProof(p)) },
	}
}
