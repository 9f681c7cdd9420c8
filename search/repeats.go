package search

import "github.com/sower-engine/sower/board"

// repeatWatch follows, along the keys of a game's path, the latest
// position that repeats an earlier one of the same stretch without a
// capture (a second occurrence). The tables' bounds rest on play that
// forces a capture within a distance; along that play the distance falls
// at every ply, so no position of it occurs twice, but one that already
// occurred twice on the path before would occur a third time and end the
// game by repetition (rule book 2.6) before the capture. So a table's
// bounds are trusted only at a node whose stretch holds no second
// occurrence: then every position of the forcing play occurs at most twice.
// Positions from before the last capture never matter: a capture changes
// the capture totals, which are part of the key. With Repetition off (off
// set) nothing ends the forcing play early, so every node is clean.
type repeatWatch struct {
	last []int32 // last[i]: the greatest j <= i where keys[j] repeats an earlier key; -1 if none
	off  bool    // Repetition off: no key counts as a repetition
}

// reset computes the watch for the keys of a game's history (positions of
// every stretch; a key can only equal one of its own stretch). It keeps
// off.
func (w *repeatWatch) reset(keys []uint64) {
	w.last = w.last[:0]
	prev := int32(-1)
	for i, k := range keys {
		if !w.off && board.Repeats(k, keys[:i], 1) {
			prev = int32(i)
		}
		w.last = append(w.last, prev)
	}
}

// push records key k, about to be appended to keys, of a position whose
// no-capture clock is clock (so the clock keys before it are its stretch).
// maybe false says that k is known not to occur in keys (a filter's
// answer), which saves the scan.
func (w *repeatWatch) push(keys []uint64, k uint64, clock int, maybe bool) {
	prev := int32(-1)
	if n := len(w.last); n > 0 {
		prev = w.last[n-1]
	}
	if maybe && !w.off && board.Repeats(k, keys[len(keys)-min(clock, len(keys)):], 1) {
		prev = int32(len(keys))
	}
	w.last = append(w.last, prev)
}

// pop forgets the last key pushed.
func (w *repeatWatch) pop() { w.last = w.last[:len(w.last)-1] }

// clean reports whether the clock keys at the end of the path (a node's
// stretch, the node itself not yet pushed) hold no second occurrence.
func (w *repeatWatch) clean(clock int) bool {
	n := len(w.last)
	return n == 0 || int(w.last[n-1]) < n-clock
}
