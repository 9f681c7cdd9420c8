package board

import (
	"fmt"
	"strconv"
	"strings"
)

// ParsePosition reads a position in the rule book's notation (section 3):
//
//	Katro:      <rows> <side> <clock>
//	Hoyito III: <rows> <side> <south-captured> <north-captured> <clock>
//
// Rows run from the top (the highest row number) down to row 1, separated
// by '/'; each row lists its holes west to east as decimal counts separated
// by ','. The side is S or N in either case; fields may be separated by any
// run of white space. Every validity rule of the rule book is checked, and
// an error says what is wrong and where. The position is taken as not
// following a pass.
func (v *Variant) ParsePosition(s string) (Position, error) {
	p := Position{v: v}
	fields := strings.Fields(s)
	want := 3
	layout := "<rows> <side> <clock>"
	if v.family == Hoyito {
		want = 5
		layout = "<rows> <side> <south-captured> <north-captured> <clock>"
	}
	if len(fields) != want {
		return p, fmt.Errorf("position has %d fields, want %d: %s", len(fields), want, layout)
	}
	rows := strings.Split(fields[0], "/")
	if len(rows) != v.rows {
		return p, fmt.Errorf("board has %d rows, want %d", len(rows), v.rows)
	}
	for i, row := range rows {
		r := v.rows - 1 - i // rows are listed from the top
		holes := strings.Split(row, ",")
		if len(holes) != v.cols {
			return p, fmt.Errorf("row %d has %d holes, want %d", r+1, len(holes), v.cols)
		}
		for c, h := range holes {
			m := HoleMove(r, c)
			n, err := parseCount(h, v.total)
			if err != nil {
				return p, fmt.Errorf("%s: %w", m, err)
			}
			p.cells[v.regionOf[m]].add(int(v.laneOf[m]), n)
		}
	}
	switch strings.ToUpper(fields[1]) {
	case "S":
		p.side = South
	case "N":
		p.side = North
	default:
		return p, fmt.Errorf("side %q: want S or N", clip(fields[1]))
	}
	if v.family == Hoyito {
		for i, s := range [2]Side{South, North} {
			n, err := parseCount(fields[2+i], v.total)
			if err != nil {
				return p, fmt.Errorf("%s's captures: %w", s, err)
			}
			p.capt[s] = uint8(n)
		}
	}
	clock, err := parseCount(fields[len(fields)-1], MaxClock)
	if err != nil {
		return p, fmt.Errorf("clock: %w", err)
	}
	p.clock = uint32(clock)
	if err := p.validate(p.slowSum()); err != nil {
		return p, err
	}
	p.key = p.computeKey()
	return p, nil
}

// parseCount reads a non-negative decimal integer no larger than max.
func parseCount(s string, max int) (int, error) {
	if s == "" {
		return 0, fmt.Errorf("empty count, want a non-negative integer")
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("%q is not a non-negative integer", clip(s))
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > max {
		return 0, fmt.Errorf("%s is too large (at most %d)", clip(s), max)
	}
	return n, nil
}

// String returns the position in the rule book's notation; ParsePosition
// reads it back to the same position.
func (p Position) String() string {
	v := p.v
	if v == nil {
		return "<no position>"
	}
	b := make([]byte, 0, 128)
	for r := v.rows - 1; r >= 0; r-- {
		for c := 0; c < v.cols; c++ {
			b = strconv.AppendInt(b, int64(p.Count(HoleMove(r, c))), 10)
			if c < v.cols-1 {
				b = append(b, ',')
			}
		}
		if r > 0 {
			b = append(b, '/')
		}
	}
	b = append(b, ' ', p.side.Letter(), ' ')
	if v.family == Hoyito {
		b = strconv.AppendInt(b, int64(p.capt[0]), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(p.capt[1]), 10)
		b = append(b, ' ')
	}
	b = strconv.AppendInt(b, int64(p.clock), 10)
	return string(b)
}
