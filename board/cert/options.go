package cert

import (
	"strings"
	"time"

	"github.com/sower-engine/sower/board"
)

// Options are the settings of Write and Verify. The zero value is usable.
type Options struct {
	// History holds the hash keys (board.Position.Key) of the game's
	// positions before the root, oldest first, as board.Game.History gives
	// them: a position of the proof that they hold twice already would be
	// a draw by repetition when reached.
	History []uint64
	// Progress, when set, is called every few thousand positions or lines
	// from the goroutine that writes or checks.
	Progress func(Progress)
	// Format is the format Write writes (WriteFile goes by the file's
	// name); readers tell the format from the file itself.
	Format Format
}

// Format is a certificate format.
type Format int

// The formats: FormatText, version 1, one text line per position of the
// winner (the zero value); FormatCompact, version 2, the winner's moves as
// small indices in the order of the proof's walk, compressed.
const (
	FormatText Format = iota
	FormatCompact
)

// FormatOf returns the format of a certificate file named path, as
// WriteFile chooses it: FormatText when the name ends in ".txt" or
// ".txt.gz", else FormatCompact.
func FormatOf(path string) Format {
	if strings.HasSuffix(path, ".txt") || strings.HasSuffix(path, ".txt.gz") {
		return FormatText
	}
	return FormatCompact
}

// Progress reports how far a long walk has come.
type Progress struct {
	Phase   string // "reading" (the certificate's lines), "checking" or "writing"
	Lines   int    // lines read so far (reading)
	Winner  int    // positions of the winner reached so far
	Loser   int    // positions of the loser reached so far
	Line    int    // the plies of the line being walked
	Elapsed time.Duration
}

// Stats describe a proof written or checked.
type Stats struct {
	// Winner is the side the proof makes win.
	Winner board.Side
	// Listed is the number of position lines: written by Write, in the
	// file for Verify (Duplicates included).
	Listed int
	// Duplicates counts the lines that repeat an earlier line exactly.
	Duplicates int
	// WinnerReached and LoserReached count the distinct positions the proof
	// reaches with the winner and the loser to move; the loser's are told
	// apart by their 64-bit hash keys, a count only.
	WinnerReached, LoserReached int
	// Unused counts the listed positions the proof never reaches (Verify).
	Unused int
	// Longest is the number of plies of the proof's longest line.
	Longest int
	// CaptureFree is the most plies without a capture that can follow the
	// root before a position where the game goes on (−1 when the game is
	// over at the root), and LongestRun the most such plies anywhere in
	// the proof, from the root or from a capture. The proof holds from
	// the root at clock k under a no-capture limit L (the rest holding)
	// exactly when k + CaptureFree < L and LongestRun < L.
	CaptureFree, LongestRun int
	Elapsed                 time.Duration
}
