package gui_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/board"
	"github.com/sower-engine/sower/gui"
)

// plyScore is what the page shows of ply k's score: in the move list,
// and under the board once the ply is shown.
type plyScore struct {
	Item, Main, Words, Source string
}

const plyScoreJS = `((k) => {
  const b = document.querySelector('#eval-now');
  const t = (s) => { const e = b.querySelector(s); return e ? e.textContent.trim() : ''; };
  const sc = document.querySelector('#movelist li[data-ply="' + k + '"] .sc');
  return { item: sc ? sc.textContent : '', main: t('.eval-main'), words: t('.eval-words'), source: b.dataset.source || '' };
})`

// ordinalMove says the winner's n-th move as the page does.
func ordinalMove(n int) string {
	if n == 1 {
		return "next move"
	}
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		suffix = map[int]string{1: "st", 2: "nd", 3: "rd"}[n%10]
		if suffix == "" {
			suffix = "th"
		}
	}
	return fmt.Sprintf("%d%s move from here", n, suffix)
}

// testWinsIn has Sower play both sides of katro-4x4 positions with a
// forced win, at a depth that sees to the end, then reviews the game: at
// every ply, in play and after the review, the page's "#N" (in the move
// list and under the board, with its words) is the solver's count of the
// winner's moves to the end of the game from the position after the ply,
// and the game's end says who has won.
func testWinsIn(t *testing.T, browser context.Context, srv *guiServer) {
	tb := newTab(t, browser, srv)
	v, err := board.New(board.NameKatro4x4)
	if err != nil {
		t.Fatal(err)
	}
	for _, fen := range gui.ForcedWins {
		tb.open("game=katro-4x4&south=sower&north=sower&depth=20&animate=off&fen=" + url.QueryEscape(fen))
		s := tb.waitFor("the engines' game", 60*time.Second, func(s pageState) bool { return s.Busy == "false" && s.Turn == "over" })
		p, err := v.ParsePosition(fen)
		if err != nil {
			t.Fatal(err)
		}
		// The solver's count after every ply, and the game's winner.
		var want []string
		var words []string
		for _, it := range s.Plies {
			m, err := v.ParseMove(it.Move)
			if err != nil {
				t.Fatal(err)
			}
			p.Play(m)
			if st := p.Status(nil); st.Over() {
				w, _ := st.Result.Winner()
				want = append(want, map[board.Side]string{board.South: "South has won", board.North: "North has won"}[w])
				words = append(words, "")
				continue
			}
			n, ok := gui.SolvedMate(t, &p)
			if !ok {
				t.Fatalf("%s after %d plies: no forced win", fen, len(want)+1)
			}
			side := "South"
			if n < 0 {
				side = "North"
			}
			want = append(want, fmt.Sprintf("#%d", n))
			words = append(words, side+" wins with its "+ordinalMove(max(n, -n)))
		}
		check := func(when, source string) {
			for k := len(want); k >= 1; k-- {
				tb.click(fmt.Sprintf(`#movelist li[data-ply="%d"] .mv`, k))
				tb.waitFor(fmt.Sprintf("ply %d", k), 10*time.Second, func(s pageState) bool { return s.Busy == "false" && s.Plies[k-1].Current })
				got := eval[plyScore](tb, fmt.Sprintf("%s(%d)", plyScoreJS, k))
				src := source
				if k == len(want) {
					src = "result"
				}
				if got.Item != want[k-1] || got.Main != want[k-1] || got.Words != words[k-1] || got.Source != src {
					t.Errorf("%s, %s, ply %d (%s): the move list says %q, the score %q (%q, from %q); the solver gives %q (%q, from %q)",
						fen, when, k, s.Plies[k-1].Move, got.Item, got.Main, got.Words, got.Source, want[k-1], words[k-1], src)
				}
			}
		}
		t.Logf("%s: %d plies, the solver's counts %s", fen, len(want), strings.Join(want, " "))
		check("in play", "engine")
		eval[bool](tb, `(() => { document.querySelector('#review-kind').value = 'depth'; document.querySelector('#review-value').value = '20'; return true; })()`)
		tb.click("#review")
		n := fmt.Sprint(len(want))
		waitReview(tb, "the review", 60*time.Second, func(r reviewView) bool { return !r.Running && r.Plies == n })
		check("after a review", "review")
	}
}
