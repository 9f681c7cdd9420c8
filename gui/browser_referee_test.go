package gui_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sower-engine/sower/board"
)

// referee keeps the game the page shows with package board, from the move
// list the page shows, and compares the page with it: the page must agree
// with the rules after every ply.
type referee struct {
	t     *testing.T
	v     *board.Variant
	g     *board.Game
	human [2]bool // the sides the person plays
	// shown holds, for each ply from the start, the notation and the
	// seeds of the position after it; index 0 is the start.
	shown []shownPos
}

// shownPos is a position as the page must show it.
type shownPos struct {
	fen   string
	holes map[string]int
}

// newReferee starts a referee from a position.
func newReferee(t *testing.T, v *board.Variant, start board.Position, south, north bool) *referee {
	r := &referee{t: t, v: v, g: board.NewGame(start), human: [2]bool{south, north}}
	r.shown = []shownPos{r.current()}
	return r
}

// refereeFor starts a referee from the variant's start position or a FEN.
func refereeFor(t *testing.T, game, fen string, south, north bool) *referee {
	t.Helper()
	v, err := board.New(game)
	if err != nil {
		t.Fatal(err)
	}
	p := v.Start()
	if fen != "" {
		if p, err = v.ParsePosition(fen); err != nil {
			t.Fatal(err)
		}
	}
	return newReferee(t, v, p, south, north)
}

func (r *referee) current() shownPos {
	p := r.g.Position()
	s := shownPos{fen: p.String(), holes: map[string]int{}}
	for _, h := range r.v.Holes() {
		s.holes[h.String()] = p.Count(h)
	}
	return s
}

// plyMove reads the move of one move-list item, its data-move attribute.
func plyMove(it plyItem) (string, error) {
	if it.Move == "" {
		return "", fmt.Errorf("move-list item %s %q has no data-move", it.Ply, it.Text)
	}
	return it.Move, nil
}

// follow plays on the referee's game the plies of the page's move list
// that it has not played yet. The list must extend what it has.
func (r *referee) follow(tb *tab, s pageState) {
	r.t.Helper()
	for i, it := range s.Plies {
		if it.Ply != strconv.Itoa(i+1) {
			tb.fail("move list item %d has data-ply=%q, want %d", i, it.Ply, i+1)
		}
	}
	if len(s.Plies) < r.g.Ply() {
		tb.fail("the move list shrank from %d to %d plies", r.g.Ply(), len(s.Plies))
	}
	for _, it := range s.Plies[r.g.Ply():] {
		name, err := plyMove(it)
		if err != nil {
			tb.fail("%v", err)
		}
		m, err := r.v.ParseMove(name)
		if err != nil {
			tb.fail("ply %s: %v", it.Ply, err)
		}
		before := r.g.Position()
		if err := r.g.Play(m); err != nil {
			tb.fail("ply %s %s in %s: %v", it.Ply, name, before.String(), err)
		}
		r.shown = append(r.shown, r.current())
	}
}

// truncate goes back to the first n plies, as a take back does.
func (r *referee) truncate(n int) {
	ms := slices.Clone(r.g.Moves()[:n])
	r.g = board.NewGame(r.g.Start())
	if err := r.g.PlayAll(ms); err != nil {
		r.t.Fatal(err)
	}
	r.shown = r.shown[:n+1]
}

// wantTurn is the data-turn the page must show.
func (r *referee) wantTurn() string {
	p := r.g.Position()
	switch {
	case r.g.Status().Over():
		return "over"
	case r.human[p.Side()]:
		return "human"
	}
	return "engine"
}

// check compares the page with the referee's game: the notation, every
// hole's seeds and legality, the pass button, the status, the turn and the
// result.
func (r *referee) check(tb *tab, s pageState) {
	r.t.Helper()
	p := r.g.Position()
	st := r.g.Status()
	var errs []string
	if s.FenCount != 1 {
		errs = append(errs, fmt.Sprintf("%d elements with data-fen outside the move list, want 1", s.FenCount))
	}
	if s.Fen != p.String() {
		errs = append(errs, fmt.Sprintf("data-fen %q, want %q", s.Fen, p.String()))
	}
	legal := map[string]bool{}
	passLegal := false
	if !st.Over() {
		for _, m := range p.LegalMoves() {
			if m == board.Pass {
				passLegal = true
			} else {
				legal[m.String()] = true
			}
		}
	}
	seen := map[string]bool{}
	for _, h := range s.Holes {
		seen[h.Name] = true
		want, ok := r.shown[len(r.shown)-1].holes[h.Name]
		if !ok {
			errs = append(errs, fmt.Sprintf("data-hole %q is not a hole of %s", h.Name, r.v.Name()))
			continue
		}
		if h.Seeds != strconv.Itoa(want) {
			errs = append(errs, fmt.Sprintf("%s: data-seeds %q, want %d", h.Name, h.Seeds, want))
		}
		if wl := strconv.FormatBool(legal[h.Name]); h.Legal != wl {
			errs = append(errs, fmt.Sprintf("%s: data-legal %q, want %s", h.Name, h.Legal, wl))
		}
		if h.Tag != "BUTTON" || strings.TrimSpace(h.Label) == "" {
			errs = append(errs, fmt.Sprintf("%s: a <%s> labelled %q, want a <button> with an aria-label", h.Name, strings.ToLower(h.Tag), h.Label))
		}
	}
	for _, h := range r.v.Holes() {
		if !seen[h.String()] {
			errs = append(errs, fmt.Sprintf("no element with data-hole=%q", h))
		}
	}
	if r.v.Family() == board.Hoyito && !st.Over() && r.wantTurn() == "human" {
		if !s.PassPresent {
			errs = append(errs, "no #pass button in Hoyito III")
		} else if s.PassDisabled == passLegal {
			errs = append(errs, fmt.Sprintf("#pass disabled=%v, but passing is legal=%v", s.PassDisabled, passLegal))
		}
	}
	if s.Status != st.Result.String() {
		errs = append(errs, fmt.Sprintf("data-status %q, want %q (%s)", s.Status, st.Result, st.Reason))
	}
	if w := r.wantTurn(); s.Turn != w {
		errs = append(errs, fmt.Sprintf("data-turn %q, want %q", s.Turn, w))
	}
	if st.Over() && (s.Result == nil || *s.Result == "") {
		errs = append(errs, "#result is empty after the game ended")
	}
	if !st.Over() && s.Result != nil && *s.Result != "" {
		errs = append(errs, fmt.Sprintf("#result %q while the game goes on", *s.Result))
	}
	if len(errs) > 0 {
		tb.fail("after %d plies (%s):\n\t%s", r.g.Ply(), board.FormatMoves(r.g.Moves()), strings.Join(errs, "\n\t"))
	}
}

// seedsOf reads a snapshot's "a1:2,b1:2" list.
func seedsOf(s string) map[string]int {
	m := map[string]int{}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, ":")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			n = -1
		}
		m[k] = n
	}
	return m
}

// checkShown checks that the board showed every position from ply from on,
// with every hole's seeds right, at some moment between two batches of
// changes; it returns, per ply, the time the page first showed it.
func (r *referee) checkShown(tb *tab, snaps []snapshot, from int) map[int]float64 {
	r.t.Helper()
	at := map[int]float64{}
	for k := from; k < len(r.shown); k++ {
		want := r.shown[k]
		for _, s := range snaps {
			if s.Fen != want.fen {
				continue
			}
			if got := seedsOf(s.Seeds); len(got) == len(want.holes) && mapsEqual(got, want.holes) {
				at[k] = s.T
				break
			}
		}
		if _, ok := at[k]; !ok {
			tb.fail("the board never showed ply %d (%s) with its seeds; %d snapshots", k, want.fen, len(snaps))
		}
	}
	return at
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
