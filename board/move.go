package board

import (
	"fmt"
	"strings"
)

// Move is a ply: the hole it starts from, or a pass. The zero Move is
// NoMove. A hole move packs the 0-based row in bits 3-5 and the column in
// bits 0-2, plus one; so a Move names a hole without knowing its board.
type Move uint8

// Special moves.
const (
	NoMove Move = 0    // no move; written "(none)"
	Pass   Move = 0xff // a Hoyito III pass; written "pass"
)

// HoleMove returns the move from the hole in row r and column c, both
// 0-based (row 0 is row 1, column 0 is column a).
func HoleMove(r, c int) Move { return Move(r<<3|c) + 1 }

// IsHole reports whether m starts from a hole (it is neither NoMove nor Pass).
func (m Move) IsHole() bool { return m != NoMove && m != Pass }

// Row returns the 0-based row of a hole move.
func (m Move) Row() int { return int(m-1) >> 3 & 7 }

// Col returns the 0-based column of a hole move.
func (m Move) Col() int { return int(m-1) & 7 }

// String returns the move in the rule book's notation: "c1", "pass", or
// "(none)" for NoMove.
func (m Move) String() string {
	switch {
	case m == NoMove:
		return "(none)"
	case m == Pass:
		return "pass"
	case m > HoleMove(7, 7):
		return fmt.Sprintf("Move(%d)", uint8(m))
	}
	return string([]byte{'a' + byte(m.Col()), '1' + byte(m.Row())})
}

// ParseMove reads a move in the rule book's notation (section 4) for this
// variant: a hole name such as "c1", or "pass" ("0000" is the same). Letters
// may be in either case. Only the syntax and the board are checked here;
// Position.CheckMove tells whether the move is legal.
func (v *Variant) ParseMove(s string) (Move, error) {
	t := strings.ToLower(s)
	if t == "pass" || t == "0000" {
		return Pass, nil
	}
	if len(t) < 2 || len(t) > 3 || t[0] < 'a' || t[0] > 'z' {
		return NoMove, fmt.Errorf("%q is not a move: want a hole such as c1, or pass", clip(s))
	}
	row := 0
	for i := 1; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return NoMove, fmt.Errorf("%q is not a move: want a hole such as c1, or pass", clip(s))
		}
		row = row*10 + int(t[i]-'0')
	}
	col := int(t[0] - 'a')
	if row < 1 || row > v.rows || col >= v.cols {
		return NoMove, fmt.Errorf("%s is not on the board: %s has columns a-%c and rows 1-%d",
			t, v.name, 'a'+byte(v.cols-1), v.rows)
	}
	return HoleMove(row-1, col), nil
}

// ParseMoves reads a space-separated list of moves. An error names the move
// and its 1-based index in the list.
func (v *Variant) ParseMoves(s string) ([]Move, error) {
	fields := strings.Fields(s)
	ms := make([]Move, 0, len(fields))
	for i, f := range fields {
		m, err := v.ParseMove(f)
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// MaxMoves bounds the number of moves in any position: a back row or own
// row has at most six holes, and a pass excludes every other move.
const MaxMoves = 8

// MoveList is a fixed-size list of moves that lives on the stack.
type MoveList struct {
	Moves [MaxMoves]Move
	N     int
}

// Add appends m.
func (l *MoveList) Add(m Move) { l.Moves[l.N] = m; l.N++ }

// Slice returns the moves as a slice of the list's array.
func (l *MoveList) Slice() []Move { return l.Moves[:l.N] }

// String returns the moves in notation, separated by spaces.
func (l *MoveList) String() string { return FormatMoves(l.Slice()) }

// FormatMoves writes moves in notation, separated by spaces.
func FormatMoves(ms []Move) string {
	var b strings.Builder
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(m.String())
	}
	return b.String()
}

// clip shortens user input quoted in an error message.
func clip(s string) string {
	const max = 24
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}
