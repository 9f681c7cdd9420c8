package match

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/sower-engine/sower/board"
)

// ReadOpenings reads start positions, one a line in the rule book's
// notation, for variant v. A # starts a comment, on a line of its own or
// after a position; blank lines are skipped, and so is a UTF-8 byte order
// mark at the start. A position that does not parse, or whose game is
// already over, is an error naming its line.
func ReadOpenings(r io.Reader, v *board.Variant) ([]board.Position, error) {
	var out []board.Position
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		s := sc.Text()
		if n == 1 {
			s = strings.TrimPrefix(s, "\ufeff")
		}
		s, _, _ = strings.Cut(s, "#") // the notation has no #
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		p, err := v.ParsePosition(s)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		if st := board.NewGame(p).Status(); st.Over() {
			return nil, fmt.Errorf("line %d: the game is already over (%s)", n, st.Reason)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no positions")
	}
	return out, nil
}
