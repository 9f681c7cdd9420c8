package search

import "github.com/sower-engine/sower/board"

// Settled reports whether the report's result can no longer change with
// a deeper search: a proven result (Proven) for which nothing is left to
// find. That is a Hoyito III margin or a Katro draw proven with every line
// searched to a game end (no leaf scored by the evaluation), and a Katro
// win or loss proven within the depth searched (no shorter win or longer
// defence is left). Analysis, which searches to its limit whatever it has
// found, may stop there: the deeper iterations would repeat the report.
func (i Info) Settled() bool {
	if !i.Proven || i.Bound != BoundExact {
		return false
	}
	if i.Family == board.Katro && i.Score.Decisive() {
		return i.Score.MatePlies() <= i.Depth
	}
	return true
}
