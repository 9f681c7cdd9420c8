package gui_test

import (
	"context"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sower-engine/sower/bench/record"
	"github.com/sower-engine/sower/board"
)

// matchView is the match panel.
type matchView struct {
	Hidden, NextHidden bool
	Score              string
	Games              []string
}

const matchJS = `(() => ({ hidden: document.querySelector('#match').hidden, nextHidden: document.querySelector('#next-game').hidden,
  score: document.querySelector('#match-score').textContent,
  games: [...document.querySelectorAll('#match-games li')].map(l => l.textContent) }))()`

// testTraditionalMatch starts a 2-game traditional match against the
// engine from the New game form, plays both games by clicking (the person
// South in game 1, North in game 2), and saves the match as one record:
// two games, colours swapped, LastFour capturer in both (rule book 2.6;
// the award from game 3 on is checked by the server's test), the score on
// the page as the records give it.
func testTraditionalMatch(t *testing.T, browserCtx context.Context, srv *guiServer) {
	tb := newTab(t, browserCtx, srv)
	dir := allowDownloads(tb)
	tb.open("game=hoyito3&south=human&north=sower&depth=2&animate=off")
	tb.waitFor("the game", 20*time.Second, settled)
	eval[bool](tb, `(() => { document.querySelector('#match-select').value = '2'; return true; })()`)
	tb.click("#new-game")
	rng := rand.New(rand.NewPCG(51, 0))
	for k := 1; k <= 2; k++ {
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			m := eval[matchView](tb, matchJS)
			if !m.Hidden && strings.Contains(m.Score, "game "+string(rune('0'+k))+" of 2") && len(m.Games) == k-1 {
				break
			}
			if time.Now().After(deadline) {
				tb.fail("no game %d of the match: %+v", k, m)
			}
		}
		// The new game has begun: nothing played yet, the engine thinking,
		// or (the engine playing South) the engine's first move made and
		// the person to move.
		s := tb.waitFor("a game of the match", 30*time.Second, func(s pageState) bool {
			return settled(s) && (len(s.Plies) == 0 || s.Turn == "human") || s.Turn == "engine"
		})
		south := k == 1
		r := refereeFor(t, board.NameHoyito3, "", south, !south)
		playHuman(tb, r, rng, 1000)
		s = tb.state()
		m := eval[matchView](tb, matchJS)
		if m.Hidden || len(m.Games) != k || !strings.Contains(m.Score, "game "+string(rune('0'+k))+" of 2") {
			t.Fatalf("game %d over (%s): the match panel %+v", k, *s.Result, m)
		}
		if k == 1 {
			if m.NextHidden {
				t.Fatalf("game 1 over: no Next game button")
			}
			tb.screenshot("match-game-1")
			tb.click("#next-game")
		} else if !m.NextHidden {
			t.Errorf("the match is over and Next game is shown")
		}
	}
	// The match's end is announced on the end card. The record is saved
	// once the card is there: the page has then done changing for the end.
	for deadline := time.Now().Add(20 * time.Second); !eval[bool](tb, `!document.querySelector('#end-card').hidden && !document.querySelector('#end-match').hidden`); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			tb.fail("the match is over and no end card announces it")
		}
	}
	data, err := os.ReadFile(saveRecord(tb, dir, "#export-jsonl", ".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := record.ReadRecords(data)
	if err != nil || len(recs) != 2 {
		t.Fatalf("the match's record: %d games, %v", len(recs), err)
	}
	score := 0.0
	for i, rec := range recs {
		wantSouth := []string{"human", "sower"}[i]
		if rec.Game != i+1 || rec.South != wantSouth || rec.Options["LastFour"] != "capturer" {
			t.Errorf("record %d: game %d, South %s, LastFour %s; want game %d, South %s, capturer", i, rec.Game, rec.South, rec.Options["LastFour"], i+1, wantSouth)
		}
		switch {
		case rec.Winner == "draw":
			score += 0.5
		case map[string]string{"south": rec.South, "north": rec.North}[rec.Winner] == "human":
			score++
		}
	}
	m := eval[matchView](tb, matchJS)
	want := "human " + map[float64]string{0: "0", 0.5: "½", 1: "1", 1.5: "1½", 2: "2"}[score] + " – "
	if !strings.Contains(m.Score, want) {
		t.Errorf("match score %q, want %q as the records give it", m.Score, want)
	}
	// The end of the match is announced with its score, by the result.
	over := map[float64]string{0: "sower wins it 2–0", 0.5: "sower wins it 1½–½", 1: "drawn 1–1", 1.5: "human wins it 1½–½", 2: "human wins it 2–0"}[score]
	if got := eval[string](tb, `document.querySelector('#end-card').hidden || document.querySelector('#end-match').hidden ? '' : document.querySelector('#end-match').textContent`); got != "The match is over: "+over+" after 2 games." {
		t.Errorf("the end of the match: %q, want it announced: %q", got, over)
	}
	tb.screenshot("match-over")
}
