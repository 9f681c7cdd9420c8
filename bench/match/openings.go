package match

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/sower-engine/sower/board"
)

// ReadOpenings reads start positions, one a line in the rule book's
// notation, for variant v. Blank lines and lines starting with # are
// skipped. A position that does not parse, or whose game is already over,
// is an error naming its line.
func ReadOpenings(r io.Reader, v *board.Variant) ([]board.Position, error) {
	var out []board.Position
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
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
