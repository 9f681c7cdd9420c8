package frontier

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/sower-engine/sower/board"
)

// Line is a game to walk back: its name, its start and the moves played
// from there to the game's end.
type Line struct {
	Name  string
	Start board.Position
	Moves []board.Move
}

// Game returns the game after the line's first n moves, with the history
// that repetition needs.
func (l *Line) Game(n int) (*board.Game, error) {
	if n < 0 || n > len(l.Moves) {
		return nil, fmt.Errorf("line %s: ply %d: the line has %d moves", l.Name, n, len(l.Moves))
	}
	g := board.NewGame(l.Start)
	if err := g.PlayAll(l.Moves[:n]); err != nil {
		return nil, fmt.Errorf("line %s: %w", l.Name, err)
	}
	return g, nil
}

// ReadLines reads lines of games in the format of WriteLines: a name, a
// tab, the start in the rule book's notation, a tab, the moves separated
// by spaces; blank lines and lines starting with '#' are skipped. Every
// game must end with its last move (the walk starts from the end), and
// names must differ.
func ReadLines(r io.Reader, v *board.Variant) ([]Line, error) {
	var out []Line
	names := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		l, err := parseLine(text, v)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if names[l.Name] {
			return nil, fmt.Errorf("line %d: the name %q is used twice", n, l.Name)
		}
		names[l.Name] = true
		out = append(out, l)
	}
	return out, sc.Err()
}

// parseLine reads one game line and checks that it ends the game.
func parseLine(text string, v *board.Variant) (Line, error) {
	f := strings.Split(text, "\t")
	if len(f) != 3 {
		return Line{}, fmt.Errorf("%d tab-separated fields, want 3: name, start, moves", len(f))
	}
	start, err := v.ParsePosition(f[1])
	if err != nil {
		return Line{}, fmt.Errorf("%s: start: %w", f[0], err)
	}
	ms, err := v.ParseMoves(f[2])
	if err != nil {
		return Line{}, fmt.Errorf("%s: moves: %w", f[0], err)
	}
	l := Line{Name: strings.TrimSpace(f[0]), Start: start, Moves: ms}
	if l.Name == "" {
		return Line{}, fmt.Errorf("no name")
	}
	g, err := l.Game(len(ms))
	if err != nil {
		return Line{}, err
	}
	if !g.Status().Over() {
		return Line{}, fmt.Errorf("%s: the game does not end after its %d moves", l.Name, len(ms))
	}
	return l, nil
}

// WriteLines writes lines for ReadLines, after a comment (each of its
// lines written with "# " before it; none when empty).
func WriteLines(w io.Writer, comment string, lines []Line) error {
	bw := bufio.NewWriter(w)
	if comment != "" {
		for _, c := range strings.Split(comment, "\n") {
			fmt.Fprintf(bw, "# %s\n", c)
		}
	}
	for _, l := range lines {
		fmt.Fprintf(bw, "%s\t%s\t%s\n", l.Name, l.Start.String(), board.FormatMoves(l.Moves))
	}
	return bw.Flush()
}
