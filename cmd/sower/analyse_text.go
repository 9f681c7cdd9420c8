package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/protocol"
	"github.com/sower-engine/sower/search"
)

// analyse's output formats (--format).
const (
	formatAuto = "auto" // text in a terminal, else the protocol's lines
	formatText = "text"
	formatUCI  = "uci"
)

// textOutput reports whether analyse writes for a person: --format text,
// or auto with standard output a terminal.
func textOutput(format string, w io.Writer) bool {
	if format != formatAuto {
		return format == formatText
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// textLine writes a completed depth for a person:
//
//	depth 12/15  +2.31  win 62%  a1 f6 c1 …   1.2M nodes  850k/s  1.4 s
//
// the score in the notation every command shares (search.Score.Text), the
// win chance with wdl, the line's first moves, and the effort. A line of
// several (MultiPV) starts with its rank.
func textLine(i search.Info, wdl bool) string {
	s := fmt.Sprintf("depth %2d/%-2d", i.Depth, i.SelDepth)
	if i.MultiPV > 0 {
		s += fmt.Sprintf("  line %d", i.MultiPV)
	}
	s += fmt.Sprintf("  %6s", i.Score.Text(i.Family))
	if wdl {
		s += fmt.Sprintf("  win %3d%%", (i.WDL(i.Model()).Win+5)/10)
	}
	if i.Proven {
		s += "  proven"
	}
	pv := i.PV
	more := ""
	if len(pv) > 12 {
		pv, more = pv[:12], " …"
	}
	s += "  " + board.FormatMoves(pv) + more
	return s + fmt.Sprintf("   %s nodes  %s/s  %s", count(i.Nodes), count(i.NPS), seconds(i.Time))
}

// textSummary writes analyse's last line for a person.
func textSummary(res search.Result) string {
	i := res.Info
	if res.Move == board.NoMove {
		return "no move: the game is over"
	}
	s := fmt.Sprintf("best move %s", res.Move)
	if i.Depth > 0 {
		s += fmt.Sprintf(": %s at depth %d", i.Score.Text(i.Family), i.Depth)
		if i.Proven {
			s += ", proven"
		}
	}
	s += fmt.Sprintf(", %s nodes in %s", count(i.Nodes), seconds(i.Time))
	if len(i.PV) > 1 {
		s += "; line " + board.FormatMoves(i.PV[:min(len(i.PV), 16)])
	}
	return s
}

// count writes a count for people: 950, 12.3k, 1.2M, 3.4G.
func count(n uint64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1fG", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1e4:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// seconds writes a duration in seconds, to the tenth.
func seconds(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }

// textProof writes a proven result for a person.
func textProof(p search.Proof) string {
	s := protocol.FormatProof(p)
	return s[len("info string "):]
}
