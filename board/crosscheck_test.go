package board_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// ruleSets lists the rule options the cross-checks run under, with the
// reference implementation's spelling of each.
func ruleSets() []struct {
	r   board.Rules
	ref RefRules
} {
	var out []struct {
		r   board.Rules
		ref RefRules
	}
	for _, cs := range []board.CaptureSide{board.CaptureAny, board.CaptureOpponent} {
		for _, lf := range []board.LastFour{board.LastFourCapturer, board.LastFourSouth, board.LastFourNorth} {
			r := board.DefaultRules()
			r.CaptureSide, r.LastFour = cs, lf
			out = append(out, struct {
				r   board.Rules
				ref RefRules
			}{r, RefRules{CaptureOpponent: cs == board.CaptureOpponent, LastFour: lf.String()}})
		}
	}
	return out
}

func moveStrings(ms []board.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}

// TestCrossCheckGames plays random games with both implementations side by
// side under every rule set and compares, at every ply, the notation, the
// legal moves and whether the game is over.
func TestCrossCheckGames(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 8
	}
	for _, name := range board.Names() {
		for _, rs := range ruleSets() {
			if name != board.NameHoyito3 && (rs.r.CaptureSide != board.CaptureAny || rs.r.LastFour != board.LastFourCapturer) {
				continue // the Hoyito III options change nothing in Katro
			}
			v, _ := board.NewWithRules(name, rs.r)
			rng := rand.New(rand.NewPCG(7, uint64(rs.r.LastFour)<<1|uint64(rs.r.CaptureSide)))
			for range games {
				p := v.Start()
				ref := RefStart(name, rs.ref)
				for ply := 0; ; ply++ {
					if got, want := p.String(), ref.FEN(); got != want {
						t.Fatalf("%s %+v ply %d: position %s, reference %s", name, rs.r, ply, got, want)
					}
					legal := moveStrings(p.LegalMoves())
					if want := ref.Legal(); !slices.Equal(legal, want) && !(len(legal) == 0 && len(want) == 0) {
						t.Fatalf("%s %s: legal %v, reference %v", name, p.String(), legal, want)
					}
					over := p.Status(nil).Reason == board.ReasonNoMove || p.OnBoard() == 0
					if over != ref.Over() {
						t.Fatalf("%s %s: over %v, reference %v", name, p.String(), over, ref.Over())
					}
					if over {
						break
					}
					m := p.LegalMoves()[rng.IntN(len(legal))]
					var err error
					if p, err = p.After(m); err != nil {
						t.Fatal(err)
					}
					if ref, err = ref.Play(m.String()); err != nil {
						t.Fatalf("%s: reference rejects %s: %v", name, m, err)
					}
				}
			}
		}
	}
}

// TestCrossCheckPerft compares perft with the reference implementation from
// the positions in testdata/perft.txt, which are positions of every game from
// the opening to the end, chosen for captures, relays, passes and endings.
func TestCrossCheckPerft(t *testing.T) {
	cases := readPerftPositions(t)
	perGame := map[string]int{}
	for _, c := range cases {
		v, err := board.New(c.game)
		if err != nil {
			t.Fatalf("line %d: %v", c.line, err)
		}
		p, err := v.ParsePosition(c.fen)
		if err != nil {
			t.Fatalf("line %d: %v", c.line, err)
		}
		ref, err := RefParse(c.game, RefRules{}, c.fen)
		if err != nil {
			t.Fatalf("line %d: reference: %v", c.line, err)
		}
		depth := c.depth
		if testing.Short() {
			depth = min(depth, 3)
		}
		for d := 1; d <= depth; d++ {
			if got, want := p.Perft(d), RefPerft(ref, d); got != want {
				t.Errorf("line %d %s %s perft(%d) = %d, reference %d", c.line, c.game, c.fen, d, got, want)
			}
		}
		want := RefDivide(ref, depth)
		for _, e := range p.Divide(depth) {
			if want[e.Move.String()] != e.Nodes {
				t.Errorf("line %d divide(%d) %s = %d, reference %d", c.line, depth, e.Move, e.Nodes, want[e.Move.String()])
			}
			delete(want, e.Move.String())
		}
		if len(want) != 0 {
			t.Errorf("line %d: divide misses %v", c.line, want)
		}
		perGame[c.game]++
	}
	for _, name := range board.Names() {
		if perGame[name] < 10 {
			t.Errorf("%s: %d perft positions, want at least 10", name, perGame[name])
		}
	}
}

type perftCase struct {
	line      int
	game, fen string
	depth     int
}

// readPerftPositions reads testdata/perft.txt.
func readPerftPositions(t *testing.T) []perftCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "perft.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []perftCase
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, ";")
		if len(f) != 3 {
			t.Fatalf("testdata/perft.txt:%d: want <game>; <position>; <depth>", i+1)
		}
		d, err := strconv.Atoi(strings.TrimSpace(f[2]))
		if err != nil {
			t.Fatalf("testdata/perft.txt:%d: %v", i+1, err)
		}
		out = append(out, perftCase{i + 1, strings.TrimSpace(f[0]), strings.TrimSpace(f[1]), d})
	}
	return out
}
